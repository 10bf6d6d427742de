"""The supervised processes' side channels: process hygiene (dying with the parent, finding, killing and measuring
descendants) and the progress board each process writes.

**Process hygiene.** Process hygiene for supervision: dying with the parent, finding and killing descendants, reading
their usage.

Linux gives the precise tools (``prctl``, ``/proc``); elsewhere the functions degrade to what POSIX offers (process
groups) and report nothing they cannot know.

**The progress board.** The progress board: a few hundred bytes of shared memory saying what a supervised process is
doing right now.

The supervising pytest process creates one board per target before it forks the target's processes; they inherit
the mapping. The process under supervision writes to it through :class:`BoardGuard` around every call into the
target (:meth:`Board.begin` / :meth:`Board.end`), and the supervisor reads it (:meth:`Board.read`) while it waits,
so it can tell a call that has run too long from the suite's own work, and can name the call in progress when the
process dies, hangs or grows too large — without a message ever having to leave a process that is stuck.

Writes and reads go through a sequence counter (a seqlock): the writer makes it odd while it writes and even after;
a reader retries a read that saw an odd or a changed counter. A read that still tears after a few tries (only
possible if the writer dies mid-write) returns what it saw; the worst outcome is a garbled label in a message.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import mmap
import os
import signal
import struct
import sys
import threading
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import TypeVar

from conformance._engine.watchdog import CallLimits, call_shape, kind_of

__all__ = [
    "Board",
    "BoardGuard",
    "PR_SET_CHILD_SUBREAPER",
    "Snapshot",
    "children",
    "cpu_and_state",
    "current_board",
    "describe_status",
    "die_with_parent",
    "kill_descendants",
    "kill_group",
    "kill_tree",
    "open_fds",
    "peak_mib",
    "prctl",
    "reset_peak",
    "rss",
    "tasks",
    "tracked",
    "tree_usage",
]


# --- Process hygiene -----------------------------------------------------------------------------------------------

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
_REAP_SECONDS = 2.0


def describe_status(status: int) -> str:
    """A ``waitpid`` status as ``"SIGABRT"`` or ``"exit code 3"``."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            return signal.Signals(number).name
        except ValueError:
            return f"signal {number}"
    return f"exit code {os.WEXITSTATUS(status)}"


@functools.cache
def _libc() -> ctypes.CDLL | None:
    # Looked up once per process tree: find_library runs ldconfig in a subprocess, milliseconds a job otherwise
    # (zygotes and jobs inherit the handle).
    try:
        return ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    except OSError:
        return None


def prctl(option: int, value: int) -> None:
    if not sys.platform.startswith("linux"):
        return
    libc = _libc()
    try:
        if libc is not None:
            libc.prctl(option, value, 0, 0, 0)
    except AttributeError:  # no prctl to call: the process-group cleanup still applies
        return


def die_with_parent() -> None:
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


_CHILDREN_LISTS = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def children(pid: int) -> list[int]:
    """The live children of ``pid`` (from Linux ``/proc``; empty elsewhere or when ``pid`` is gone)."""
    if _CHILDREN_LISTS:
        found: list[int] = []
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children", "rb") as listing:
                    found += [int(child) for child in listing.read().split()]
        except OSError:
            pass  # the process (or a thread) ended while listing: what was found is what there is
        return found
    return _scan_children(pid)


def _scan_children(pid: int) -> list[int]:
    """:func:`children` for kernels without per-task children lists: read every process's parent."""
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def _signal_descendants(pid: int, spare: Collection[int] = ()) -> None:
    for child in children(pid):
        if child in spare:
            continue
        # Frozen first, so it cannot fork another escapee (a session of its own) while its children are listed.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGSTOP)
        _signal_descendants(child)
        kill_group(child)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGKILL)


def kill_tree(pid: int) -> None:
    """Kill ``pid``'s process group and every process below ``pid`` (and the groups they lead); ``pid``'s parent
    reaps it.

    A zygote is a subreaper: what its jobs and its own warm-up left behind, even in sessions of their own, are its
    children while it lives. Killing it alone would orphan them to init, out of the suite's reach.
    """
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGSTOP)  # a zygote still warming up may be forking: not while its tree is walked
    _signal_descendants(pid)
    kill_group(pid)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)


def kill_descendants(pid: int, spare: Collection[int] = ()) -> None:
    """Kill every process below this one (``pid``), and the process groups they lead, and reap them; the children
    in ``spare`` (a zygote's clones) and what is below them are left alone.

    Killed processes die asynchronously, and the orphans among them are adopted by this process (a subreaper) as
    they die: reap until no child but the spared ones is left, for at most :data:`_REAP_SECONDS`.
    """
    _signal_descendants(pid, spare)
    deadline = time.monotonic() + _REAP_SECONDS
    while True:
        try:
            reaped, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # no child left
        if reaped == 0:
            if spare and not set(children(pid)) - set(spare):
                return  # only spared children left (alive, or dead and waiting to be reaped at the next pass)
            if time.monotonic() > deadline:
                return
            _signal_descendants(pid, spare)  # adopted since the last pass
            time.sleep(0.002)


def cpu_and_state(pid: int) -> tuple[float, str]:
    """CPU seconds ``pid`` has used and its scheduler state (``"R"`` runnable, ``"S"`` sleeping...)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0, ""
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks, fields[0].decode()


def _task_states(pid: int) -> list[str]:
    """The scheduler state of each thread of ``pid`` (empty when it is gone or there is no ``/proc``)."""
    states: list[str] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/stat", "rb") as stat:
                states.append(stat.read().rsplit(b")", 1)[1].split()[0].decode())
    except (OSError, IndexError):
        pass  # the process (or a thread) ended while listing: what was found is what there is
    return states


def tree_usage(pid: int) -> tuple[float, bool]:
    """CPU seconds ``pid`` and its descendants have used, and whether any thread of them is runnable (waiting for a
    CPU, ``R``, or in the kernel, ``D``): a process waiting for the child or the thread that does its work is as
    starved as that one is."""
    cpu, runnable = 0.0, False
    pending, seen = [pid], set[int]()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        used, _ = cpu_and_state(current)
        cpu += used
        runnable = runnable or any(state in ("R", "D") for state in _task_states(current))
        pending += children(current)
    return cpu, runnable


def open_fds() -> set[str]:
    """This process's open file descriptors (empty where that cannot be read): what a call left open shows as new."""
    try:
        return set(os.listdir("/proc/self/fd"))
    except OSError:
        return set()


def tasks() -> int:
    """How many threads this process has, native ones included (those Python's ``threading`` never sees)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def reset_peak() -> bool:
    """Start this process's peak-memory mark afresh (Linux: ``clear_refs``); whether it could."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
    except OSError:
        return False
    return True


def peak_mib() -> float | None:
    """This process's peak resident memory since :func:`reset_peak` (or its start), in MiB (``None`` when
    unknown)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def rss(pid: int) -> int:
    """Resident memory of ``pid`` in bytes (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# --- The progress board --------------------------------------------------------------------------------------------

T = TypeVar("T")

# seq, pid, depth, started, beat, call count, the active call's own time limit (0: the default), then text fields.
_HEAD = struct.Struct("<QiIddQd")
_SEQ = struct.Struct("<Q")
_METHOD = 32
_MODE = 24
_LABEL = 200
_NOTE = 200
_SHAPE = 160
_SIZE = _HEAD.size + _METHOD + _MODE + _LABEL + _NOTE + _SHAPE
_READ_TRIES = 5


@dataclass(frozen=True)
class Snapshot:
    """What a board said at one moment.

    Attributes:
        pid: The process that last wrote it (0 before any write).
        active: Whether a call into the target is in progress.
        started: ``time.monotonic()`` when that call started (0.0 when none is).
        beat: ``time.monotonic()`` of the last call start or end (progress of any kind).
        calls: How many calls into the target the process has started.
        method: The method of the call in progress or last made (``"step"``, ``"render"``, ``"construct"``...).
        mode: The render mode of the instance it was made on (``""`` when none was given).
        label: The call, e.g. ``"env.step"``.
        note: Free text the process left for the supervisor (the example's seed, an exit it is about to make).
        limit: The time limit of the call in progress, in seconds (0.0: the supervisor's own timeout).
        shape: The shape of the call in progress or last made (:func:`~conformance._engine.watchdog.call_shape`;
            ``""`` when it was made without one).
    """

    pid: int
    active: bool
    started: float
    beat: float
    calls: int
    method: str
    mode: str
    label: str
    note: str
    limit: float = 0.0
    shape: str = ""


_CURRENT: list[Board] = []


def current_board() -> Board | None:
    """The board this process reports on (``None`` outside a supervised process)."""
    return _CURRENT[-1] if _CURRENT else None


def tracked(label: str, fn: Callable[[], T], method: str = "", limit: float = 0.0) -> T:
    """Call ``fn`` as a call into the target on this process's board (plainly when there is none).

    For code with no :class:`~conformance._engine.case.Case` at hand — strategies drawing from a target's
    space — so its calls are timed like every other one.
    """
    board = current_board()
    if board is None:
        return fn()
    kind = method or label.rsplit(".", 1)[-1]
    if board.limits is not None:
        board.limits.admit(kind)  # a kind of call that hung earlier in the run is refused at once here too
    board.begin(label, kind, "", limit, kind)
    try:
        return fn()
    finally:
        board.end()


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "replace")


def _field(text: str, width: int) -> bytes:
    return text.encode("utf-8", "replace")[:width].ljust(width, b"\0")


class Board:
    """A shared-memory progress record (create it in the supervisor, before forking).

    Args:
        memory: An existing mapping to use (tests); a new anonymous shared mapping when ``None``.
    """

    def __init__(self, memory: mmap.mmap | None = None) -> None:
        self._memory = memory if memory is not None else mmap.mmap(-1, _SIZE)
        self._seq = 0
        self._pid = 0
        self._depth = 0
        self._calls = 0
        self._started = 0.0
        self._beat = 0.0
        self._limit = 0.0
        self._last = ("", "", "", "")
        self._cache: dict[tuple[str, int], bytes] = {}
        self.limits: CallLimits | None = None
        """The call limits of the guard that writes on this board (:func:`tracked` refuses what they refuse)."""

    # --- the writer (the supervised process) -------------------------------------------------------------------

    def adopt(self, other: Board) -> None:
        """Write on ``other``'s shared memory from now on (a zygote's clone takes over a board of its own); every
        reference to this board (its guard, :func:`current_board`) follows."""
        self._memory = other._memory  # noqa: SLF001 - the same class

    def install(self) -> None:
        """Make this the board of the current process (:func:`current_board`); called once, after the fork."""
        _CURRENT[:] = [self]

    def reset(self, pid: int) -> None:
        """Claim the board for process ``pid``: nothing active, progress now, no note."""
        self._pid, self._depth, self._calls, self._last = pid, 0, 0, ("", "", "", "")
        self._started, self._beat, self._limit = 0.0, time.monotonic(), 0.0
        self._write(("", _METHOD), ("", _MODE), ("", _LABEL), ("", _NOTE), ("", _SHAPE))

    def begin(self, label: str, method: str, mode: str, limit: float = 0.0, shape: str = "") -> None:
        """Record the start of a call (a call nested in one in progress is not timed on its own).

        Args:
            label: The call, e.g. ``"env.step"``.
            method: The kind of call (``"step"``, ``"construct"``...), which decides the rule that owns a crash.
            mode: The render mode of the instance called (``""`` for none).
            limit: Seconds this call may take, when it differs from the supervisor's timeout (0.0: the timeout).
            shape: Its shape (:func:`~conformance._engine.watchdog.call_shape`; ``""``: its kind), which a hang of
                it ends the calls of.
        """
        self._depth += 1
        if self._depth == 1:
            self._calls += 1
            self._limit = limit
            self._started = self._beat = time.monotonic()
            if (method, mode, label, shape) == self._last:
                self._write()  # the common case (a run of steps): only the times change
            else:
                self._last = (method, mode, label, shape)
                self._write((method, _METHOD), (mode, _MODE), (label, _LABEL), (None, _NOTE), (shape, _SHAPE))

    def end(self) -> None:
        """Record the end of a call begun with :meth:`begin`."""
        self._depth = max(0, self._depth - 1)
        if self._depth == 0:
            self._started, self._beat, self._limit = 0.0, time.monotonic(), 0.0
            self._write()

    def note(self, text: str) -> None:
        """Leave free text for the supervisor (kept until the next :meth:`note` or :meth:`reset`); counts as
        progress."""
        if self._depth == 0:
            self._beat = time.monotonic()
        self._write((None, _METHOD), (None, _MODE), (None, _LABEL), (text, _NOTE))

    def _encoded(self, text: str, width: int) -> bytes:
        key = (text, width)
        found = self._cache.get(key)
        if found is None:
            found = _field(text, width)
            if len(self._cache) < 256:  # labels repeat; a bounded cache keeps hostile labels from growing it
                self._cache[key] = found
        return found

    def _write(self, *fields: tuple[str | None, int]) -> None:
        """Write the head and, in order from the first text field, the given texts (``None`` keeps one)."""
        memory = self._memory
        self._seq += 1  # odd: a write is under way
        _HEAD.pack_into(
            memory, 0, self._seq, self._pid, self._depth, self._started, self._beat, self._calls, self._limit
        )
        offset = _HEAD.size
        for text, width in fields:
            if text is not None:
                memory[offset : offset + width] = self._encoded(text, width)
            offset += width
        self._seq += 1
        _SEQ.pack_into(memory, 0, self._seq)

    # --- the reader (the supervisor) --------------------------------------------------------------------------

    def read(self) -> Snapshot:
        """A consistent snapshot of the board (see the module docstring for what "consistent" can mean)."""
        memory = self._memory
        raw = b""
        for _ in range(_READ_TRIES):
            before = _SEQ.unpack_from(memory, 0)[0]
            raw = bytes(memory[:_SIZE])
            after = _SEQ.unpack_from(memory, 0)[0]
            if before == after and before % 2 == 0:
                break
        _, pid, depth, started, beat, calls, limit = _HEAD.unpack_from(raw, 0)
        offset = _HEAD.size
        texts: list[str] = []
        for width in (_METHOD, _MODE, _LABEL, _NOTE, _SHAPE):
            texts.append(_text(raw[offset : offset + width]))
            offset += width
        method, mode, label, note, shape = texts
        return Snapshot(pid, depth > 0, started, beat, calls, method, mode, label, note, limit, shape)


class BoardGuard:
    """Runs calls into the target in the calling thread and records them on a :class:`Board`.

    The supervised process uses it in place of the thread watchdog: nothing here times out, because the
    supervisor, reading the board, kills the whole process when a call runs too long.

    Args:
        board: The process's board.
        timeout: The per-call timeout the supervisor enforces (for messages and budgets).
    """

    def __init__(self, board: Board, timeout: float) -> None:
        self.board = board
        self.timeout = timeout
        self.limits = CallLimits(timeout)
        board.limits = self.limits

    def call(
        self, label: str, fn: Callable[[], T], *, method: str = "", mode: str = "", limit: float = 0.0,
        arguments: Mapping[str, object] | None = None, beside: bool = False,
    ) -> T:
        """Call ``fn`` with ``label`` on the board as the call in progress (see :meth:`Board.begin`), under the
        limit its shape earned (:class:`~conformance._engine.watchdog.CallLimits`) unless ``limit`` is given; a
        call of a shape that hung earlier in the run is refused
        (:class:`~conformance._engine.watchdog.HungEarlier`)."""
        method = method or label.rsplit(".", 1)[-1]
        shape = call_shape(kind_of(method, label, mode), mode, arguments, beside=beside)
        self.limits.admit(shape)
        self.board.begin(label, method, mode, limit or self.limits.limit(shape), shape)
        started = time.monotonic()
        try:
            result = fn()
        finally:
            self.board.end()
        self.limits.took(shape, time.monotonic() - started)
        return result

    def run(self, body: Callable[[], T]) -> T:
        """Run ``body`` here (calls inside it go through :meth:`call`)."""
        return body()

    def in_worker(self) -> bool:
        """Always true: there is no separate worker thread to hand bodies to."""
        return True

    def shutdown(self) -> None:
        """Nothing to release."""
