"""The worker processes of an ``AsyncVectorEnv``: start, message, watch and stop them.

Replies are awaited on a selector that watches every worker's pipe *and* its process sentinel, so a worker that
dies (even by ``SIGKILL``, even while a grandchild keeps its pipe open) turns the wait into a
:class:`WorkerDiedError` instead of a hang. Replies received before a timeout are kept, so waiting again resumes
where the timed-out wait stopped and the pipes never get out of step with the commands. The selector lives in
:mod:`~reference.vector._waiter`, the worker layout (how many, which sub-envs) in :mod:`~reference.vector._sizing`.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.connection import Connection
from typing import Any, TypeAlias

from reference.error import Error
from reference.vector._channel import Channel
from reference.vector._protocol import Command, Status, encode
from reference.vector._sizing import default_context, slices, worker_count
from reference.vector._waiter import CONN, Waiter
from reference.vector._worker import WorkerSpec, run_worker
from reference.vector.utils import clear_mpi_env_vars

__all__ = ["WorkerDiedError", "WorkerPool", "default_context", "slices", "worker_count"]

#: A ``multiprocessing`` context.
Context: TypeAlias = Any
#: A started ``multiprocessing`` process of any context.
Process: TypeAlias = Any
# How long close() waits for terminated workers before killing them.
_TERMINATE_GRACE = 1.0


class WorkerDiedError(Error, RuntimeError):
    """A worker process of an ``AsyncVectorEnv`` exited while it was needed (crash, ``SIGKILL``, ``os._exit``).

    The vector environment cannot continue; ``close()`` it (which always works) and create a new one.
    """


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "an unknown exit status"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def _stop_processes(processes: Sequence[Process], channels: Sequence[Channel], waiter: Waiter | None = None) -> None:
    """Last-resort cleanup when a pool is garbage-collected (or the interpreter exits) without ``close``."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(_TERMINATE_GRACE)
        if process.is_alive():
            process.kill()
            process.join()
        process.close()
    for channel in channels:
        channel.close()
    if waiter is not None:
        waiter.close()


class WorkerPool:
    """A fixed set of worker processes, each serving a contiguous slice of the sub-envs.

    Args:
        ctx: The ``multiprocessing`` context to start workers from.
        make_spec: Builds worker ``w``'s :class:`WorkerSpec` from its channel and the connections it inherits.
        slices: Worker ``w`` serves sub-envs ``range(*slices[w])``.
        daemon: Start daemonic workers (terminated when the parent exits; they cannot have children).
        name: Used in process names.
    """

    def __init__(
        self,
        ctx: Context,
        make_spec: Callable[[int, Channel, tuple[Connection, ...]], WorkerSpec],
        slices: Sequence[tuple[int, int]],
        daemon: bool,
        name: str,
    ) -> None:
        self.slices = list(slices)
        self.channels: list[Channel] = []
        self.processes: list[Process] = []
        self.dead: set[int] = set()
        self._replies: dict[int, bytes] = {}
        forking = ctx.get_start_method() == "fork"
        try:
            with clear_mpi_env_vars():
                for worker in range(len(self.slices)):
                    command_reader, command_writer = ctx.Pipe(duplex=False)
                    reply_reader, reply_writer = ctx.Pipe(duplex=False)
                    self.channels.append(Channel(reply_reader, command_writer))
                    # A forked child inherits every parent-side end created so far; it closes them so that each
                    # worker sees end-of-file when the parent dies.
                    inherited = tuple(c for ch in self.channels for c in (ch.reader, ch.writer)) if forking else ()
                    process = ctx.Process(
                        target=run_worker,
                        args=(make_spec(worker, Channel(command_reader, reply_writer), inherited),),
                        name=f"{name}-worker-{worker}",
                        daemon=daemon,
                    )
                    process.start()
                    self.processes.append(process)
                    # Only the child may hold its ends, or the parent would never see end-of-file from it.
                    command_reader.close()
                    reply_writer.close()
        except BaseException:
            _stop_processes(self.processes, self.channels)
            raise
        self._waiter = Waiter([channel.reader for channel in self.channels], self.processes)
        self._finalizer = weakref.finalize(
            self, _stop_processes, list(self.processes), list(self.channels), self._waiter
        )

    def __len__(self) -> int:
        return len(self.channels)

    def died(self, worker: int) -> WorkerDiedError:
        """Record worker ``worker`` as dead and describe it.

        Args:
            worker: The worker's index.

        Returns:
            The error to raise.
        """
        if worker not in self.dead:
            self.dead.add(worker)
            self._waiter.forget(worker)
        process = self.processes[worker]
        process.join(0.1)
        start, stop = self.slices[worker]
        return WorkerDiedError(
            f"AsyncVectorEnv worker {worker} (sub-envs {start}..{stop - 1}, pid {process.pid}) must be alive, "
            f"got it exited with {_describe_exit(process.exitcode)}; close() this vector env and create a new one"
        )

    def send(self, worker: int, frame: bytes) -> None:
        """Send one frame to a worker.

        Args:
            worker: The worker's index.
            frame: The encoded message.

        Raises:
            WorkerDiedError: The worker is dead.
        """
        if worker in self.dead:
            raise self.died(worker)
        try:
            self.channels[worker].send(frame)
        except OSError as exc:
            raise self.died(worker) from exc

    def _receive(self, worker: int) -> None:
        try:
            self._replies[worker] = self.channels[worker].recv()
        except (EOFError, OSError) as exc:
            raise self.died(worker) from exc

    def collect(self, workers: Iterable[int], timeout: float | None) -> dict[int, bytes]:
        """Wait for one reply from each of ``workers``.

        Args:
            workers: The workers that owe a reply.
            timeout: Seconds to wait at most; ``None`` waits as long as the workers are alive.

        Returns:
            The reply frame of each worker.

        Raises:
            multiprocessing.TimeoutError: Not every reply arrived in time; the replies that did are kept for the
                next call.
            WorkerDiedError: A worker that owes a reply died.
        """
        wanted = list(workers)
        pending = {worker for worker in wanted if worker not in self._replies}
        for worker in pending & self.dead:
            raise self.died(worker)
        deadline = None if timeout is None else time.monotonic() + timeout
        while pending:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            events = self._waiter.ready(remaining)
            # Read replies before looking at sentinels: a worker may answer and then exit (after CLOSE).
            for kind, worker in sorted(events):
                if worker in self.dead:
                    continue
                if worker not in pending:
                    # Only a dead worker's pipe or sentinel becomes ready unasked: record it (it is raised when
                    # that worker is next needed) and stop watching it.
                    if not self.processes[worker].is_alive():
                        self.died(worker)
                    continue
                if kind == CONN:
                    self._receive(worker)
                    pending.discard(worker)
                elif self.channels[worker].poll():
                    self._receive(worker)
                    pending.discard(worker)
                else:
                    raise self.died(worker)
            if pending and deadline is not None and time.monotonic() >= deadline:
                raise multiprocessing.TimeoutError(f"AsyncVectorEnv timed out after {timeout} s")
        return {worker: self._replies.pop(worker) for worker in wanted}

    def discard_replies(self) -> None:
        """Forget replies kept from a timed-out wait."""
        self._replies.clear()

    def _remaining(self, deadline: float | None) -> float | None:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    def _drain(self, workers: Iterable[int], deadline: float | None) -> None:
        """Read and drop the replies ``workers`` still owe (skipping workers that die meanwhile)."""
        owing = [worker for worker in workers if worker not in self.dead]
        while owing:
            try:
                self.collect(owing, self._remaining(deadline))
                return
            except WorkerDiedError:
                owing = [worker for worker in owing if worker not in self.dead]

    def shutdown(self, timeout: float | None, terminate: bool, owing: Iterable[int] = ()) -> list[bytes]:
        """Stop every worker and release the pipes and processes.

        Args:
            timeout: Seconds to wait for the workers to finish, close their sub-envs and exit; after that they
                are terminated (then killed).
            terminate: Terminate at once instead of asking the workers to close their sub-envs.
            owing: Workers that still owe a reply to an unfinished call (read and dropped first).

        Returns:
            The close replies that reported a failure (encoded error frames).
        """
        failures: list[bytes] = []
        deadline = None if timeout is None else time.monotonic() + timeout
        if not terminate:
            try:
                self._drain(owing, deadline)
                asked = []
                for worker in range(len(self.channels)):
                    if worker not in self.dead:
                        try:
                            self.send(worker, encode(Command.CLOSE))
                            asked.append(worker)
                        except WorkerDiedError:
                            pass
                for worker in asked:
                    try:
                        reply = self.collect([worker], self._remaining(deadline))[worker]
                    except WorkerDiedError:
                        continue
                    if reply[0] == Status.ERROR:
                        failures.append(reply)
            except multiprocessing.TimeoutError:
                terminate = True
        self._replies.clear()
        for process in self.processes:
            if terminate and process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join(_TERMINATE_GRACE if terminate else self._remaining(deadline))
            if process.is_alive():
                process.terminate()
                process.join(_TERMINATE_GRACE)
            if process.is_alive():
                process.kill()
                process.join()
            process.close()
        self._finalizer.detach()
        self._waiter.close()
        for channel in self.channels:
            channel.close()
        return failures
