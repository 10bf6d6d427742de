"""Recording constructor arguments so a wrapper stack can be rebuilt from its spec."""

from __future__ import annotations

from copy import deepcopy
from typing import Any, TypeAlias

__all__ = ["RecordConstructorArgs"]

_Kwargs: TypeAlias = dict[str, Any]


class RecordConstructorArgs:
    """Mixin that stores the keyword arguments a class was constructed with in ``_saved_kwargs``.

    :attr:`reference.core.Wrapper.spec` reads ``_saved_kwargs`` to describe the wrapper in the environment spec.
    Only the first call records anything, so in a class hierarchy the most derived class (which should call
    ``RecordConstructorArgs.__init__`` before its base constructors) wins.

    Args:
        _disable_deepcopy: Store the arguments as given instead of a deep copy (for arguments that cannot be
            copied, such as callables holding resources).
        **kwargs: The constructor arguments to record.
    """

    _saved_kwargs: _Kwargs

    def __init__(self, *, _disable_deepcopy: bool = False, **kwargs: Any) -> None:
        if not hasattr(self, "_saved_kwargs"):
            self._saved_kwargs = kwargs if _disable_deepcopy else deepcopy(kwargs)
