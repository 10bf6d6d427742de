"""The worker process of ``AsyncVectorEnv``: it owns a contiguous slice of the sub-envs and serves commands.

The loop waits for a frame (spinning briefly, then blocking on its pipe and on its parent's exit), runs one
:class:`~reference.vector._async.wire.Command` over its slice and answers with one frame. ``STEP`` runs
:func:`~reference.vector._autoreset.step_envs`, the loop ``SyncVectorEnv`` runs too, on views of the slice's rows
of shared memory, so both produce identical results in every autoreset mode.

A worker never outlives its parent: on Linux the kernel kills it when the thread that started it dies
(``PR_SET_PDEATHSIG``, used when that thread is the main thread, which lives as long as the process); otherwise a
watchdog thread kills it. Either way the loop also leaves when the parent's pidfd (or, without pidfds, a poll of
its pid) says the parent is gone, so even an idle worker does not rely on the pipe's end-of-file alone.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import select
import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeAlias

from gymspec import AutoresetMode
from reference.spaces import Space
from reference.vector._async.buffers import SharedBuffers, action_rows, observation_rows
from reference.vector._async.wire import (
    CallRequest,
    Channel,
    Command,
    Report,
    ResetRequest,
    SetAttrRequest,
    Spinner,
    Status,
    StepRequest,
    Watch,
    decode,
    encode,
)
from reference.vector._autoreset import Actions, IndexedInfos, Rows, failed_position, reset_envs, step_envs
from reference.vector._common import ObservationMode, SubEnv, check_sub_env_spaces

__all__ = ["RemoteError", "RemoteTraceback", "WorkerSpec", "run_worker"]

#: Anything a sub-env attribute or method holds or returns (``call``/``set_attr``).
AttrValue: TypeAlias = Any
_OK = encode(Status.OK)
_PR_SET_PDEATHSIG = 1
# Without a pidfd, how often a blocked worker (or the watchdog) checks that its parent still runs.
_PARENT_POLL = 0.5


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process, attached as the re-raised error's cause."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class RemoteError:
    """An exception raised in a worker, in a form that always crosses the pipe.

    Attributes:
        worker: The worker's index.
        pid: The worker's process id.
        index: The sub-env that raised (``None`` when the worker itself failed).
        type_name: The exception's qualified class name.
        message: ``str(exception)``.
        traceback: The formatted remote traceback.
        exception: The pickled exception, or ``None`` if it could not be pickled.
    """

    worker: int
    pid: int
    index: int | None
    type_name: str
    message: str
    traceback: str
    exception: bytes | None

    @classmethod
    def capture(cls, exc: BaseException, worker: int, index: int | None) -> RemoteError:
        """Record ``exc`` (being handled in a worker) raised by sub-env ``index`` (``None``: the worker itself)."""
        try:
            pickled: bytes | None = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - any pickling failure just means the parent gets a stand-in
            pickled = None
        kind = type(exc)
        return cls(
            worker=worker,
            pid=os.getpid(),
            index=index,
            type_name=f"{kind.__module__}.{kind.__qualname__}",
            message=str(exc),
            traceback="".join(traceback.format_exception(kind, exc, exc.__traceback__)),
            exception=pickled,
        )

    def where(self) -> str:
        """Describe where the exception was raised (for messages and notes)."""
        origin = "the worker itself" if self.index is None else f"sub-env {self.index}"
        return f"{origin} (AsyncVectorEnv worker {self.worker}, pid {self.pid})"

    def rebuild(self) -> BaseException:
        """Re-create the exception in the parent, with the origin as a note and the remote traceback as cause.

        Returns:
            The original exception type when it can be unpickled, else a ``RuntimeError`` naming it.
        """
        exc: object = None
        if self.exception is not None:
            try:
                exc = pickle.loads(self.exception)
            except Exception:  # noqa: BLE001 - e.g. an exception class that cannot be re-constructed
                exc = None
        if not isinstance(exc, BaseException):
            exc = RuntimeError(f"{self.type_name}: {self.message}")
        add_note = getattr(exc, "add_note", None)
        if add_note is not None:
            add_note(f"Raised by {self.where()}; the remote traceback is the cause above.")
        exc.__cause__ = RemoteTraceback(f"\n\nRemote traceback from {self.where()}:\n{self.traceback}")
        return exc


@dataclass
class WorkerSpec:
    """Everything a worker needs; passed as the process argument (pickled only by spawn/forkserver).

    Attributes:
        worker: The worker's index.
        start: The first sub-env index it owns.
        env_fns: The factories of its sub-envs (``start``, ``start + 1``, ...).
        channel: Its side of the link to the parent.
        inherited: Parent-side connections a forked child inherited and must close (so that a dead parent is
            seen as end-of-file by every worker).
        buffers: The shared memory.
        single_observation_space: The expected sub-env observation space.
        single_action_space: The expected sub-env action space.
        observation_mode: ``"same"``, ``"different"`` or a space pair (decides how spaces are checked).
        autoreset_mode: The autoreset mode.
        parent_pid: The process that owns the vector env.
        parent_death_signal: Whether the kernel may kill the worker when its parent dies (see the module doc).
    """

    worker: int
    start: int
    env_fns: Sequence[Callable[[], SubEnv]]
    channel: Channel
    inherited: tuple[Connection, ...]
    buffers: SharedBuffers
    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    observation_mode: ObservationMode
    autoreset_mode: AutoresetMode
    parent_pid: int
    parent_death_signal: bool


def _attr(env: SubEnv, name: str) -> AttrValue:
    getter = getattr(env, "get_wrapper_attr", None)
    return getter(name) if getter is not None else getattr(env, name)


class _Parent:
    """Watches the parent process: through a pidfd where Linux offers one, else by its pid."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        # A fork or spawn child is reparented when its parent dies; a forkserver child has another parent anyway.
        self._is_our_parent = os.getppid() == pid
        self.fd: int | None = None
        pidfd_open = getattr(os, "pidfd_open", None)
        if pidfd_open is not None:
            try:
                self.fd = pidfd_open(pid)
            except OSError:
                self.fd = None  # a kernel older than 5.3, or the parent is already gone (checked next)

    def alive(self) -> bool:
        """Tell whether the parent still runs."""
        if self.fd is not None:
            return not select.select([self.fd], [], [], 0)[0]
        if self._is_our_parent:
            return os.getppid() == self.pid
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True

    def watchdog(self) -> None:
        """Kill this process when the parent dies, even while the main thread is busy in a sub-env."""
        while self.alive():
            if self.fd is not None:
                select.select([self.fd], [], [])
            else:
                time.sleep(_PARENT_POLL)
        os.kill(os.getpid(), signal.SIGKILL)


def _die_with_parent(spec: WorkerSpec) -> _Parent:
    if spec.parent_death_signal:
        try:
            prctl = ctypes.CDLL(None, use_errno=True).prctl
            zero = ctypes.c_ulong(0)
            failed = prctl(_PR_SET_PDEATHSIG, ctypes.c_ulong(signal.SIGKILL), zero, zero, zero)
        except (OSError, AttributeError):
            failed = True
        if failed:
            spec.parent_death_signal = False
    parent = _Parent(spec.parent_pid)
    if not spec.parent_death_signal:
        threading.Thread(target=parent.watchdog, name="parent-watchdog", daemon=True).start()
    if not parent.alive():
        os._exit(1)  # the parent died before the watch was set up: nobody will ever send a command
    return parent


class _Worker:
    """The state of one worker process (its sub-envs and views of its rows of the shared memory)."""

    def __init__(self, spec: WorkerSpec, parent: _Parent) -> None:
        self.spec = spec
        self.channel = spec.channel
        self.parent = parent
        self.start = spec.start
        self.stop = stop = spec.start + len(spec.env_fns)
        self.envs: list[SubEnv] = []
        self.ended = [False] * len(spec.env_fns)
        #: The sub-env being served by call/set_attr, named in error reports.
        self.current: int | None = None
        buffers, n = spec.buffers, spec.buffers.num_envs
        rewards, terminations, truncations = buffers.step_views()
        self.rewards, self.terminations = rewards[self.start : stop], terminations[self.start : stop]
        self.truncations = truncations[self.start : stop]
        self.shared_obs = buffers.observations is not None
        self.obs_list: list[Any] = [None] * len(spec.env_fns)
        self.obs: Rows = self.obs_list
        if buffers.observations is not None:
            self.obs = observation_rows(spec.single_observation_space, buffers.observations, n, self.start, stop)
        self.actions: Actions | None = None
        if buffers.actions is not None:
            self.actions = action_rows(spec.single_action_space, buffers.actions, n, self.start, stop)
        self.spinner = Spinner()
        self.watch: Watch[str] = Watch()
        self.watch.add(self.channel.reader, "command")
        if parent.fd is not None:
            self.watch.add(parent.fd, "parent exited")

    def build(self) -> None:
        """Create the sub-envs and check their spaces."""
        spec = self.spec
        for offset, env_fn in enumerate(spec.env_fns):
            self.current = self.start + offset
            env = env_fn()
            self.envs.append(env)
            check_sub_env_spaces(
                "AsyncVectorEnv",
                self.current,
                spec.observation_mode,
                spec.single_observation_space,
                spec.single_action_space,
                env.observation_space,
                env.action_space,
            )
        self.current = None

    def next_frame(self) -> bytes | None:
        """Wait for the next command frame; ``None`` when the parent is gone."""
        channel = self.channel
        if not self.spinner.spin(channel.arrived):
            polling = self.parent.fd is None
            while True:
                events = self.watch.wait(_PARENT_POLL if polling else None)
                if "command" in events:
                    break
                if events or (polling and not self.parent.alive()):
                    return None  # the parent's pidfd fired, or its pid is gone
        try:
            return channel.recv()
        except (EOFError, OSError):
            return None

    def serve(self) -> None:
        """Answer commands until ``CLOSE`` or until the parent goes away."""
        handlers: dict[int, Callable[[Any], bytes]] = {
            Command.STEP: self.step,
            Command.RESET: self.reset,
            Command.CALL: self.call,
            Command.SET_ATTR: self.set_attr,
        }
        while (frame := self.next_frame()) is not None:
            command, payload = decode(frame)
            if command == Command.CLOSE:
                self.channel.send(self.close_envs())
                return
            try:
                reply = handlers[command](payload)
            except Exception as exc:  # noqa: BLE001 - every sub-env failure is reported to the parent
                position = failed_position(exc)
                index = self.current if position is None else self.start + position
                reply = encode(Status.ERROR, RemoteError.capture(exc, self.spec.worker, index))
            self.current = None
            self.channel.send(reply)

    def _finish(self, infos: IndexedInfos, observations: bool) -> bytes:
        if not infos and not observations:
            return _OK
        start = self.start
        report = Report(
            infos=tuple((start + k, info) for k, info in infos),
            observations=tuple((start + k, obs) for k, obs in enumerate(self.obs_list)) if observations else (),
        )
        try:
            return encode(Status.DATA, report)
        except Exception as exc:
            raise TypeError(
                f"AsyncVectorEnv worker {self.spec.worker} results of sub-envs {start}..{self.stop - 1} must be "
                f"picklable (infos, observations without shared memory), got {type(exc).__name__}: {exc}"
            ) from exc

    def step(self, payload: StepRequest | None) -> bytes:
        """Step every owned sub-env (``Command.STEP``); actions come from shared memory or the request."""
        actions = payload.actions if payload is not None else self.actions
        if actions is None:
            raise RuntimeError(
                f"AsyncVectorEnv worker {self.spec.worker} step must receive its actions in a StepRequest when the "
                "action space has no shared buffer, got a bare STEP; this is a bug in AsyncVectorEnv, please report it"
            )
        infos = step_envs(
            self.spec.autoreset_mode,
            self.envs,
            actions,
            self.ended,
            self.obs,
            self.rewards,
            self.terminations,
            self.truncations,
        )
        return self._finish(infos, not self.shared_obs)

    def reset(self, payload: ResetRequest) -> bytes:
        """Reset the requested sub-envs (``Command.RESET``)."""
        start = self.start
        seeds: list[int | None] = [None] * len(self.envs)
        for index, seed in payload.entries:
            seeds[index - start] = seed
        selected = [index - start for index, _ in payload.entries]
        infos = reset_envs(self.envs, selected, seeds, payload.options, self.ended, self.obs)
        if self.shared_obs:
            return self._finish(infos, False)
        report = Report(
            infos=tuple((start + k, info) for k, info in infos),
            observations=tuple((start + k, self.obs_list[k]) for k in selected),
        )
        return encode(Status.DATA, report)

    def call(self, payload: CallRequest) -> bytes:
        """Call a method (or read an attribute) on every owned sub-env (``Command.CALL``)."""
        results: list[AttrValue] = []
        for offset, env in enumerate(self.envs):
            self.current = self.start + offset
            value = _attr(env, payload.name)
            results.append(value(*payload.args, **payload.kwargs) if callable(value) else value)
        # A call always answers with data, even when every result is falsy.
        self.current = None
        try:
            return encode(Status.DATA, Report(results=tuple(results)))
        except Exception as exc:
            raise TypeError(
                f"AsyncVectorEnv call({payload.name!r}) results must be picklable to reach the parent, "
                f"got {type(exc).__name__}: {exc}"
            ) from exc

    def set_attr(self, payload: SetAttrRequest) -> bytes:
        """Set an attribute on every owned sub-env (``Command.SET_ATTR``)."""
        for offset, (env, value) in enumerate(zip(self.envs, payload.values, strict=True)):
            self.current = self.start + offset
            setter = getattr(env, "set_wrapper_attr", None)
            if setter is not None:
                setter(payload.name, value)
            else:
                setattr(env, payload.name, value)
        return _OK

    def close_envs(self) -> bytes:
        """Close every owned sub-env; report the first failure, after trying them all."""
        failure: bytes | None = None
        for offset, env in enumerate(self.envs):
            try:
                env.close()
            except Exception as exc:  # noqa: BLE001 - every sub-env must get its close() call
                if failure is None:
                    failure = encode(Status.ERROR, RemoteError.capture(exc, self.spec.worker, self.start + offset))
        self.envs = []
        return _OK if failure is None else failure


def run_worker(spec: WorkerSpec) -> None:
    """The worker process's entry point.

    Args:
        spec: The worker's configuration.
    """
    # Ctrl-C reaches the whole process group; only the parent should react (and then close the workers).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = _die_with_parent(spec)
    for conn in spec.inherited:
        conn.close()
    worker = _Worker(spec, parent)
    try:
        worker.build()
    except Exception as exc:  # noqa: BLE001 - construction failures are reported, then the worker exits
        worker.channel.send(encode(Status.ERROR, RemoteError.capture(exc, spec.worker, worker.current)))
        worker.close_envs()
        return
    worker.channel.send(_OK)
    try:
        worker.serve()
    finally:
        if worker.envs:
            worker.close_envs()
