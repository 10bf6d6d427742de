"""The call state machine of ``AsyncVectorEnv`` and everything in it that does not touch observations or actions.

:class:`AsyncState` names the pending call. :class:`AsyncBase` moves between states (``*_async`` leaves
``DEFAULT``, the matching ``*_wait`` returns to it; a timed-out wait keeps the call pending, with the replies
received so far), turns a dead worker into a lasting :class:`~reference.vector._pool.WorkerDiedError`, and
implements the generic commands (``call``, ``get_attr``, ``set_attr``, ``render``) and ``close``.
"""

from __future__ import annotations

import enum
import multiprocessing
from typing import Any, Generic, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference import logger
from reference.core import ActType, ObsType, RenderFrame
from reference.error import AlreadyPendingCallError, ClosedEnvironmentError, NoAsyncCallError
from reference.vector._base_env import VectorEnv
from reference.vector._pool import WorkerDiedError, WorkerPool
from reference.vector._protocol import CallRequest, Command, RemoteError, SetAttrRequest, decode, encode, merge_replies

__all__ = ["AsyncBase", "AsyncState"]

#: Anything returned by a sub-env attribute or method through ``call``/``get_attr``.
AttrValue: TypeAlias = Any
CloseOption: TypeAlias = Any
_CALL_FORBIDDEN = ("reset", "step", "close")


class AsyncState(enum.Enum):
    """Which call, if any, is waiting for its ``*_wait``."""

    DEFAULT = "default"
    WAITING_RESET = "reset"
    WAITING_STEP = "step"
    WAITING_CALL = "call"


class AsyncBase(VectorEnv[ObsType, ActType, NDArray[Any]], Generic[ObsType, ActType]):
    """The base of :class:`~reference.vector.AsyncVectorEnv`: its state machine, generic commands and ``close``.

    The subclass starts :attr:`_pool` (one worker per entry of :attr:`_slices`) and implements ``reset`` and
    ``step`` on top of :meth:`_check_idle`, :meth:`_send`, :meth:`_check_waiting` and :meth:`_collect`.
    """

    num_workers: int
    _pool: WorkerPool
    _slices: list[tuple[int, int]]
    _state: AsyncState
    _pending: list[int]
    _broken: str | None
    _starting: bool

    # --- properties -----------------------------------------------------------------------------------------

    @property
    def np_random_seed(self) -> tuple[int, ...]:
        """Every sub-env's ``np_random_seed``."""
        return self.get_attr("np_random_seed")

    @property
    def np_random(self) -> tuple[np.random.Generator, ...]:
        """Copies of every sub-env's generator (they live in the workers)."""
        return self.get_attr("np_random")

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        raise AttributeError(
            f"{type(self).__name__} np_random is read-only (one generator per sub-env); seed with reset(seed=...)"
        )

    # --- state machine plumbing -----------------------------------------------------------------------------

    def _check_usable(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(f"{type(self).__name__} must be open to be used, got a call after close()")
        if self._broken is not None:
            raise WorkerDiedError(self._broken)

    def _check_idle(self, call: str) -> None:
        self._check_usable()
        if self._state is not AsyncState.DEFAULT:
            raise AlreadyPendingCallError(
                f"{type(self).__name__} {call} must not start while a {self._state.value!r} call is pending, got a "
                f"second call; call {self._state.value}_wait() first",
                self._state.value,
            )

    def _check_waiting(self, state: AsyncState) -> None:
        self._check_usable()
        if self._state is not state:
            raise NoAsyncCallError(
                f"{type(self).__name__} {state.value}_wait must follow {state.value}_async, got no pending "
                f"{state.value!r} call (state: {self._state.value!r})",
                state.value,
            )

    def _send(self, frames: dict[int, bytes], state: AsyncState) -> None:
        self._pending = []
        self._state = state
        try:
            for worker, frame in frames.items():
                self._pool.send(worker, frame)
                self._pending.append(worker)
        except WorkerDiedError as exc:
            self._broken = str(exc)
            raise

    def _collect(self, timeout: float | None) -> dict[int, bytes]:
        try:
            replies = self._pool.collect(self._pending, timeout)
        except multiprocessing.TimeoutError:
            call = self._state.value
            raise multiprocessing.TimeoutError(
                f"{type(self).__name__} {call}_wait must receive every worker's reply within timeout={timeout} s, "
                f"got a timeout; the call stays pending: call {call}_wait() again to keep waiting, or close()"
            ) from None
        except WorkerDiedError as exc:
            self._broken = str(exc)
            raise
        self._pending = []
        return replies

    # --- call, attributes, render -------------------------------------------------------------------------------

    def call(self, name: str, *args: AttrValue, **kwargs: AttrValue) -> tuple[AttrValue, ...]:
        """Call method ``name`` on every sub-env (or read it if it is not callable) and wait for the results.

        Args:
            name: The method or attribute name (not ``step``, ``reset`` or ``close``).
            *args: Positional arguments for the method.
            **kwargs: Keyword arguments for the method.

        Returns:
            One result per sub-env.
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
        self._check_idle("call_async")
        frame = encode(Command.CALL, CallRequest(name, args, kwargs))
        self._send(dict.fromkeys(range(self.num_workers), frame), AsyncState.WAITING_CALL)

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
        self._check_waiting(AsyncState.WAITING_CALL)
        replies = self._collect(timeout)
        self._state = AsyncState.DEFAULT
        return tuple(merge_replies(replies).results)

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
        self._check_idle("set_attr")
        if not isinstance(values, (list, tuple)):
            values = [values] * self.num_envs
        if len(values) != self.num_envs:
            raise ValueError(
                f"{type(self).__name__} values must have num_envs={self.num_envs} entries when a list or tuple, "
                f"got {len(values)}"
            )
        frames = {
            worker: encode(Command.SET_ATTR, SetAttrRequest(name, tuple(values[start:stop])))
            for worker, (start, stop) in enumerate(self._slices)
        }
        self._send(frames, AsyncState.WAITING_CALL)
        replies = self._collect(None)
        self._state = AsyncState.DEFAULT
        merge_replies(replies)

    def render(self) -> tuple[RenderFrame, ...] | None:
        """Render every sub-environment (in its worker).

        Returns:
            One frame (or ``None``) per sub-env.
        """
        return self.call("render")

    # --- close --------------------------------------------------------------------------------------------------

    def close_extras(self, timeout: float | None = None, terminate: bool = False, **kwargs: CloseOption) -> None:
        """Close the sub-environments and stop the workers; no process and no shared memory outlives this.

        Works in every state: a pending call is awaited first (its result dropped), dead workers are skipped,
        and workers that do not finish within ``timeout`` are terminated.

        Args:
            timeout: Seconds to wait for the workers; ``None`` waits as long as they live.
            terminate: Terminate the workers at once instead of closing the sub-envs.
            **kwargs: Must be empty (accepted for the base class's signature).

        Raises:
            TypeError: An unknown keyword argument.
        """
        if kwargs:
            raise TypeError(f"{type(self).__name__} close got unexpected keyword arguments {sorted(kwargs)}")
        pool = getattr(self, "_pool", None)
        if pool is None:
            return
        if self._state is not AsyncState.DEFAULT and not self._starting:
            logger.warn(
                f"{type(self).__name__} close() while a {self._state.value!r} call is pending; its result is dropped"
            )
        failures = pool.shutdown(timeout, terminate, self._pending if self._state is not AsyncState.DEFAULT else ())
        self._state = AsyncState.DEFAULT
        self._pending = []
        for failure in failures:
            error: RemoteError = decode(failure)[1]
            logger.warn(f"{type(self).__name__} close(): {error.where()} raised {error.type_name}: {error.message}")
