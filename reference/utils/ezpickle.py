"""Pickling through constructor arguments."""

from __future__ import annotations

from typing import Any, TypeAlias

__all__ = ["EzPickle"]

_State: TypeAlias = dict[str, Any]


class EzPickle:
    """Mixin that pickles an object as the arguments it was constructed with.

    On unpickling, a fresh instance is built by calling the class with those arguments, which is what objects
    holding unpicklable resources (simulators, windows) need. Call ``EzPickle.__init__(self, *args, **kwargs)``
    from the subclass constructor with the arguments that rebuild it.

    Args:
        *args: Positional constructor arguments to replay.
        **kwargs: Keyword constructor arguments to replay.
    """

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._ezpickle_args = args
        self._ezpickle_kwargs = kwargs

    def __getstate__(self) -> _State:
        """Return the recorded constructor arguments as the pickle state."""
        return {"_ezpickle_args": self._ezpickle_args, "_ezpickle_kwargs": self._ezpickle_kwargs}

    def __setstate__(self, state: _State) -> None:
        """Rebuild the object by calling its class with the recorded arguments.

        Args:
            state: The mapping produced by :meth:`__getstate__`.
        """
        rebuilt = type(self)(*state["_ezpickle_args"], **state["_ezpickle_kwargs"])
        self.__dict__.update(rebuilt.__dict__)
