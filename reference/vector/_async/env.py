"""``AsyncVectorEnv``: the sub-environments run in worker processes, each worker serving a slice of them.

Speed comes from four choices. A worker owns ``num_envs / num_workers`` sub-envs, so a step costs one message per
*worker*, not per sub-env. Actions, observations, rewards, terminations and truncations live in shared memory
written in place, so the step message is one byte and the reply is one byte unless a sub-env reported an info.
While CPUs are spare, each side spins briefly on a shared frame counter before it sleeps, so a short step needs no
wake-up at all; on a loaded machine it backs off to plain blocking (:mod:`~reference.vector._async.wire`). And a
blocked wait watches every pipe and every worker's exit, which makes
a dead worker an immediate error rather than a hang.

One ``step`` reads in three files: :meth:`AsyncVectorEnv.step_async` loads the actions and sends ``STEP``
through :class:`~reference.vector._async.wire.Link`; the worker (:mod:`~reference.vector._async.worker`) runs
:func:`~reference.vector._autoreset.step_envs` on its slice and replies; :meth:`AsyncVectorEnv.step_wait` collects
the replies through the link and returns views of the shared memory (copied unless ``copy=False``).

The parent is a small state machine (:class:`AsyncState`): ``*_async`` moves it from ``DEFAULT`` to a waiting
state, the matching ``*_wait`` moves it back. A timed-out wait keeps the call pending (replies received so far are
kept), so calling the same ``*_wait`` again resumes it; the pipes never fall out of step with the commands.
"""

from __future__ import annotations

import enum
import multiprocessing
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.connection import Connection
from typing import Any, Generic

import numpy as np
from numpy.typing import NDArray

from gymspec import AutoresetMode
from reference import logger
from reference._framework import require_bool
from reference.core import ActType, ObsType
from reference.error import AlreadyPendingCallError, ClosedEnvironmentError, CustomSpaceError, NoAsyncCallError
from reference.spaces import Space
from reference.utils._format import describe
from reference.vector._async.buffers import SharedBuffers, make_action_loader, make_observation_reader
from reference.vector._async.commands import CallCommands
from reference.vector._async.pool import WorkerDiedError, WorkerPool, default_context, slices, worker_count
from reference.vector._async.wire import (
    Channel,
    Command,
    Report,
    ResetRequest,
    StepRequest,
    decode,
    encode,
    merge_replies,
)
from reference.vector._async.worker import RemoteError, WorkerSpec
from reference.vector._base_env import InfoDict, Options, VectorEnv, VectorSeed
from reference.vector._common import (
    ObservationMode,
    SubEnv,
    copy_batch,
    factory_sequence,
    finished_error,
    require_sub_env,
    resolve_autoreset_mode,
    resolve_observation_spaces,
    resolve_seeds,
)
from reference.vector._info import add_info
from reference.vector.utils import (
    CloudpickleWrapper,
    batch_space,
    concatenate,
    create_empty_array,
    iterate,
    split_reset_mask,
)

__all__ = ["AsyncState", "AsyncVectorEnv"]

_STEP = encode(Command.STEP)
_CONSTRUCTION_CLOSE_TIMEOUT = 5.0


class AsyncState(enum.Enum):
    """Which call, if any, is waiting for its ``*_wait``."""

    DEFAULT = "default"
    WAITING_RESET = "reset"
    WAITING_STEP = "step"
    WAITING_CALL = "call"


class AsyncVectorEnv(CallCommands, VectorEnv[ObsType, ActType, NDArray[Any]], Generic[ObsType, ActType]):
    """Run ``num_envs`` sub-environments in ``num_workers`` worker processes.

    Results are identical to :class:`~reference.vector.SyncVectorEnv`'s for the same factories, seeds and actions,
    in every autoreset mode, with or without shared memory. Workers never outlive this process, even when it is
    killed (see :mod:`~reference.vector._async.worker`).

    Example::

        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> envs = AsyncVectorEnv([CartPoleEnv for _ in range(4)], num_workers=2)
        >>> observations, infos = envs.reset(seed=42)
        >>> observations.shape
        (4, 4)
        >>> envs.close()

    Args:
        env_fns: One zero-argument factory per sub-environment (pickled with cloudpickle when the context
            does not fork, so lambdas and closures work).
        shared_memory: Return observations through shared memory (otherwise they are pickled through the pipes;
            needed for spaces of varying shape such as Sequence and Graph).
        copy: Return a copy of the observation batch from ``reset``/``step`` (otherwise the shared buffer, which
            the next call overwrites).
        context: The ``multiprocessing`` start method; ``None`` means ``"fork"`` on Linux, else the platform
            default.
        daemon: Start daemonic workers (they cannot start processes of their own).
        worker: Gymnasium's custom worker function hook; not supported (the worker protocol differs), must be
            ``None``.
        observation_mode: ``"same"``, ``"different"`` or a ``(batched_space, single_space)`` pair.
        autoreset_mode: An :class:`~reference.vector.AutoresetMode` or its string value.
        max_concurrency: At most this many sub-envs execute at once (caps ``num_workers``).
        num_workers: Worker processes; defaults to ``min(num_envs, usable CPUs - 1)`` (at least 1), leaving a CPU
            to this process. Each serves a contiguous slice of sub-envs, one after another. With sub-envs whose
            steps take milliseconds on an otherwise idle machine, ``num_workers`` up to the CPU count can help.

    Attributes:
        close_grace_period: Seconds ``close()`` (with no ``timeout``) lets workers finish a call that is still
            pending, e.g. after a ``*_wait`` timed out, before it terminates them as unresponsive (2 s; assign
            on the class or an instance to change it).

    Raises:
        ValueError: ``env_fns`` is empty; an invalid mode, ``max_concurrency`` or ``num_workers``; a custom
            ``worker``; or ``shared_memory=True`` with a space that shared memory cannot hold.
        RuntimeError: A sub-env's spaces do not match (raised from the worker that built it).
    """

    close_grace_period: float = 2.0

    env_fns: Sequence[Callable[[], SubEnv]]
    shared_memory: bool
    copy: bool
    context: str | None
    daemon: bool
    observation_mode: ObservationMode
    autoreset_mode: AutoresetMode
    max_concurrency: int | None
    num_workers: int
    observations: ObsType

    def __init__(
        self,
        env_fns: Iterable[Callable[[], SubEnv]],
        shared_memory: bool = True,
        copy: bool = True,
        context: str | None = None,
        daemon: bool = True,
        worker: object = None,
        observation_mode: ObservationMode = "same",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        max_concurrency: int | None = None,
        num_workers: int | None = None,
    ) -> None:
        owner = type(self).__name__
        self.env_fns = factory_sequence(owner, env_fns)
        require_bool(owner, shared_memory=shared_memory, copy=copy, daemon=daemon)
        self.shared_memory = shared_memory
        self.copy = copy
        self.context = context
        self.daemon = daemon
        self.observation_mode = observation_mode
        self.autoreset_mode = resolve_autoreset_mode(owner, autoreset_mode)
        if worker is not None:
            raise ValueError(
                f"{owner} worker must be None, got {worker!r}: custom worker functions are not supported because "
                "workers serve slices of sub-envs over a typed protocol; wrap the sub-envs instead"
            )
        self.num_envs = len(self.env_fns)
        if self.num_envs == 0:
            raise ValueError(f"{owner} env_fns must contain at least one environment factory, got none")
        if context is not None and (
            not isinstance(context, str) or context not in multiprocessing.get_all_start_methods()
        ):
            raise ValueError(
                f"{owner} context must be None or one of {multiprocessing.get_all_start_methods()}, got {describe(context)}"
            )
        self.max_concurrency, self.num_workers = worker_count(owner, self.num_envs, num_workers, max_concurrency)
        self._state = AsyncState.DEFAULT
        self._pending: list[int] = []
        self._broken: str | None = None
        self._read_spaces(owner)

        ctx = multiprocessing.get_context(context if context is not None else default_context())
        try:
            self._buffers = SharedBuffers.allocate(
                ctx,
                self.single_observation_space,
                self.single_action_space,
                self.num_envs,
                share_observations=shared_memory,
            )
        except CustomSpaceError as exc:
            raise ValueError(
                f"{owner} observation space must be one shared memory can hold when shared_memory=True, got "
                f"{self.single_observation_space}; pass shared_memory=False (observations are then pickled)"
            ) from exc
        self._slices = slices(self.num_envs, self.num_workers)
        self._pool = WorkerPool(ctx, self._worker_spec, self._slices, daemon, owner)
        self._link = self._pool.link
        # Each worker answers once its sub-envs are built; until then the pool is in a call-like pending state.
        self._pending = list(range(self.num_workers))
        self._state = AsyncState.WAITING_RESET
        self._starting = True
        try:
            replies = self._collect(None)
            self._state = AsyncState.DEFAULT
            merge_replies(replies)
        except BaseException:
            # Workers that did start close their sub-envs; anything slower than the grace period is terminated.
            self.close(timeout=_CONSTRUCTION_CLOSE_TIMEOUT)
            raise
        self._starting = False
        self._init_views()

    def _read_spaces(self, owner: str) -> None:
        # Spaces and metadata come from a throwaway instance, as the workers' instances cannot be inspected
        # before the shared memory they write to exists.
        dummy = require_sub_env(owner, self.env_fns[0](), 0)
        try:
            self.metadata = dict(dummy.metadata)
            self.metadata["autoreset_mode"] = self.autoreset_mode
            self.render_mode = dummy.render_mode
            self.single_action_space = dummy.action_space
            self.action_space = batch_space(dummy.action_space, self.num_envs)
            self.single_observation_space, self.observation_space = resolve_observation_spaces(
                owner, self.observation_mode, dummy.observation_space, self._all_observation_spaces, self.num_envs
            )
        finally:
            dummy.close()

    def _all_observation_spaces(self) -> list[Space[Any]]:
        spaces: list[Space[Any]] = []
        for index, env_fn in enumerate(self.env_fns):
            env = require_sub_env(type(self).__name__, env_fn(), index)
            spaces.append(env.observation_space)
            env.close()
        return spaces

    def _worker_spec(
        self, worker: int, channel: Channel, inherited: tuple[Connection, ...], parent_pid: int, death_signal: bool
    ) -> WorkerSpec:
        start, stop = self._slices[worker]
        return WorkerSpec(
            worker=worker,
            start=start,
            env_fns=[CloudpickleWrapper(env_fn) for env_fn in self.env_fns[start:stop]],
            channel=channel,
            inherited=inherited,
            buffers=self._buffers,
            single_observation_space=self.single_observation_space,
            single_action_space=self.single_action_space,
            observation_mode=self.observation_mode,
            autoreset_mode=self.autoreset_mode,
            parent_pid=parent_pid,
            parent_death_signal=death_signal,
        )

    def _init_views(self) -> None:
        buffers, n = self._buffers, self.num_envs
        self._rewards, self._terminations, self._truncations = buffers.step_views()
        self._ended = np.zeros(n, dtype=np.bool_)
        self._env_obs: list[Any] = [None] * n
        self._load_actions: Callable[[Any], bool] | None = None
        if buffers.actions is not None:
            self._load_actions = make_action_loader(self.single_action_space, buffers.actions, n)
        self._read_obs: Callable[[], ObsType] | None = None
        if buffers.observations is not None:
            self._read_obs = make_observation_reader(self.single_observation_space, buffers.observations, n)
            self.observations = self._read_obs()
        else:
            self.observations = create_empty_array(self.single_observation_space, n, np.zeros)

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

    # --- the state machine ----------------------------------------------------------------------------------------

    def _check_usable(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(
                f"{type(self).__name__} must be open to be used, got a call after close(); create a new vector env"
            )
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
                f"{state.value!r} call (state: {self._state.value!r}); call {state.value}_async() first",
                state.value,
            )

    def _send(self, frames: dict[int, bytes], state: AsyncState) -> None:
        self._pending = []
        self._state = state
        try:
            for worker, frame in frames.items():
                self._link.send(worker, frame)
                self._pending.append(worker)
        except WorkerDiedError as exc:
            self._broken = str(exc)
            raise

    def _collect(self, timeout: float | None) -> dict[int, bytes]:
        try:
            replies = self._link.collect(self._pending, timeout)
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

    def _finish(self, state: AsyncState, timeout: float | None) -> Report:
        self._check_waiting(state)
        replies = self._collect(timeout)
        self._state = AsyncState.DEFAULT
        return merge_replies(replies)

    def _infos(self, report: Report) -> InfoDict:
        infos: InfoDict = {}
        for index, info in report.infos:
            infos = add_info(infos, info, index, self.num_envs)
        return infos

    def _observation_batch(self, report: Report) -> ObsType:
        if self._read_obs is not None:
            self.observations = self._read_obs()
        else:
            for index, observation in report.observations:
                self._env_obs[index] = observation
            self.observations = concatenate(self.single_observation_space, self._env_obs, self.observations)
        return copy_batch(self.observations) if self.copy else self.observations

    # --- reset and step -------------------------------------------------------------------------------------------

    def reset(self, *, seed: VectorSeed = None, options: Options | None = None) -> tuple[ObsType, InfoDict]:
        """Reset every sub-environment (or those in ``options["reset_mask"]``) and wait for the results.

        See :meth:`reset_async` and :meth:`reset_wait`.
        """
        self.reset_async(seed=seed, options=options)
        return self.reset_wait()

    def reset_async(self, seed: VectorSeed = None, options: Options | None = None) -> None:
        """Start resetting the sub-environments; collect the result with :meth:`reset_wait`.

        Args:
            seed: ``None``, an int ``s`` (sub-env ``i`` gets ``s + i``) or a list of ``num_envs`` ints/``None``.
            options: Passed to every reset sub-env; ``options["reset_mask"]`` (a bool array of shape
                ``(num_envs,)``) resets only the selected sub-envs. The caller's dict is never modified.

        Raises:
            ClosedEnvironmentError: The environment was closed.
            AlreadyPendingCallError: Another call is pending.
            TypeError: ``seed`` or the mask has the wrong type.
            ValueError: A seed list or the mask has the wrong length, or the mask selects nothing.
        """
        owner = type(self).__name__
        self._check_idle("reset_async")
        seeds = resolve_seeds(owner, seed, self.num_envs)
        mask, env_options = split_reset_mask(owner, options, self.num_envs)
        frames: dict[int, bytes] = {}
        for worker, (start, stop) in enumerate(self._slices):
            entries = tuple((i, seeds[i]) for i in range(start, stop) if mask is None or mask[i])
            if entries:
                frames[worker] = encode(Command.RESET, ResetRequest(entries, env_options))
        self._reset_selected = mask if mask is not None else np.ones(self.num_envs, dtype=np.bool_)
        self._send(frames, AsyncState.WAITING_RESET)

    def reset_wait(self, timeout: float | None = None) -> tuple[ObsType, InfoDict]:
        """Wait for the resets started by :meth:`reset_async`.

        Args:
            timeout: Seconds to wait at most; ``None`` waits as long as the workers live.

        Returns:
            ``(observations, info)``.

        Raises:
            ClosedEnvironmentError: The environment was closed.
            NoAsyncCallError: No reset is pending.
            multiprocessing.TimeoutError: Not every worker answered in time (the reset stays pending).
            WorkerDiedError: A worker died.
        """
        report = self._finish(AsyncState.WAITING_RESET, timeout)
        self._ended[self._reset_selected] = False
        return self._observation_batch(report), self._infos(report)

    def step(
        self, actions: ActType
    ) -> tuple[ObsType, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], InfoDict]:
        """Step every sub-environment and wait for the results (see :meth:`step_async`, :meth:`step_wait`)."""
        self.step_async(actions)
        return self.step_wait()

    def step_async(self, actions: ActType) -> None:
        """Start stepping every sub-environment with its action; collect the result with :meth:`step_wait`.

        Args:
            actions: An element of :attr:`action_space`.

        Raises:
            ClosedEnvironmentError: The environment was closed.
            AlreadyPendingCallError: Another call is pending.
            ValueError: ``actions`` does not hold ``num_envs`` actions.
            ResetNeeded: Under ``Disabled``, a sub-env whose episode ended was not reset.
        """
        self._check_idle("step_async")
        if self.autoreset_mode is AutoresetMode.DISABLED and self._ended.any():
            raise finished_error(type(self).__name__, np.flatnonzero(self._ended).tolist())
        if self._load_actions is not None and self._load_actions(actions):
            frames = dict.fromkeys(range(self.num_workers), _STEP)
        else:
            items = list(iterate(self.action_space, actions))
            if len(items) != self.num_envs:
                raise ValueError(
                    f"{type(self).__name__} actions must hold num_envs={self.num_envs} actions, got {len(items)}"
                )
            frames = {
                worker: encode(Command.STEP, StepRequest(tuple(items[start:stop])))
                for worker, (start, stop) in enumerate(self._slices)
            }
        self._send(frames, AsyncState.WAITING_STEP)

    def step_wait(
        self, timeout: float | None = None
    ) -> tuple[ObsType, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], InfoDict]:
        """Wait for the steps started by :meth:`step_async`.

        Args:
            timeout: Seconds to wait at most; ``None`` waits as long as the workers live.

        Returns:
            ``(observations, rewards, terminations, truncations, info)``.

        Raises:
            ClosedEnvironmentError: The environment was closed.
            NoAsyncCallError: No step is pending.
            multiprocessing.TimeoutError: Not every worker answered in time (the step stays pending).
            WorkerDiedError: A worker died.
        """
        report = self._finish(AsyncState.WAITING_STEP, timeout)
        if self.autoreset_mode is AutoresetMode.DISABLED:
            np.logical_or(self._terminations, self._truncations, out=self._ended)
        return (
            self._observation_batch(report),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            self._infos(report),
        )

    def _start_call(self, call: str, frames: dict[int, bytes]) -> None:
        self._check_idle(call)
        self._send(frames, AsyncState.WAITING_CALL)

    def _finish_call(self, timeout: float | None) -> Report:
        return self._finish(AsyncState.WAITING_CALL, timeout)

    # --- close ----------------------------------------------------------------------------------------------------

    def close_extras(self, timeout: float | None = None, terminate: bool = False, **kwargs: object) -> None:
        """Close the sub-environments and stop the workers; no process and no shared memory outlives this.

        Works in every state, and returns within a bounded time unless told to wait: a pending call (for instance
        one whose ``*_wait`` timed out) gets :attr:`close_grace_period` seconds to finish, after which the workers
        that owe it are terminated; its result is dropped. Dead workers are skipped.

        Args:
            timeout: Seconds for the whole close, after which every worker still running is terminated; ``None``
                waits :attr:`close_grace_period` for a pending call, then as long as the sub-envs' ``close()``
                calls take.
            terminate: Terminate the workers at once instead of closing the sub-envs.
            **kwargs: Must be empty (accepted for the base class's signature).

        Raises:
            TypeError: An unknown keyword argument.
        """
        if kwargs:
            raise TypeError(
                f"{type(self).__name__} close keyword arguments must be timeout and terminate only, got "
                f"{sorted(kwargs)}; drop the others"
            )
        pool = getattr(self, "_pool", None)
        if pool is None:
            return
        pending = self._state is not AsyncState.DEFAULT
        if pending and not self._starting:
            logger.warn(
                f"{type(self).__name__} close() was called while a {self._state.value!r} call was pending, so its "
                f"result is dropped; call {self._state.value}_wait() before close() to keep it"
            )
        failures = pool.shutdown(self._pending if pending else (), self.close_grace_period, timeout, terminate)
        self._state = AsyncState.DEFAULT
        self._pending = []
        for failure in failures:
            error: RemoteError = decode(failure)[1]
            logger.warn(f"{type(self).__name__} close(): {error.where()} raised {error.type_name}: {error.message}")
