"""Supervised execution: every call into a target runs in a process the suite can time out, kill and
replace.

Three kinds of process take part, and only the last two ever run target code:

* the **supervisor** — the pytest process (or an xdist worker). It never imports or calls a target. It waits for
  its children, reads their :class:`~conformance._engine.processes.Board`, and kills a process group whose call runs
  longer than the timeout, that makes no progress at all for as long, or that grows past the memory cap;
* one **zygote** per target, forked from the supervisor on the target's first job. It *warms up* once — imports
  the target, constructs and probes it (:func:`conformance._engine.jobs.warm_target`) — then serves as a fork
  server, so every job starts from the same warm, pristine state without paying for imports again;
* one **job process** per job (a pytest item, a shared rollout), forked from the zygote. It runs the job, writes
  its JSON result to a file and leaves with ``os._exit``: threads it started, memory it leaked and global state it
  changed die with it. Descendants die with their process group; those that escape it (``setsid``) are adopted
  by the zygote, a child subreaper on Linux, which kills them when the job ends. Under spawn isolation (a target
  unsafe to fork once warm) the zygote is *cold* and its jobs run one after another in its *worker*, a process that
  warmed up in its first job and stays (:mod:`conformance._engine.worker`): the import is paid once per worker, and
  a worker whose job left something behind is retired after it.

Several jobs may run at once (``parallel``; a target then gets a second zygote), each under its own limits: the
supervisor submits jobs and waits for the one it needs while enforcing the limits of all. A zygote's warm-up may clone
it (:func:`conformance._engine.zygote.clone`: a target whose constructions wait rather than compute); each clone is
one more zygote of the target, and one more job slot, since its jobs mostly wait too. A job killed for hanging
is first asked for its Python stacks (``faulthandler`` on ``SIGUSR2``), so the report says where it was stuck.

Messages between the supervisor and a zygote are JSON lines on a socket pair; results travel as JSON files (the
processes' side of all this is :mod:`conformance._engine.zygote`; how jobs end, :mod:`conformance._engine.messages`).
Nothing a target produced is ever unpickled in the supervisor, so even a hostile ``__reduce__`` cannot run there.

On Ctrl-C only the supervisor is interrupted (its children live in process groups of their own, out of the
terminal's reach): it kills the job in progress and returns :class:`Interrupted`, so the caller can record the
item before it re-raises. Zygotes and jobs die with their parent (``PR_SET_PDEATHSIG``), so not even a SIGKILLed
supervisor leaves one behind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import select
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from conformance._engine.messages import Died, Finished, Hung, Interrupted, Outcome, OverMemory
from conformance._engine.processes import Board, Snapshot, describe_status, kill_group, kill_tree, rss, tree_usage
from conformance._engine.watchdog import COST_FACTOR
from conformance._engine.zygote import JSON, STACKS_SIGNAL, Job, JobFunction, collect, flush_stdio, send, serve

__all__ = [
    "Supervisor",
    "Ticket",
    "default_memory_cap",
    "fork_available",
]


# --- The supervisor ------------------------------------------------------------------------------------------------

_POLL = 0.05
_MEMORY_POLL = 0.2
_GRACE = 2.0
_MIN_IDLE = 10.0
_STARVED_GRACE = 4.0
_RUNNING_GRACE = 2.0
_STARVED_SHARE = 1 / COST_FACTOR
_STALLED_SHARE = 0.05  # less than this share of a CPU past the grace: the machine stalled the call (it is rerun)
_SAMPLE_AFTER = 0.2
_CPU_TICKS = 0.05
_WARM_IDLE = 60.0
_GIB = 1 << 30
_STACKS_WAIT = 0.3
_CLONES = 1  # spare channels each warm zygote gets, so its warm-up may clone it once


def fork_available() -> bool:
    """Whether process supervision can work here (POSIX ``fork`` and process groups)."""
    return hasattr(os, "fork") and hasattr(os, "killpg") and sys.platform != "win32"


def default_memory_cap() -> int:
    """4 GiB, or half the machine's physical memory when that is less."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * _GIB
    return int(min(4 * _GIB, physical // 2))


class _Starvation:
    """Tells a call that is slow because the machine is overloaded from one that hangs.

    What a call's processes (the job's and those it started, whose work it may wait for) got of a CPU is read once the
    call has run for :data:`_SAMPLE_AFTER` (:meth:`watch`) and again once it is past its limit. A limit allows
    :data:`~conformance._engine.watchdog.COST_FACTOR` times what the call cost when it was measured, so a call whose
    processes had :data:`_STARVED_SHARE` of a CPU since it started, or half its limit in CPU seconds (one and a half
    times its measured cost), has had what it needed; one that did not return then is *busy* (a loop) and fails at
    once, however loaded the machine. A call whose processes all sleep is *asleep* (blocked in a call that never
    returns) and fails at once too. Only a call whose processes are runnable (waiting for a CPU, ``R``, or in the
    kernel, ``D``: page reclaim under memory pressure) and got less than that is excused, until it has had that CPU:
    for at most :data:`_RUNNING_GRACE` times its limit while it runs (a loop is judged within twice its limit however
    loaded the machine; a call of its measured cost ends within that on a sixth of a CPU), and for at most
    :data:`_STARVED_GRACE` times its limit while it gets next to nothing (the machine stalls it: past that it is
    *starved*, and the runner confirms the hang in a fresh process). :attr:`cause` says which.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.call: tuple[int, float] = (0, 0.0)
        self.cpu_at_start = 0.0
        self.sampled = 0.0  # when the CPU of the call's processes was read
        self.cause = ""
        self._clock = clock

    def _sample(self, pid: int, call: tuple[int, float], now: float) -> None:
        self.call, self.cpu_at_start, self.sampled, self.cause = call, tree_usage(pid)[0], now, ""

    def watch(self, pid: int, snapshot: Snapshot) -> None:
        """At every look at a working process: read the CPU its processes have used once its current call (or spell
        without one) has lasted :data:`_SAMPLE_AFTER` (a cheap call ends before, and is never read)."""
        started = snapshot.started or snapshot.beat
        call, now = (snapshot.calls, started), self._clock()
        if started and call != self.call and now - started > _SAMPLE_AFTER:
            self._sample(pid, call, now)

    def excuses(self, pid: int, snapshot: Snapshot, limit: float) -> bool:
        """Whether the call on ``snapshot``, past ``limit``, is let go on for now (:attr:`cause` says why not)."""
        started = snapshot.started or snapshot.beat
        call, now = (snapshot.calls, started), self._clock()
        if call != self.call:  # never read (the supervisor was busy): what it gets from now on is what counts
            self._sample(pid, call, now)
            return True
        cpu, runnable = tree_usage(pid)
        got, since = cpu - self.cpu_at_start, now - self.sampled
        # The CPU clock ticks in hundredths: a few ticks of progress are within its resolution.
        running = got >= _STALLED_SHARE * since + _CPU_TICKS
        if not runnable:
            self.cause = "asleep"
        elif got >= _STARVED_SHARE * since + _CPU_TICKS or got >= limit / 2:
            self.cause = "busy"
        elif running and now - started > _RUNNING_GRACE * limit:
            self.cause = "busy"
        elif now - started > _STARVED_GRACE * limit:
            self.cause = "starved"
        else:
            return True
        return False


_NOTHING = Snapshot(0, False, 0.0, 0.0, 0, "", "", "", "")  # the board of a job that never started


@dataclass(eq=False)
class Ticket:
    """A job handed to :meth:`Supervisor.submit`: queued, running, or ended.

    Attributes:
        key: The target whose zygote runs it.
        warm: How that zygote warms up, when one has to be started for it.
        job: What runs.
        outcome: How it ended (``None`` until it has).
        cancelled: Whether :meth:`Supervisor.cancel` withdrew it (its outcome then means nothing).
        started: ``time.monotonic()`` when it left the queue (its outcome's seconds count from there).
        result: The file its job writes its result to (``""`` until it is sent to a zygote).
    """

    key: str
    warm: Job
    job: Job
    outcome: Outcome | None = None
    cancelled: bool = False
    started: float = 0.0
    result: str = ""


class _Watch:
    """The limits' state for what one zygote is doing now (warming up, or running one job)."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.starved = _Starvation()
        self.next_memory = 0.0
        self.verdict: Hung | OverMemory | None = None
        self.kill_at = 0.0  # when a hung job, asked for its stacks, is killed


class _Zygote:
    def __init__(
        self, key: str, warm: Job, pid: int, sock: socket.socket, board: Board, ticket: Ticket | None,
        cold: bool = False,
    ) -> None:
        self.key = key
        self.cold = cold  # whether its jobs warm up themselves (the target is unsafe to fork once warm)
        self.warm = warm
        self.pid = pid
        self.sock = sock
        self.board = board
        self.buffer = b""
        self.alive = True
        self.warming = True
        self.ticket: Ticket | None = ticket  # what it warms up for or runs; None when idle
        self.job_pid: int | None = None
        self.preloaded: set[str] = set()
        self.preloading = False  # whether the current job's request asked it to import modules first
        self.sent = False  # whether the current ticket's job request has been sent
        self.watch = _Watch(ticket.started if ticket is not None else time.monotonic())
        self.spares: list[tuple[socket.socket, Board]] = []  # channels its warm-up may clone it into
        self.parent: _Zygote | None = None  # the zygote it is a clone of (its slot is one more than ``parallel``)

    def send(self, message: Mapping[str, JSON]) -> None:
        send(self.sock, message)

    def receive(self) -> list[dict[str, JSON]] | None:
        """The complete messages that have arrived (``None`` when the zygote has gone)."""
        try:
            chunk = self.sock.recv(65536)
        except OSError:
            chunk = b""
        if not chunk:
            return None
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line]

    def worker(self) -> int | None:
        """The process doing the work the limits apply to: the zygote while it warms up, then the job's."""
        return self.pid if self.warming else self.job_pid

    def close_spares(self) -> None:
        for spare, _ in self.spares:
            with contextlib.suppress(OSError):
                spare.close()
        self.spares = []

    def kill(self) -> None:
        self.alive = False
        kill_tree(self.pid)
        self.close_spares()
        with contextlib.suppress(OSError):
            self.sock.close()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


class Supervisor:
    """Runs jobs in supervised processes forked from warm zygotes, one or more per key (a target).

    Up to ``parallel`` jobs run at once (plus one per clone a zygote's warm-up made): :meth:`submit` queues a job and
    returns at once, :meth:`wait` returns its outcome, and every running job has its limits enforced whichever one is
    being waited for. A key gets a second
    zygote only when its first is busy and a slot is free, so a run of one target uses every slot while a run that
    moves from target to target keeps one zygote per target.

    Args:
        timeout: Seconds one call into a target may run; a process may go without any progress (no call started
            or ended) for three times as long (at least 10 s; a zygote warming up, at least a minute).
        memory_cap: Bytes of resident memory a process may hold (``0``: no cap).
        workdir: Where result files go (a private temporary directory when ``None``).
        settle: A module-level function a zygote calls (with ``{}``) after importing what earlier jobs imported.
        parallel: How many processes (jobs, and zygotes warming up) may work at once.
        start: How job processes start: ``"fork"`` (from a zygote that warmed up for the target), ``"spawn"``
            (each imports and probes the target anew, forked from a zygote that never imported it) or ``"auto"``
            (fork, until a zygote finds the target unsafe to fork or :meth:`isolate` is called: spawn from then on).
    """

    def __init__(
        self, timeout: float, memory_cap: int, workdir: Path | None = None, settle: JobFunction | None = None,
        parallel: int = 1, start: str = "auto",
    ) -> None:
        if start not in ("auto", "fork", "spawn"):
            raise ValueError(f"Supervisor start must be 'auto', 'fork' or 'spawn', got {start!r}")
        if not timeout > 0:
            raise ValueError(f"Supervisor timeout must be > 0 seconds, got {timeout!r}")
        if memory_cap < 0:
            raise ValueError(f"Supervisor memory_cap must be >= 0 bytes, got {memory_cap!r}")
        if parallel < 1:
            raise ValueError(f"Supervisor parallel must be >= 1 process, got {parallel!r}")
        self.timeout = timeout
        # Progress outside any call (the suite's own work, Hypothesis' generation) is not bounded by the per-call
        # timeout, only by this backstop: what hangs there is a call the suite could not track (a property read
        # inside a comparison, say), and a busy machine must not turn slow suite work into a "hang".
        self.idle_limit = max(3 * timeout, _MIN_IDLE)
        self.memory_cap = memory_cap
        self.settle = Job.of(settle).function if settle is not None else ""  # a name: it travels to zygotes
        self.parallel = parallel
        self._scratch = tempfile.TemporaryDirectory(prefix="conformance-") if workdir is None else None
        self._workdir = workdir if workdir is not None else Path(self._scratch.name if self._scratch else ".")
        self._zygotes: dict[str, list[_Zygote]] = {}
        self._queue: list[Ticket] = []
        self._jobs = 0
        self._settled = 0  # how many jobs have ended (a wait refills when it grows)
        # Modules jobs of a key imported: a zygote imports them before it forks its next job, so a job starts with
        # what earlier jobs of its target needed already imported (pygame for render checks, say).
        self._imported: dict[str, set[str]] = {}
        self._no_preload: set[str] = set()
        self.start = start
        self.isolated: dict[str, str] = {}
        """Keys whose jobs warm up themselves (spawn), and why (``"5 threads in the probe process"``)."""

    def isolation(self, key: str) -> tuple[str, str]:
        """How jobs of ``key`` start (``"fork"`` or ``"spawn"``) and why (``""`` when that is the default)."""
        if self.start == "spawn":
            return "spawn", "--conformance-isolation spawn"
        if self.start == "fork":
            return "fork", "--conformance-isolation fork"
        reason = self.isolated.get(key)
        return ("spawn", reason) if reason is not None else ("fork", "")

    def isolate(self, key: str, reason: str) -> bool:
        """From now on, start ``key``'s jobs from a cold zygote (each imports and probes the target anew): warm
        zygotes of ``key`` are killed, and what they ran or warmed up for goes back to the queue. Whether it changed
        anything (not under ``start="fork"``, nor twice)."""
        if self.start != "auto" or key in self.isolated:
            return False
        self.isolated[key] = reason
        self._no_preload.add(key)  # preloading would import the target into the cold zygote
        for zygote in list(self._zygotes.get(key, ())):
            if zygote.cold:
                continue
            ticket = zygote.ticket
            zygote.ticket = None
            self._drop(zygote)
            if ticket is not None and ticket.outcome is None and not ticket.cancelled:
                self._queue.insert(0, ticket)
        return True

    def run(self, key: str, warm: Job, job: Job) -> Outcome:
        """Run ``job`` in a fresh process forked from a zygote of ``key`` (started with ``warm`` if needed) and wait.

        Returns:
            How it ended. When the zygote itself dies, hangs or overflows while warming up, that is the outcome
            (the job never ran, ``stage`` is ``"warm"``) and the next job starts a new zygote.
        """
        return self.wait(self.submit(key, warm, job))

    def submit(self, key: str, warm: Job, job: Job) -> Ticket:
        """Queue ``job``; it starts as soon as a slot is free."""
        ticket = Ticket(key, warm, job)
        self._queue.append(ticket)
        self._dispatch()
        return ticket

    def wait(self, ticket: Ticket, refill: Callable[[], None] | None = None) -> Outcome:
        """Work until ``ticket`` has ended; its outcome (:class:`Interrupted` for every unfinished job on Ctrl-C).

        Args:
            ticket: The job waited for.
            refill: Called whenever another job ends meanwhile, to submit more work for the slot it freed.
        """
        try:
            while ticket.outcome is None:
                if ticket not in self._queue and self._running(ticket) is None:
                    raise RuntimeError("Supervisor ticket is neither queued nor running: it was not submitted here")
                settled = self._settled
                self._step(_POLL)
                if refill is not None and self._settled != settled and ticket.outcome is None:
                    refill()
        except KeyboardInterrupt:
            self._interrupt()
        if ticket.outcome is None:  # unreachable: _interrupt ends every ticket
            raise RuntimeError("Supervisor ticket ended without an outcome")
        return ticket.outcome

    def cancel(self, ticket: Ticket) -> None:
        """Withdraw a job that is no longer wanted: dequeue it, or kill its process (or the zygote warming for it)."""
        if ticket.outcome is not None:
            return
        ticket.cancelled = True
        ticket.outcome = Interrupted(_NOTHING, 0.0)
        if ticket in self._queue:
            self._queue.remove(ticket)
            return
        zygote = self._running(ticket)
        if zygote is None:
            return
        if zygote.warming:
            self._drop(zygote)
        elif zygote.job_pid is not None:
            kill_group(zygote.job_pid)
        # else: the job is killed as soon as its zygote says it started

    def discard(self, key: str) -> None:
        """Kill ``key``'s zygotes (the next job starts a new one); a job running on one ends as :class:`Died`."""
        zygotes = list(self._zygotes.get(key, ()))
        tickets = [zygote.ticket for zygote in zygotes]
        for zygote in zygotes:
            zygote.ticket = None  # settled below, not queued again when its parent zygote goes first
        for zygote, ticket in zip(zygotes, tickets):
            self._drop(zygote)
            if ticket is not None:
                self._settle(ticket, Died("SIGKILL", zygote.board.read(), self._since(ticket)))

    def close(self) -> None:
        """Ask every zygote to exit, kill those that do not within a grace period, remove the result files."""
        zygotes = [zygote for group in self._zygotes.values() for zygote in group]
        self._zygotes, self._queue = {}, []
        for zygote in zygotes:
            with contextlib.suppress(OSError):
                zygote.send({"op": "exit"})
        deadline = time.monotonic() + _GRACE
        for zygote in zygotes:
            while time.monotonic() < deadline:
                with contextlib.suppress(ChildProcessError):
                    reaped, _ = os.waitpid(zygote.pid, os.WNOHANG)
                    if reaped == 0:
                        time.sleep(0.01)
                        continue
                break
            zygote.kill()
        if self._scratch is not None:
            self._scratch.cleanup()

    def unisolate(self, key: str) -> None:
        """Undo :meth:`isolate` (what made it look necessary turned out not to be the fork's doing)."""
        if self.isolated.pop(key, None) is None:
            return
        self._no_preload.discard(key)
        for zygote in list(self._zygotes.get(key, ())):
            if zygote.cold and zygote.ticket is None:
                self._drop(zygote)

    # --- internals -----------------------------------------------------------------------------------------------

    def _working(self) -> list[_Zygote]:
        return [zygote for group in self._zygotes.values() for zygote in group if zygote.ticket is not None]

    def lanes(self, key: str | None = None) -> int:
        """How many jobs (of ``key``, or of any key) may run at once now: ``parallel``, plus one per live clone of a
        zygote (of ``key``; :mod:`.zygote`). A clone's slot is its target's: another's jobs, which may compute,
        do not get more than ``parallel`` slots from it."""
        groups = self._zygotes.values() if key is None else [self._zygotes.get(key, [])]
        return self.parallel + sum(1 for group in groups for zygote in group if zygote.parent is not None)

    def _running(self, ticket: Ticket) -> _Zygote | None:
        return next((zygote for zygote in self._working() if zygote.ticket is ticket), None)

    @staticmethod
    def _since(ticket: Ticket) -> float:
        return time.monotonic() - ticket.started

    def _dispatch(self) -> None:
        """Start queued jobs, oldest first, while slots are free."""
        for ticket in list(self._queue):
            working = len(self._working())
            if working >= self.lanes():
                return
            if working >= self.lanes(ticket.key):
                continue  # what is free is another target's clones' slots
            self._queue.remove(ticket)
            ticket.started = time.monotonic()
            group = self._zygotes.setdefault(ticket.key, [])
            for stale in [zygote for zygote in group if zygote.ticket is None and zygote.warm != ticket.warm]:
                self._drop(stale)  # warmed up for what the caller no longer asks (the target's facts changed)
            idle = next((zygote for zygote in group if zygote.ticket is None), None)
            if idle is None:
                self._start(ticket.key, ticket.warm, ticket)
                if len(group) == 1 and self.parallel > 1:
                    # The key's first zygote: warm a second one now, on a CPU that is idle while the first warms
                    # up and runs the target's first job, rather than later, when every CPU has work.
                    self._start(ticket.key, ticket.warm, None)
            elif idle.warming:  # a spare warming up: the job is sent when it says it is ready
                idle.ticket, idle.watch = ticket, _Watch(ticket.started)
            else:
                self._send_job(idle, ticket)

    def _start(self, key: str, warm: Job, ticket: Ticket | None) -> None:
        parent, child = socket.socketpair()
        board = Board()
        cold = self.isolation(key)[0] == "spawn"
        # What a clone of this zygote needs, made here: the supervisor's ends of its socket and its board.
        spares = [] if cold else [(*socket.socketpair(), Board()) for _ in range(_CLONES)]
        flush_stdio()
        pid = os.fork()
        if pid == 0:
            parent.close()
            for mine, _, _ in spares:
                mine.close()
            serve(child, board, warm, cold, [(theirs, spare_board) for _, theirs, spare_board in spares])
        child.close()
        for _, theirs, _ in spares:
            theirs.close()
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)
        zygote = _Zygote(key, warm, pid, parent, board, ticket, cold)
        zygote.spares = [(mine, spare_board) for mine, _, spare_board in spares]
        self._zygotes.setdefault(key, []).append(zygote)

    def _adopt(self, zygote: _Zygote, pids: list[int]) -> None:
        """``zygote``'s warm-up cloned it into ``pids`` (on its spare channels, in order): each is a zygote of its key,
        warming up, idle until it says it is ready."""
        group = self._zygotes.setdefault(zygote.key, [])
        for pid, (sock, board) in zip(pids, zygote.spares):
            clone = _Zygote(zygote.key, zygote.warm, pid, sock, board, None)
            clone.parent = zygote
            group.append(clone)
        zygote.spares = zygote.spares[len(pids):]
        zygote.close_spares()

    def _send_job(self, zygote: _Zygote, ticket: Ticket) -> None:
        self._jobs += 1
        ticket.result = str(self._workdir / f"job-{os.getpid()}-{self._jobs}.json")
        key = ticket.key
        # A cold zygote never imports what its target's jobs import: its worker does, in its own process.
        cold = key in self._no_preload or zygote.cold
        preload = [] if cold else sorted(self._imported.get(key, set()) - zygote.preloaded)
        zygote.preloaded.update(preload)
        zygote.preloading = bool(preload)
        zygote.ticket, zygote.job_pid, zygote.watch = ticket, None, _Watch(ticket.started)
        zygote.sent = True
        request = {"op": "run", "function": ticket.job.function, "payload": dict(ticket.job.payload),
                   "result": ticket.result, "preload": preload, "settle": self.settle}
        try:
            zygote.send(request)
        except OSError:  # the zygote went away between jobs: the job goes back to the queue, for another one
            zygote.ticket = None
            self._drop(zygote)
            self._queue.insert(0, ticket)

    def _drop(self, zygote: _Zygote) -> None:
        zygote.kill()
        group = self._zygotes.get(zygote.key, [])
        if zygote in group:
            group.remove(zygote)
        for clone in [other for other in group if other.parent is zygote]:
            # Killed with it (its descendant), through no fault of its own: what it ran or warmed up for runs again.
            ticket, clone.ticket = clone.ticket, None
            self._drop(clone)
            if ticket is not None and ticket.outcome is None and not ticket.cancelled:
                self._queue.insert(0, ticket)

    def _settle(self, ticket: Ticket, outcome: Outcome) -> None:
        if isinstance(outcome, Finished):
            self._imported.setdefault(ticket.key, set()).update(outcome.imported)
        if ticket.outcome is None:
            ticket.outcome = outcome
            self._settled += 1

    def _step(self, timeout: float) -> None:
        """Start what can start, wait up to ``timeout`` for news from working zygotes, enforce every limit."""
        self._dispatch()
        working = self._working()
        if not working:
            return
        readable, _, _ = select.select([zygote.sock for zygote in working], [], [], timeout)
        now = time.monotonic()
        for zygote in working:
            if zygote.sock in readable:
                self._read(zygote, now)
        for zygote in working:
            if zygote.alive and zygote.ticket is not None:
                self._police(zygote, now)
        self._dispatch()

    def _read(self, zygote: _Zygote, now: float) -> None:
        messages = zygote.receive()
        if messages is None:
            self._gone(zygote, now)
            return
        for message in messages:
            ticket = zygote.ticket
            if message["op"] == "cloned":
                self._adopt(zygote, [int(pid) for pid in message["pids"]])
                continue
            if message["op"] == "ready":
                zygote.warming = False
                zygote.close_spares()
                unsafe = str(message.get("unsafe") or "")
                if unsafe and not zygote.cold and self.isolate(zygote.key, unsafe):
                    return  # this zygote is gone; its ticket waits for a cold one
            if ticket is None:
                continue
            if message["op"] == "ready":
                if ticket.cancelled:
                    zygote.ticket = None
                elif not zygote.sent:
                    self._send_job(zygote, ticket)
            elif message["op"] == "started":
                zygote.job_pid = int(message["pid"])
                if ticket.cancelled:
                    kill_group(zygote.job_pid)
            elif message["op"] == "exited":
                outcome = self._finished(zygote, int(message["status"]), ticket.result, now)
                if isinstance(outcome, Finished):
                    outcome = dataclasses.replace(outcome, peak_mib=float(message.get("peak_mib", 0.0)))
                zygote.ticket = zygote.job_pid = None
                zygote.sent = False
                self._settle(ticket, outcome)

    def _gone(self, zygote: _Zygote, now: float) -> None:
        """The zygote died: while warming up, in a preload before its job started, or killed from outside."""
        ticket, warming, started = zygote.ticket, zygote.warming, zygote.job_pid is not None
        verdict = zygote.watch.verdict
        status = self._reap(zygote.pid)
        zygote.ticket = None
        self._drop(zygote)
        if ticket is None:
            return
        board = zygote.board.read()
        if warming:
            self._settle(ticket, dataclasses.replace(verdict or Died(status, board, self._since(ticket)), stage="warm"))
        elif not started and zygote.preloading and verdict is None and not ticket.cancelled:
            # What it imported for the job killed it: never preload for this key again, and run the job afresh.
            self._no_preload.add(ticket.key)
            self._queue.insert(0, ticket)
        else:
            self._settle(ticket, verdict or Died(status, board, now - zygote.watch.started))

    def _police(self, zygote: _Zygote, now: float) -> None:
        """Kill the working process of ``zygote`` if it broke a limit (a warming zygote's failure is final at once)."""
        watch, pid, board = zygote.watch, zygote.worker(), zygote.board
        if pid is None:
            return
        if watch.verdict is not None:
            if watch.kill_at and now >= watch.kill_at:
                watch.kill_at = 0.0
                kill_group(pid)
            return
        snapshot = board.read()
        limit = snapshot.limit or self.timeout
        idle_limit = max(self.idle_limit, _WARM_IDLE) if zygote.warming else self.idle_limit
        verdict: Hung | OverMemory | None = None
        starved = watch.starved
        starved.watch(pid, snapshot)
        if snapshot.active and now - snapshot.started > limit and not starved.excuses(pid, snapshot, limit):
            verdict = Hung(limit, snapshot, now - watch.started, cause=starved.cause)
        elif not snapshot.active and snapshot.beat and now - snapshot.beat > idle_limit:
            if not starved.excuses(pid, snapshot, idle_limit):
                verdict = Hung(idle_limit, snapshot, now - watch.started, cause=starved.cause)
        elif self.memory_cap and now >= watch.next_memory:
            watch.next_memory = now + _MEMORY_POLL
            resident = rss(pid)
            if resident > self.memory_cap:
                verdict = OverMemory(resident, self.memory_cap, snapshot, now - watch.started)
        if verdict is None:
            return
        watch.verdict = verdict
        ticket = zygote.ticket
        if zygote.warming:  # the zygote itself is the culprit: it is replaced by the next job's
            zygote.ticket = None
            self._drop(zygote)
            if ticket is not None:
                self._settle(ticket, dataclasses.replace(verdict, stage="warm"))
        elif isinstance(verdict, Hung):
            # Ask the job for its stacks (faulthandler writes them at once, even from a blocking call), then kill.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, STACKS_SIGNAL)
            watch.kill_at = now + _STACKS_WAIT
        else:
            kill_group(pid)

    def _interrupt(self) -> None:
        """Ctrl-C: kill every job and warming zygote; every unfinished ticket ends as :class:`Interrupted`."""
        for zygote in self._working():
            ticket = zygote.ticket
            snapshot = zygote.board.read()
            if zygote.warming or zygote.job_pid is None:
                zygote.ticket = None
                self._drop(zygote)
            else:
                kill_group(zygote.job_pid)
            if ticket is not None:
                self._settle(ticket, Interrupted(snapshot, self._since(ticket), "warm" if zygote.warming else "job"))
        for ticket in self._queue:
            self._settle(ticket, Interrupted(_NOTHING, 0.0))
        self._queue = []

    @staticmethod
    def _reap(pid: int) -> str:
        try:
            _, status, _ = os.wait4(pid, 0)
        except ChildProcessError:
            return "an unknown status (the process was reaped elsewhere)"
        return describe_status(status)

    @staticmethod
    def _finished(zygote: _Zygote, status: int, result: str, now: float) -> Outcome:
        snapshot = zygote.board.read()
        seconds = now - zygote.watch.started
        left = collect(result)
        data, parts, stacks = left.data, left.parts, left.stacks
        verdict = zygote.watch.verdict
        if isinstance(verdict, Hung):
            return dataclasses.replace(verdict, traceback=stacks, parts=parts)
        if verdict is not None:
            return dataclasses.replace(verdict, parts=parts)
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and "value" in data:
            return Finished(data["value"], seconds, tuple(data.get("imported", ())), parts=parts)
        internal = str(data.get("internal_error") or data.get("unreadable") or "")
        return Died(describe_status(status), snapshot, seconds, internal, traceback=stacks, parts=parts)
