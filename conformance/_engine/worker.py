"""A cold zygote's worker: one process that imports and probes its target once, then runs the target's jobs one after
another (a pool per target, one worker per lane, as pytest-xdist's workers are).

Under spawn isolation (:mod:`conformance._engine.supervisor`: a target whose warm-up leaves threads or initialises a
library unsafe to fork) no job may be forked from a process that warmed up for the target. A job process forked from
the cold zygote used to warm up itself, run its job and exit, so every job paid the import and the probe again
(seconds for a package that imports JAX or torch). Now the cold zygote forks a *worker* (:func:`spawn`) that warms
up inside its first job and stays: each later request runs in that warm process, as a job of its own — its board, its
limits, its result file, its stacks at a hang — and the zygote relays how each ended, exactly as it does for a job
process of its own (:func:`Worker.run`). A worker that dies, hangs or is killed (the supervisor kills a hung job's
process group, which is the worker's) ends its job as a job process would; the zygote forks a fresh one for the next.

**What reuse gives up.** A job process took everything the target started with it when it ended. A worker lives on,
so after each job it looks at what the job left (:class:`_Baseline`) and is *retired* — it reports the job, then
exits, and its zygote kills what is left of it — when the job left a Python thread running, a process (killed at
once, with its group), more native threads than the runtime's own (a runtime such as XLA starts its pools at its
first use: one job may add native threads that stay, a later one may not), or :data:`GROWTH` more resident memory
than after its first job; or when the job ended in the suite's own error. What a job does to the target's
module state (a cache, a global counter) stays for the worker's next jobs, as it does between the items of one job.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from conformance._engine.processes import (
    PR_SET_CHILD_SUBREAPER,
    children,
    die_with_parent,
    kill_descendants,
    kill_group,
    peak_mib,
    prctl,
    reset_peak,
    rss,
    tasks,
)

__all__ = ["GROWTH", "Runner", "Worker", "spawn"]

_JSON: TypeAlias = Any  # what json.loads returns (zygote.JSON; not imported from there, which imports this module)

Runner: TypeAlias = Callable[[Mapping[str, _JSON], Callable[[], None] | None], int]
"""Runs one job request (``{"function", "payload", "result"}``) in the worker and returns its exit code (0, or the
suite's internal error). Its second argument, for the worker's first job only, is called once the warm-up is done
and before the job runs: the worker takes the measure of a warm process there."""

GROWTH = 1 << 30
"""Bytes of resident memory a worker may gain over what it held after its first job before it is retired (a JAX
target's compiled programs take hundreds of MiB over a few jobs)."""

_POLL = 0.05
_EXIT_SECONDS = 3.0  # a retiring worker kills what its jobs left (processes.kill_descendants: 2 s at most)


@dataclass
class _Baseline:
    """What the worker holds once warm: its Python threads, its native threads, its children and its memory.

    Attributes:
        threads: The identities of the Python threads alive after the warm-up (the target's runtime's).
        native: How many threads the worker may have.
        pools: Whether a job already started native threads that stayed (a runtime's pools, started once).
        children: The processes the warm-up started (a runtime's helpers), left alone between jobs.
        memory: Resident bytes after the first job (0 until then).
    """

    threads: frozenset[int]
    native: int
    children: frozenset[int]
    pools: bool = False
    memory: int = 0

    @classmethod
    def now(cls) -> _Baseline:
        return cls(frozenset(thread.ident or 0 for thread in threading.enumerate()), tasks(),
                   frozenset(children(os.getpid())))

    def retire(self, first: bool) -> str:
        """Why the worker must not run another job after the one that just ended (``""``: it may); kills the
        processes that job left running. ``first``: it was the worker's first job."""
        leaked = [pid for pid in children(os.getpid()) if pid not in self.children]
        if leaked:
            kill_descendants(os.getpid(), spare=self.children)
            return f"its job left {len(leaked)} process{'es' if len(leaked) != 1 else ''} running"
        started = [thread.name for thread in threading.enumerate() if (thread.ident or 0) not in self.threads]
        if started:
            return f"its job left {len(started)} thread(s) running ({', '.join(sorted(started)[:3])})"
        native = tasks()
        if native > self.native:
            # A runtime starts its native pools at its first use, which may come in any job (XLA's 17 threads at
            # JAX's first computation): once. Native threads that grow again are a leak.
            if self.pools:
                return f"its job started {native - self.native} native thread(s) that are still running"
            self.native, self.pools = native, True
        if first:
            self.memory = rss(os.getpid())
            return ""
        grown = rss(os.getpid()) - self.memory
        if self.memory and grown > GROWTH:
            return f"it grew by {grown >> 20} MiB since its first job"
        return ""


class Worker:
    """The zygote's side of its worker: the process and the socket its requests and replies travel on.

    Args:
        pid: The worker's process id (it leads a process group of its own).
        sock: The zygote's end of the socket pair.
    """

    def __init__(self, pid: int, sock: socket.socket) -> None:
        self.pid = pid
        self.sock = sock
        self.retired = ""
        """Why the worker ended after its last job (``""`` while it serves)."""

    def run(self, request: Mapping[str, _JSON]) -> tuple[int, float]:
        """Have the worker run one job request and wait until it has ended.

        Returns:
            The job's ending as a wait status (an exit code shifted as ``waitpid`` reports it, or the signal that
            killed the worker) and the job's peak resident memory in MiB. When the worker died, or retired after
            the job, :attr:`retired` says why and the worker is gone.
        """
        with contextlib.suppress(OSError):
            self.sock.sendall(json.dumps(request).encode("utf-8") + b"\n")
        buffer = b""
        while True:
            readable, _, _ = select.select([self.sock], [], [], _POLL)
            if readable:
                try:
                    chunk = self.sock.recv(65536)
                except OSError:
                    chunk = b""
                buffer += chunk
                if b"\n" in buffer:
                    reply = json.loads(buffer.split(b"\n", 1)[0])
                    self.retired = str(reply.get("retire") or "")
                    if self.retired:
                        self.stop()
                    return int(reply["code"]) << 8, float(reply.get("peak_mib") or 0.0)
            # A worker that died may leave its socket open in a process it started (one that escaped its group), so
            # its death is read from the kernel, not from the socket's end.
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
            if pid:
                self.retired = "it died"
                self._clean()
                return status, usage.ru_maxrss / 1024

    def stop(self) -> None:
        """End the worker: a retired one exits by itself (after killing what its jobs left), within
        :data:`_EXIT_SECONDS`; then it is killed, with what is left of its process group, and reaped."""
        with contextlib.suppress(OSError):
            self.sock.close()
        deadline = time.monotonic() + _EXIT_SECONDS
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(self.pid, os.WNOHANG)[0] == 0 and time.monotonic() < deadline:
                time.sleep(0.005)
            kill_group(self.pid)
            os.waitpid(self.pid, 0)
        self._clean()

    def _clean(self) -> None:
        kill_group(self.pid)
        with contextlib.suppress(OSError):
            self.sock.close()


def spawn(close: Sequence[socket.socket], runner: Runner) -> Worker:
    """From a cold zygote: fork its worker, which serves job requests with ``runner`` until its socket closes or it
    retires. ``close``: sockets of the zygote the worker must not hold (its channel to the supervisor)."""
    mine, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the worker's side, seen through the zygote's
        mine.close()
        for sock in close:
            sock.close()
        _serve(theirs, runner)
    theirs.close()
    with contextlib.suppress(OSError):
        os.setpgid(pid, pid)  # also done by the worker: whichever runs first, the group exists at once
    return Worker(pid, mine)


def _serve(sock: socket.socket, runner: Runner) -> None:
    """The worker: run each request, say how it ended, and retire when a job left something behind."""
    code = 0
    try:
        os.setpgid(0, 0)
        die_with_parent()
        prctl(PR_SET_CHILD_SUBREAPER, 1)  # what a job's processes leave in sessions of their own comes back here
        baseline: list[_Baseline] = []

        def warmed() -> None:
            baseline.append(_Baseline.now())

        reader = sock.makefile("rb")
        for line in reader:
            first = not baseline
            reset_peak()
            status = runner(json.loads(line), warmed if first else None)
            if not baseline:  # the warm-up ended the job before it was done (the suite's own error)
                baseline.append(_Baseline.now())
            retire = baseline[0].retire(first)
            if status != 0:
                retire = retire or "its job ended in the suite's own error"
            sock.sendall(json.dumps({"code": status, "peak_mib": peak_mib() or 0.0, "retire": retire}).encode()
                         + b"\n")
            if retire:
                break
    except BaseException:  # noqa: BLE001 - an orphaned or broken worker just ends; its zygote reports its death
        code = 70
    finally:
        kill_descendants(os.getpid())
        os._exit(code)
