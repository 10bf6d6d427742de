"""The worker processes of an ``AsyncVectorEnv``: how many, which sub-envs each serves, starting and stopping them.

Stopping is bounded unless the caller asks otherwise: workers that owe a reply to an unfinished call get a grace
period to deliver it, then they are terminated (``SIGTERM``, then ``SIGKILL`` after :data:`_KILL_GRACE`). Nothing
outlives the pool: not a process, not a pipe, and no shared memory (the blocks are anonymous mappings that vanish
with their last process).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess

from reference._narrowing import is_integer
from reference.error import Error
from reference.vector._async.wire import Channel, Command, Counters, Link, Status, allocate_counters, encode
from reference.vector._async.worker import WorkerSpec, run_worker
from reference.vector.utils import clear_mpi_env_vars

__all__ = ["WorkerDiedError", "WorkerPool", "default_context", "slices", "worker_count"]

#: Builds worker ``w``'s spec from its channel, the parent-side ends it inherits, and the pids it must watch.
SpecMaker = Callable[[int, Channel, tuple[Connection, ...], int, bool], WorkerSpec]
# How long a terminated worker gets to exit before it is killed.
_KILL_GRACE = 1.0


class WorkerDiedError(Error, RuntimeError):
    """A worker process of an ``AsyncVectorEnv`` exited while it was needed (crash, ``SIGKILL``, ``os._exit``).

    The vector environment cannot continue; ``close()`` it (which always works) and create a new one.
    """


# --- layout ---------------------------------------------------------------------------------------------------------


def default_context() -> str | None:
    """The start method used when none is given: fork on Linux (nothing to pickle, so fast), else the default."""
    return "fork" if sys.platform.startswith("linux") else None


def _positive_int(owner: str, name: str, value: object) -> int | None:
    if value is None:
        return None
    if not (isinstance(value, int) or is_integer(value)) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{owner} {name} must be a positive int or None, got {value!r}")
    return int(value)


def _process_class(ctx: BaseContext) -> type[BaseProcess]:
    # Each concrete context has a Process class; the stubs give BaseContext none.
    process_class: type[BaseProcess] = getattr(ctx, "Process")  # noqa: B009 (see above)
    return process_class


def worker_count(owner: str, num_envs: int, num_workers: object, max_concurrency: object) -> tuple[int | None, int]:
    """Validate the worker options and pick the number of workers.

    Args:
        owner: The class name for error messages.
        num_envs: The number of sub-envs.
        num_workers: The requested number of workers, or ``None`` for one per usable CPU but one (at least one).
        max_concurrency: At most this many sub-envs may run at once, or ``None``.

    Returns:
        ``(max_concurrency, num_workers)``; there are never more workers than sub-envs. By default one CPU is left
        to this process: it runs the caller's code (a policy, say) and the batch bookkeeping, and a worker that had
        to share a CPU with it would be preempted mid-step while the others wait for it. On two CPUs, one worker
        stepping 16 CartPoles measured 1.3-1.6x the throughput of two.

    Raises:
        ValueError: An option is not a positive int or ``None``.
    """
    limit = _positive_int(owner, "max_concurrency", max_concurrency)
    requested = _positive_int(owner, "num_workers", num_workers)
    affinity = getattr(os, "sched_getaffinity", None)
    cpus = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return limit, min(num_envs, requested or max(1, cpus - 1), limit or num_envs)


def slices(num_envs: int, num_workers: int) -> list[tuple[int, int]]:
    """Split ``range(num_envs)`` into ``num_workers`` contiguous slices whose sizes differ by at most one.

    Args:
        num_envs: The number of sub-envs.
        num_workers: The number of workers.

    Returns:
        ``(start, stop)`` of each worker's slice.
    """
    bounds = [round(k * num_envs / num_workers) for k in range(num_workers + 1)]
    return list(zip(bounds[:-1], bounds[1:], strict=True))


# --- processes ------------------------------------------------------------------------------------------------------


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "an unknown exit status"
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def _alive(processes: Sequence[BaseProcess], worker: int) -> bool:
    return processes[worker].is_alive()


def _death_error(processes: Sequence[BaseProcess], slices: Sequence[tuple[int, int]], worker: int) -> WorkerDiedError:
    process = processes[worker]
    process.join(0.1)
    start, stop = slices[worker]
    return WorkerDiedError(
        f"AsyncVectorEnv worker {worker} (sub-envs {start}..{stop - 1}, pid {process.pid}) must be alive, "
        f"got a process that ended with {_describe_exit(process.exitcode)}; close() this vector env and create a new "
        "one (the worker's stderr shows whether a sub-env crashed it)"
    )


def _exit_handle(process: BaseProcess, pidfds: list[int]) -> int:
    """A descriptor that becomes readable when ``process`` exits: a pidfd if possible, else its sentinel.

    Unlike the sentinel (a pipe the child holds), a pidfd also fires when a grandchild the worker forked still
    holds copies of the worker's descriptors.
    """
    pidfd_open = getattr(os, "pidfd_open", None)
    if pidfd_open is not None and process.pid is not None:
        try:
            pidfd: int = pidfd_open(process.pid)
        except OSError:
            pass  # e.g. a kernel older than 5.3
        else:
            pidfds.append(pidfd)
            return pidfd
    return process.sentinel


def _stop(processes: Sequence[BaseProcess], terminate: bool, wait: float | None) -> None:
    """Join every process within ``wait`` seconds (terminating them first if asked), then terminate and kill."""
    if terminate:
        for process in processes:
            if process.is_alive():
                process.terminate()
    deadline = None if wait is None else time.monotonic() + wait
    for process in processes:
        process.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
            process.join(_KILL_GRACE)
        if process.is_alive():
            process.kill()
            process.join()
        process.close()


def _release(
    processes: Sequence[BaseProcess], link: Link | None, channels: Sequence[Channel], pidfds: list[int]
) -> None:
    """Last-resort cleanup when a pool is garbage-collected (or the interpreter exits) without ``shutdown``."""
    _stop(processes, terminate=True, wait=_KILL_GRACE)
    if link is not None:
        link.close()
    else:
        for channel in channels:
            channel.close()
    for pidfd in pidfds:
        os.close(pidfd)
    pidfds.clear()


class WorkerPool:
    """A fixed set of worker processes, each serving a contiguous slice of the sub-envs, and the link to them.

    Args:
        ctx: The ``multiprocessing`` context to start workers from.
        make_spec: Builds worker ``w``'s :class:`WorkerSpec`.
        slices: Worker ``w`` serves sub-envs ``range(*slices[w])``.
        daemon: Start daemonic workers (terminated when the parent exits normally; they cannot have children).
        name: Used in process names.
    """

    def __init__(
        self, ctx: BaseContext, make_spec: SpecMaker, slices: Sequence[tuple[int, int]], daemon: bool, name: str
    ) -> None:
        self.slices = list(slices)
        self.processes: list[BaseProcess] = []
        #: The workers' process ids, in worker order.
        self.pids: list[int] = []
        channels: list[Channel] = []
        self._pidfds: list[int] = []
        counters: Counters = allocate_counters(ctx, len(self.slices))
        method = ctx.get_start_method()
        # The kernel's parent-death signal follows the *thread* that started the child, so it is only safe from
        # the main thread, and only for children this process starts itself (not through a forkserver).
        death_signal = threading.current_thread() is threading.main_thread() and method in ("fork", "spawn")
        link: Link | None = None
        try:
            with clear_mpi_env_vars():
                for worker in range(len(self.slices)):
                    command_reader, command_writer = ctx.Pipe(duplex=False)
                    reply_reader, reply_writer = ctx.Pipe(duplex=False)
                    channels.append(Channel(reply_reader, command_writer, counters, worker, parent=True))
                    # A forked child inherits every parent-side end created so far; it closes them so that each
                    # worker sees end-of-file when the parent dies.
                    inherited = tuple(c for ch in channels for c in (ch.reader, ch.writer)) if method == "fork" else ()
                    child = Channel(command_reader, reply_writer, counters, worker, parent=False)
                    process = _process_class(ctx)(
                        target=run_worker,
                        args=(make_spec(worker, child, inherited, os.getpid(), death_signal),),
                        name=f"{name}-worker-{worker}",
                        daemon=daemon,
                    )
                    process.start()
                    self.processes.append(process)
                    self.pids.append(process.pid or 0)
                    # Only the child may hold its ends, or the parent would never see end-of-file from it.
                    command_reader.close()
                    reply_writer.close()
            handles = [_exit_handle(process, self._pidfds) for process in self.processes]
            # Plain functions over the lists, not bound methods: the link must not refer back to the pool, or the
            # pool would only be released (and its workers stopped) by the cyclic garbage collector.
            link = Link(
                channels,
                handles,
                functools.partial(_alive, self.processes),
                functools.partial(_death_error, self.processes, self.slices),
                polling=not self._pidfds,
            )
        except BaseException:
            _release(self.processes, None, channels, self._pidfds)
            raise
        self.link = link
        self._finalizer = weakref.finalize(self, _release, list(self.processes), link, channels, self._pidfds)

    def __len__(self) -> int:
        return len(self.processes)

    def shutdown(
        self, owing: Iterable[int], grace: float | None, timeout: float | None, terminate: bool
    ) -> list[bytes]:
        """Stop every worker and release the pipes and processes; returns within the bounds given.

        Workers that owe a reply to an unfinished call get ``grace`` seconds to deliver it (it is dropped); those
        that miss it are unresponsive and are terminated. The others close their sub-envs and exit.

        Args:
            owing: Workers that still owe a reply to an unfinished call.
            grace: Seconds the ``owing`` workers get (``None``: as long as they live).
            timeout: Seconds for the whole shutdown (``None``: no limit beyond ``grace``); on expiry every worker
                still running is terminated.
            terminate: Terminate every worker at once instead of asking them to close their sub-envs.

        Returns:
            The close replies that reported a failure (encoded error frames).
        """
        failures: list[bytes] = []
        link = self.link
        deadline = None if timeout is None else time.monotonic() + timeout
        if not terminate:
            drain_for = grace
            if deadline is not None:
                left = max(0.0, deadline - time.monotonic())
                drain_for = left if grace is None else min(grace, left)
            for worker in self._drain([w for w in owing if w not in link.dead], drain_for):
                self.processes[worker].terminate()
                link.death(worker)
            asked: list[int] = []
            for worker in range(len(self.processes)):
                try:
                    link.send(worker, encode(Command.CLOSE))
                    asked.append(worker)
                except WorkerDiedError:
                    pass
            try:
                for worker in asked:
                    remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
                    try:
                        reply = link.collect([worker], remaining)[worker]
                    except WorkerDiedError:
                        continue
                    if reply[0] == Status.ERROR:
                        failures.append(reply)
            except multiprocessing.TimeoutError:
                terminate = True
        link.discard_replies()
        _stop(self.processes, terminate, None if deadline is None else max(0.0, deadline - time.monotonic()))
        self._finalizer.detach()
        link.close()
        for pidfd in self._pidfds:
            os.close(pidfd)
        self._pidfds.clear()
        return failures

    def _drain(self, owing: list[int], grace: float | None) -> list[int]:
        """Read and drop the replies ``owing`` workers still owe; return those that did not answer in time."""
        deadline = None if grace is None else time.monotonic() + grace
        while owing:
            try:
                self.link.collect(owing, None if deadline is None else max(0.0, deadline - time.monotonic()))
                return []
            except WorkerDiedError:
                owing = [worker for worker in owing if worker not in self.link.dead]
            except multiprocessing.TimeoutError:
                return self.link.unanswered(owing)
        return []
