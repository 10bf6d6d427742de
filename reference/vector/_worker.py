"""The worker process of ``AsyncVectorEnv``: it owns a contiguous slice of the sub-envs and serves commands.

The loop blocks on its pipe, runs one :class:`~reference.vector._protocol.Command` at a time over its slice and
answers with one frame. Autoreset bookkeeping for ``NextStep`` lives here (one flag per owned sub-env), mirroring
``SyncVectorEnv`` step for step so both produce identical results.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, TypeAlias

from gymspec import AutoresetMode
from reference.spaces import Space
from reference.vector._buffers import (
    SharedBuffers,
    make_action_reader,
    make_observation_writer,
)
from reference.vector._channel import Channel
from reference.vector._common import check_sub_env_spaces
from reference.vector._protocol import (
    CallRequest,
    Command,
    RemoteError,
    Report,
    ResetRequest,
    SetAttrRequest,
    Status,
    StepRequest,
    decode,
    encode,
)

__all__ = ["WorkerSpec", "run_worker"]

#: A sub-environment (any object with the Env methods).
SubEnv: TypeAlias = Any
Value: TypeAlias = Any
_OK = encode(Status.OK)


@dataclass
class WorkerSpec:
    """Everything a worker needs; passed as the process argument (pickled only by spawn/forkserver).

    Attributes:
        worker: The worker's index.
        start: The first sub-env index it owns.
        env_fns: The factories of its sub-envs (``start``, ``start + 1``, ...).
        channel: Its ends of the command and reply pipes.
        inherited: Parent-side connections a forked child inherited and must close (so that a dead parent is
            seen as end-of-file by every worker).
        buffers: The shared memory.
        single_observation_space: The expected sub-env observation space.
        single_action_space: The expected sub-env action space.
        observation_mode: ``"same"``, ``"different"`` or a space pair (decides how spaces are checked).
        autoreset_mode: The autoreset mode.
    """

    worker: int
    start: int
    env_fns: Sequence[Callable[[], SubEnv]]
    channel: Channel
    inherited: tuple[Connection, ...]
    buffers: SharedBuffers
    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    observation_mode: Value
    autoreset_mode: AutoresetMode


def _attr(env: SubEnv, name: str) -> Value:
    getter = getattr(env, "get_wrapper_attr", None)
    return getter(name) if getter is not None else getattr(env, name)


class _Worker:
    """The state of one worker process (its sub-envs and views of the shared memory)."""

    def __init__(self, spec: WorkerSpec) -> None:
        self.spec = spec
        self.channel = spec.channel
        self.start = spec.start
        self.stop = spec.start + len(spec.env_fns)
        self.envs: list[SubEnv] = []
        self.ended = [False] * len(spec.env_fns)
        #: The sub-env being served, named in error reports.
        self.current: int | None = None
        buffers, n = spec.buffers, spec.buffers.num_envs
        self.rewards, self.terminations, self.truncations = buffers.step_views()
        self.write_obs: Callable[[int, Value], None] | None = None
        if buffers.observations is not None:
            self.write_obs = make_observation_writer(spec.single_observation_space, buffers.observations, n)
        self.read_action: Callable[[int], Value] | None = None
        if buffers.actions is not None:
            self.read_action = make_action_reader(spec.single_action_space, buffers.actions, n)

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

    def serve(self) -> None:
        """Answer commands until ``CLOSE`` or until the parent goes away."""
        handlers: dict[int, Callable[[Value], bytes]] = {
            Command.STEP: self.step,
            Command.RESET: self.reset,
            Command.CALL: self.call,
            Command.SET_ATTR: self.set_attr,
        }
        while True:
            try:
                frame = self.channel.recv()
            except (EOFError, OSError):
                return  # the parent is gone: nobody is left to answer
            command, payload = decode(frame)
            if command == Command.CLOSE:
                self.channel.send(self.close_envs())
                return
            try:
                reply = handlers[command](payload)
            except Exception as exc:  # noqa: BLE001 - every sub-env failure is reported to the parent
                reply = encode(Status.ERROR, RemoteError.capture(exc, self.spec.worker, self.current))
            self.current = None
            self.channel.send(reply)

    def _actions(self, payload: StepRequest | None) -> Callable[[int], Value]:
        if payload is not None:
            actions, start = payload.actions, self.start
            return lambda index: actions[index - start]
        if self.read_action is None:
            raise RuntimeError("AsyncVectorEnv worker needs actions in a StepRequest when they are not shared")
        return self.read_action

    def _finish(self, report: Report) -> bytes:
        if not (report.infos or report.observations or report.results):
            return _OK
        self.current = None
        try:
            return encode(Status.DATA, report)
        except Exception as exc:
            stop = self.start + len(self.envs) - 1
            raise TypeError(
                f"AsyncVectorEnv worker {self.spec.worker} results of sub-envs {self.start}..{stop} must be picklable "
                f"(infos, observations without shared memory, call results), got {type(exc).__name__}: {exc}"
            ) from exc

    def step(self, payload: StepRequest | None) -> bytes:
        """Step every owned sub-env (``Command.STEP``)."""
        action_of = self._actions(payload)
        mode = self.spec.autoreset_mode
        envs, ended, start, write_obs = self.envs, self.ended, self.start, self.write_obs
        rewards, terminations, truncations = self.rewards, self.terminations, self.truncations
        report = Report()
        for offset, env in enumerate(envs):
            index = self.current = start + offset
            if mode is AutoresetMode.NEXT_STEP and ended[offset]:
                # As in SyncVectorEnv: the action is ignored and the next episode starts.
                observation, info = env.reset()
                rewards[index] = 0.0
                terminations[index] = truncations[index] = ended[offset] = False
            else:
                observation, reward, terminated, truncated, info = env.step(action_of(index))
                rewards[index] = reward
                terminations[index] = terminated
                truncations[index] = truncated
                if terminated or truncated:
                    if mode is AutoresetMode.SAME_STEP:
                        report.infos.append((index, {"final_obs": observation, "final_info": info}))
                        observation, info = env.reset()
                    else:
                        ended[offset] = True
            if write_obs is not None:
                write_obs(index, observation)
            else:
                report.observations.append((index, observation))
            if info:
                report.infos.append((index, info))
        return self._finish(report)

    def reset(self, payload: ResetRequest) -> bytes:
        """Reset the requested sub-envs (``Command.RESET``)."""
        report = Report()
        for index, seed in payload.entries:
            self.current = index
            offset = index - self.start
            options = None if payload.options is None else dict(payload.options)
            observation, info = self.envs[offset].reset(seed=seed, options=options)
            self.ended[offset] = False
            if self.write_obs is not None:
                self.write_obs(index, observation)
            else:
                report.observations.append((index, observation))
            if info:
                report.infos.append((index, info))
        return self._finish(report)

    def call(self, payload: CallRequest) -> bytes:
        """Call a method (or read an attribute) on every owned sub-env (``Command.CALL``)."""
        report = Report()
        for offset, env in enumerate(self.envs):
            self.current = self.start + offset
            value = _attr(env, payload.name)
            report.results.append(value(*payload.args, **payload.kwargs) if callable(value) else value)
        # A call always answers with data, even when every result is falsy.
        self.current = None
        try:
            return encode(Status.DATA, report)
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
    for conn in spec.inherited:
        conn.close()
    worker = _Worker(spec)
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
