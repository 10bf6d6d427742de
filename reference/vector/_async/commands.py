"""The generic commands of ``AsyncVectorEnv``: ``call``, ``get_attr``, ``set_attr`` and ``render``.

Each one sends a single request to every worker, which runs it over its slice of sub-envs and answers with one
result per sub-env. They share the state machine of :class:`~reference.vector._async.env.AsyncVectorEnv` (a
``call_async`` is pending until ``call_wait``), which they reach through the two hooks declared by
:class:`CallCommands`.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from reference._narrowing import is_list_or_tuple
from reference.core import RenderFrame
from reference.vector._async.wire import CallRequest, Command, Report, SetAttrRequest, encode

__all__ = ["CallCommands"]

#: Anything a sub-env attribute or method holds or returns.
AttrValue: TypeAlias = Any
_CALL_FORBIDDEN = ("reset", "step", "close")


class CallCommands:
    """Mixin: the generic commands, for a class that implements the two hooks below (``AsyncVectorEnv`` does)."""

    num_envs: int
    num_workers: int
    _slices: list[tuple[int, int]]

    def _start_call(self, call: str, frames: dict[int, bytes]) -> None:
        """Send one request frame per worker and mark ``call`` pending."""
        raise NotImplementedError

    def _finish_call(self, timeout: float | None) -> Report:
        """Wait for every worker's reply to the pending call and merge them."""
        raise NotImplementedError

    def call(self, name: str, *args: AttrValue, **kwargs: AttrValue) -> tuple[AttrValue, ...]:
        """Call method ``name`` on every sub-env (or read it if it is not callable) and wait for the results.

        See :meth:`call_async` and :meth:`call_wait`.
        """
        self.call_async(name, *args, **kwargs)
        return self.call_wait()

    def call_async(self, name: str, /, *args: AttrValue, **kwargs: AttrValue) -> None:
        """Start calling method ``name`` on every sub-env; collect the results with :meth:`call_wait`.

        Args:
            name: The method or attribute name.
            *args: Positional arguments for the method (pickled).
            **kwargs: Keyword arguments for the method (pickled).

        Raises:
            ValueError: ``name`` is ``step``, ``reset`` or ``close``, which would bypass the vector env's own
                bookkeeping.
            ClosedEnvironmentError: The environment was closed.
            AlreadyPendingCallError: Another call is pending.
        """
        if name in _CALL_FORBIDDEN:
            raise ValueError(
                f"{type(self).__name__} call name must not be 'step', 'reset' or 'close', got {name!r}; "
                f"use {name}() on the vector env directly"
            )
        frame = encode(Command.CALL, CallRequest(name, args, kwargs))
        self._start_call("call_async", dict.fromkeys(range(self.num_workers), frame))

    def call_wait(self, timeout: float | None = None) -> tuple[AttrValue, ...]:
        """Wait for the calls started by :meth:`call_async`.

        Args:
            timeout: Seconds to wait at most; ``None`` waits as long as the workers live.

        Returns:
            One result per sub-env.

        Raises:
            ClosedEnvironmentError: The environment was closed.
            NoAsyncCallError: No call is pending.
            multiprocessing.TimeoutError: Not every worker answered in time (the call stays pending).
        """
        return tuple(self._finish_call(timeout).results)

    def get_attr(self, name: str) -> tuple[AttrValue, ...]:
        """Read attribute ``name`` of every sub-env (methods are called without arguments).

        Args:
            name: The attribute name.

        Returns:
            One value per sub-env.
        """
        return self.call(name)

    def set_attr(self, name: str, values: AttrValue) -> None:
        """Set attribute ``name`` on every sub-env.

        Args:
            name: The attribute name.
            values: A list or tuple with one value per sub-env, or any other value to set on all of them.

        Raises:
            ValueError: A list or tuple does not have ``num_envs`` entries.
            AlreadyPendingCallError: Another call is pending.
        """
        per_env = values if is_list_or_tuple(values) else [values] * self.num_envs
        if len(per_env) != self.num_envs:
            raise ValueError(
                f"{type(self).__name__} values must have num_envs={self.num_envs} entries when a list or tuple, "
                f"got {len(per_env)}"
            )
        frames = {
            worker: encode(Command.SET_ATTR, SetAttrRequest(name, tuple(per_env[start:stop])))
            for worker, (start, stop) in enumerate(self._slices)
        }
        self._start_call("set_attr", frames)
        self._finish_call(None)

    def render(self) -> tuple[RenderFrame, ...] | None:
        """Render every sub-environment (in its worker).

        Returns:
            One frame (or ``None``) per sub-env.
        """
        return self.call("render")
