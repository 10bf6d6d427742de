"""Supervised execution: every call into a target runs in a process the suite can time out, kill and replace.

Three kinds of process take part, and only the last two ever run target code:

* the **supervisor** — the pytest process (or an xdist worker). It never imports or calls a target. It waits for
  its children, reads their :class:`~conformance._engine.board.Board`, and kills a process group whose call runs
  longer than the timeout, that makes no progress at all for as long, or that grows past the memory cap;
* one **zygote** per target, forked from the supervisor on the target's first job. It *warms up* once — imports
  the target, constructs and probes it (:func:`conformance._engine.runner.warm_target`) — then serves as a fork
  server, so every job starts from the same warm, pristine state without paying for imports again;
* one **job process** per job (a pytest item, a shared rollout), forked from the zygote. It runs the job, writes
  its JSON result to a file and leaves with ``os._exit``: threads it started, memory it leaked and global state it
  changed die with it. Descendants die with their process group; those that escape it (``setsid``) are adopted
  by the zygote, a child subreaper on Linux, which kills them when the job ends.

Messages between the supervisor and a zygote are JSON lines on a socket pair; results travel as JSON files. Nothing
a target produced is ever unpickled in the supervisor, so even a hostile ``__reduce__`` cannot run there.

On Ctrl-C only the supervisor is interrupted (its children live in process groups of their own, out of the
terminal's reach): it kills the job in progress and returns :class:`Interrupted`, so the caller can record the
item before it re-raises. Zygotes and jobs die with their parent (``PR_SET_PDEATHSIG``), so not even a SIGKILLed
supervisor leaves one behind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import faulthandler
import importlib
import json
import os
import select
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

from conformance._engine.board import Board, Snapshot
from conformance._engine.processes import (
    PR_SET_CHILD_SUBREAPER,
    cpu_and_state,
    describe_status,
    die_with_parent,
    kill_descendants,
    kill_group,
    prctl,
    rss,
)

__all__ = [
    "Died",
    "Failure",
    "Finished",
    "Hung",
    "Interrupted",
    "Job",
    "Outcome",
    "OverMemory",
    "Supervisor",
    "default_memory_cap",
    "fork_available",
]

JSON: TypeAlias = Any  # a value json.loads returns: dict / list / str / int / float / bool / None

_POLL = 0.05
_MEMORY_POLL = 0.2
_GRACE = 2.0
_MIN_IDLE = 10.0
_MAX_TRACEBACK = 4000
_STARVED_GRACE = 4.0
_STARVED_SHARE = 0.25
_CPU_TICKS = 0.05
_WARM_IDLE = 60.0
_INTERNAL_ERROR = 70
_GIB = 1 << 30


@dataclass(frozen=True)
class Job:
    """What a process runs: a module-level function named ``module:qualname`` and its JSON payload.

    Functions travel by name, so the process that runs one finds it in its own (inherited) copy of the module.
    """

    function: str
    payload: Mapping[str, JSON] = field(default_factory=dict[str, JSON])


@dataclass(frozen=True)
class Finished:
    """The job returned; ``value`` is what its function returned (JSON data), ``imported`` the top-level modules it
    imported that its zygote had not, ``peak_mib`` its largest resident memory (the kernel's high-water mark)."""

    value: JSON
    seconds: float
    imported: tuple[str, ...] = ()
    peak_mib: float = 0.0


@dataclass(frozen=True)
class Died:
    """The process ended without returning: a signal, ``os._exit``, an abort in native code.

    Attributes:
        status: E.g. ``"SIGSEGV"`` or ``"exit code 3"``.
        board: What it was doing.
        detail: An internal error's traceback (the suite's own code failed in the job process), else ``""``.
        stage: ``"warm"`` when the zygote died while warming up (the job never ran), else ``"job"``.
        traceback: The Python stacks at a fatal signal (from ``faulthandler``), else ``""``.
    """

    status: str
    board: Snapshot
    seconds: float
    detail: str = ""
    stage: str = "job"
    traceback: str = ""


@dataclass(frozen=True)
class Hung:
    """The process was killed for taking too long.

    Attributes:
        limit: The timeout it exceeded, in seconds.
        board: What it was doing (``board.active`` false: no call was in progress, nothing made progress).
        stage: ``"warm"`` when it was the zygote, warming up (the job never ran), else ``"job"``.
    """

    limit: float
    board: Snapshot
    seconds: float
    stage: str = "job"


@dataclass(frozen=True)
class OverMemory:
    """The process was killed for holding more than the memory cap (``rss`` and ``cap`` in bytes; ``stage`` as for
    :class:`Hung`)."""

    rss: int
    cap: int
    board: Snapshot
    seconds: float
    stage: str = "job"


@dataclass(frozen=True)
class Interrupted:
    """The user interrupted the run (Ctrl-C) while the process worked; it has been killed (``stage`` as for
    :class:`Hung`)."""

    board: Snapshot
    seconds: float
    stage: str = "job"


Failure: TypeAlias = Died | Hung | OverMemory | Interrupted
"""Every way a job can end without returning."""
Outcome: TypeAlias = Finished | Failure


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

    A call past its limit whose process is runnable but got little CPU while the call ran was starved, not
    stuck: it gets up to :data:`_STARVED_GRACE` times its limit. A process that sleeps (blocked in a call that
    never returns) or that used its CPU (a busy loop) is not excused. Runnable includes uninterruptible waits in
    the kernel (state D), which is where a process starved of memory rather than CPU spends its time.
    """

    def __init__(self) -> None:
        self.call: tuple[int, float] = (0, 0.0)
        self.cpu_at_start = 0.0

    def excuses(self, pid: int, snapshot: Snapshot, limit: float) -> bool:
        cpu, state = cpu_and_state(pid)
        call = (snapshot.calls, snapshot.started or snapshot.beat)
        if call != self.call:  # the first look past the limit at this call: CPU since then is what it got
            self.call, self.cpu_at_start = call, cpu
            return True
        since = time.monotonic() - (snapshot.started or snapshot.beat)
        if since > _STARVED_GRACE * limit:
            return False
        # Waiting for a CPU (R) or for the kernel (D: page reclaim under memory pressure, disk) is starvation;
        # the CPU clock ticks in hundredths, so a few ticks of progress are within its resolution.
        got = cpu - self.cpu_at_start
        return state in ("R", "D") and got < _STARVED_SHARE * (since - limit) + _CPU_TICKS


def _resolve(function: str) -> Callable[[Mapping[str, JSON]], JSON]:
    module_name, _, qualname = function.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    resolved: Callable[[Mapping[str, JSON]], JSON] = obj
    return resolved


def _flush_stdio() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


# --- the child side ----------------------------------------------------------------------------------------------


def _send(sock: socket.socket, message: Mapping[str, JSON]) -> None:
    sock.sendall(json.dumps(message).encode("utf-8") + b"\n")


def _write_result(path: str, value: JSON) -> None:
    scratch = f"{path}.part"
    with open(scratch, "w", encoding="utf-8") as handle:
        json.dump(value, handle)
    os.replace(scratch, path)


def _run_job(job: Job, result: str, board: Board) -> None:
    """The job process: run, write the result, leave without running any exit handler of the parent's."""
    code = 0
    try:
        os.setpgid(0, 0)
        die_with_parent()
        # A fatal signal's Python traceback goes to a file the supervisor puts in the report, not to the terminal.
        crash = open(f"{result}.crash", "w", encoding="utf-8")  # noqa: SIM115 - open until os._exit
        faulthandler.enable(crash, all_threads=True)
        board.reset(os.getpid())
        before = set(sys.modules)
        value = _resolve(job.function)(job.payload)
        imported = sorted({name.split(".")[0] for name in set(sys.modules) - before})
        _write_result(result, {"value": value, "imported": imported})
    except BaseException:  # noqa: BLE001 - the suite's own failure, reported by the supervisor as such
        code = _INTERNAL_ERROR
        with contextlib.suppress(Exception):
            _write_result(result, {"internal_error": traceback.format_exc()})
    finally:
        _flush_stdio()
        os._exit(code)


def _preload(modules: list[str], board: Board, settle: str) -> None:
    """Import what earlier jobs imported, so later jobs start with it (a failure just leaves it to the job); then
    call ``settle`` (a ``module:function`` name, or ``""``) to let caches catch up with the new modules."""
    threads = threading.active_count()
    for name in modules:
        if name in sys.modules:
            continue
        board.begin(f"import {name}", "preload", "")
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001, S112 - the job will import (and report) it itself
            continue
        finally:
            board.end()
    if threading.active_count() > threads:
        # A preloaded module started a thread: forking from here would copy whatever locks it holds.
        raise _ThreadsInZygote
    if modules and settle:
        _resolve(settle)({})


class _ThreadsInZygote(Exception):
    """A preloaded import started a thread in the zygote, which must not fork with threads alive."""


def _zygote(sock: socket.socket, board: Board, warm: Job) -> None:
    """The zygote: warm up, then fork one job process per request until told to exit or orphaned."""
    code = 0
    try:
        os.setpgid(0, 0)
        die_with_parent()
        prctl(PR_SET_CHILD_SUBREAPER, 1)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to handle
        board.install()
        board.reset(os.getpid())
        _resolve(warm.function)(warm.payload)
        _send(sock, {"op": "ready"})
        reader = sock.makefile("rb")
        for line in reader:
            request = json.loads(line)
            if request["op"] != "run":
                break
            job = Job(request["function"], request["payload"])
            board.reset(os.getpid())  # what the previous job left there is no longer news
            _preload(request.get("preload", ()), board, request.get("settle", ""))
            _flush_stdio()
            pid = os.fork()
            if pid == 0:
                sock.close()
                _run_job(job, request["result"], board)
            with contextlib.suppress(OSError):
                os.setpgid(pid, pid)  # also done by the child: whichever runs first, the group exists at once
            _send(sock, {"op": "started", "pid": pid})
            _, status, usage = os.wait4(pid, 0)
            kill_group(pid)  # whatever the job left in its group
            kill_descendants(os.getpid())  # and whatever escaped it, adopted by this subreaper
            # The board keeps what the job left on it: the supervisor reads the call in progress at its death.
            peak_mib = usage.ru_maxrss / 1024 if sys.platform.startswith("linux") else usage.ru_maxrss / 2**20
            _send(sock, {"op": "exited", "pid": pid, "status": status, "peak_mib": peak_mib})
    except BaseException:  # noqa: BLE001 - an orphaned or broken zygote just ends
        code = _INTERNAL_ERROR
    finally:
        kill_descendants(os.getpid())
        _flush_stdio()
        os._exit(code)


# --- the supervisor side -----------------------------------------------------------------------------------------


class _Zygote:
    def __init__(self, pid: int, sock: socket.socket, board: Board) -> None:
        self.pid = pid
        self.sock = sock
        self.board = board
        self.buffer = b""
        self.alive = True
        self.job_pid: int | None = None

    def send(self, message: Mapping[str, JSON]) -> None:
        _send(self.sock, message)

    def poll(self, timeout: float) -> list[dict[str, JSON]] | None:
        """Messages that arrived within ``timeout`` (``None`` when the zygote has gone)."""
        readable, _, _ = select.select([self.sock], [], [], timeout)
        if not readable:
            return []
        try:
            chunk = self.sock.recv(65536)
        except OSError:
            chunk = b""
        if not chunk:
            return None
        self.buffer += chunk
        *lines, self.buffer = self.buffer.split(b"\n")
        return [json.loads(line) for line in lines if line]

    def kill(self) -> None:
        kill_group(self.pid)
        with contextlib.suppress(OSError):
            self.sock.close()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


class Supervisor:
    """Runs jobs in supervised processes, one warm zygote per key (a target).

    Args:
        timeout: Seconds one call into a target may run; a process may go without any progress (no call started
            or ended) for three times as long (at least 10 s; a zygote warming up, at least a minute).
        memory_cap: Bytes of resident memory a process may hold (``0``: no cap).
        workdir: Where result files go (a private temporary directory when ``None``).
        settle: A ``module:function`` a zygote calls (with ``{}``) after importing what earlier jobs imported.
    """

    def __init__(self, timeout: float, memory_cap: int, workdir: Path | None = None, settle: str = "") -> None:
        if not timeout > 0:
            raise ValueError(f"Supervisor timeout must be > 0 seconds, got {timeout!r}")
        if memory_cap < 0:
            raise ValueError(f"Supervisor memory_cap must be >= 0 bytes, got {memory_cap!r}")
        self.timeout = timeout
        # Progress outside any call (the suite's own work, Hypothesis' generation) is not bounded by the per-call
        # timeout, only by this backstop: what hangs there is a call the suite could not track (a property read
        # inside a comparison, say), and a busy machine must not turn slow suite work into a "hang".
        self.idle_limit = max(3 * timeout, _MIN_IDLE)
        self.memory_cap = memory_cap
        self.settle = settle
        self._scratch = tempfile.TemporaryDirectory(prefix="conformance-") if workdir is None else None
        self._workdir = workdir if workdir is not None else Path(self._scratch.name if self._scratch else ".")
        self._zygotes: dict[str, _Zygote] = {}
        self._jobs = 0
        # Modules jobs of a key imported, and those its current zygote was asked to import before forking: a job
        # starts with what earlier jobs of its target needed already imported (pygame for render checks, say).
        self._imported: dict[str, set[str]] = {}
        self._preloaded: dict[str, set[str]] = {}
        self._no_preload: set[str] = set()

    def run(self, key: str, warm: Job, job: Job) -> Outcome:
        """Run ``job`` in a fresh process forked from ``key``'s zygote (started with ``warm`` if needed).

        Returns:
            How it ended. When the zygote itself dies, hangs or overflows while warming up, that is the outcome
            (the job never ran) and the next call starts a new zygote.
        """
        started = time.monotonic()
        zygote = self._zygotes.get(key)
        if zygote is None:
            zygote, failure = self._start(warm, started)
            if failure is not None:
                return failure
            self._zygotes[key] = zygote
            self._preloaded[key] = set()
        self._jobs += 1
        result = str(self._workdir / f"job-{os.getpid()}-{self._jobs}.json")
        preload = [] if key in self._no_preload else sorted(self._imported.get(key, set()) - self._preloaded[key])
        self._preloaded[key].update(preload)
        request = {"op": "run", "function": job.function, "payload": dict(job.payload), "result": result,
                   "preload": preload, "settle": self.settle}
        try:
            zygote.send(request)
        except OSError:
            self.discard(key)
            return self.run(key, warm, job)  # the zygote went away between jobs: start another
        zygote.job_pid = None
        outcome = self._wait(zygote, started, result)
        if isinstance(outcome, Finished):
            self._imported.setdefault(key, set()).update(outcome.imported)
        if not zygote.alive:
            self._zygotes.pop(key, None)  # it died (killed from outside, or by a preload): the next job starts another
            if zygote.job_pid is None and preload and not isinstance(outcome, Interrupted):
                self._no_preload.add(key)  # what it preloaded killed it, or started a thread: never again
                return self.run(key, warm, job)
        return outcome

    def discard(self, key: str) -> None:
        """Kill ``key``'s zygote (the next job starts a new one)."""
        zygote = self._zygotes.pop(key, None)
        if zygote is not None:
            zygote.kill()

    def close(self) -> None:
        """Ask every zygote to exit, kill those that do not within a grace period, remove the result files."""
        zygotes, self._zygotes = list(self._zygotes.values()), {}
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

    # --- internals -----------------------------------------------------------------------------------------------

    def _start(self, warm: Job, started: float) -> tuple[_Zygote, Failure | None]:
        parent, child = socket.socketpair()
        board = Board()
        _flush_stdio()
        pid = os.fork()
        if pid == 0:
            parent.close()
            _zygote(child, board, warm)
        child.close()
        with contextlib.suppress(OSError):
            os.setpgid(pid, pid)
        zygote = _Zygote(pid, parent, board)
        outcome = self._watch(zygote, pid, started, until="ready")
        if outcome is None or isinstance(outcome, Finished):  # ready (a Finished cannot come before "ready")
            return zygote, None
        zygote.kill()
        return zygote, dataclasses.replace(outcome, stage="warm")

    def _wait(self, zygote: _Zygote, started: float, result: str) -> Outcome:
        outcome = self._watch(zygote, None, started, until="exited", result=result)
        if outcome is None:  # unreachable: _watch returns an outcome for "exited"
            raise RuntimeError("Supervisor job ended without an outcome")
        return outcome

    def _watch(
        self, zygote: _Zygote, pid: int | None, started: float, *, until: str, result: str = ""
    ) -> Outcome | None:
        """Wait for the message ``until``, enforcing the limits on ``pid`` (the process doing the work)."""
        board = zygote.board
        next_memory = 0.0
        starved = _Starvation()
        # A warming zygote also does the suite's own once-per-target work (Hypothesis' caches) between calls.
        idle_limit = max(self.idle_limit, _WARM_IDLE) if until == "ready" else self.idle_limit
        verdict: Outcome | None = None
        try:
            while True:
                messages = zygote.poll(_POLL)
                now = time.monotonic()
                if messages is None:  # the zygote is gone: it died (while warming up, or killed from outside)
                    zygote.alive = False
                    status = self._reap(zygote.pid)
                    return verdict or Died(status, board.read(), now - started)
                for message in messages:
                    if message["op"] == "started":
                        pid = zygote.job_pid = int(message["pid"])
                    elif message["op"] == "ready" and until == "ready":
                        return None
                    elif message["op"] == "exited" and until == "exited":
                        finished = self._finished(board, int(message["status"]), result, now - started)
                        if isinstance(finished, Finished):
                            finished = dataclasses.replace(finished, peak_mib=float(message.get("peak_mib", 0.0)))
                        return verdict or finished
                if verdict is not None or pid is None:
                    continue
                snapshot = board.read()
                limit = snapshot.limit or self.timeout
                if snapshot.active and now - snapshot.started > limit and not starved.excuses(pid, snapshot, limit):
                    verdict = Hung(limit, snapshot, now - started)
                elif not snapshot.active and snapshot.beat and now - snapshot.beat > idle_limit:
                    if not starved.excuses(pid, snapshot, idle_limit):
                        verdict = Hung(idle_limit, snapshot, now - started)
                elif self.memory_cap and now >= next_memory:
                    next_memory = now + _MEMORY_POLL
                    resident = rss(pid)
                    if resident > self.memory_cap:
                        verdict = OverMemory(resident, self.memory_cap, snapshot, now - started)
                if verdict is not None:
                    kill_group(pid)
                    if until == "ready":  # the zygote itself was the culprit
                        return verdict
        except KeyboardInterrupt:
            snapshot = board.read()
            if pid is not None:
                kill_group(pid)
            if until == "ready" or pid is None:
                zygote.kill()
            return Interrupted(snapshot, time.monotonic() - started)

    @staticmethod
    def _reap(pid: int) -> str:
        try:
            _, status, _ = os.wait4(pid, 0)
        except ChildProcessError:
            return "an unknown status (the process was reaped elsewhere)"
        return describe_status(status)

    @staticmethod
    def _finished(board: Board, status: int, result: str, seconds: float) -> Outcome:
        snapshot = board.read()
        path = Path(result)
        crash = Path(f"{result}.crash")
        stacks = ""
        with contextlib.suppress(OSError):
            # The innermost frames come first; the list of extension modules faulthandler ends with is noise.
            stacks = crash.read_text(encoding="utf-8", errors="replace").split("\nExtension modules:")[0]
            stacks = stacks[:_MAX_TRACEBACK]
            crash.unlink()
        data: Mapping[str, JSON] = {}
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}
            finally:
                with contextlib.suppress(OSError):
                    path.unlink()
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 and "value" in data:
            return Finished(data["value"], seconds, tuple(data.get("imported", ())))
        return Died(describe_status(status), snapshot, seconds, str(data.get("internal_error", "")), traceback=stacks)
