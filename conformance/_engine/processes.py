"""Process hygiene for supervision: dying with the parent, finding and killing descendants, reading their usage.

Linux gives the precise tools (``prctl``, ``/proc``); elsewhere the functions degrade to what POSIX offers (process
groups) and report nothing they cannot know.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import os
import signal
import sys
import time

__all__ = [
    "PR_SET_CHILD_SUBREAPER",
    "children",
    "cpu_and_state",
    "describe_status",
    "die_with_parent",
    "kill_descendants",
    "kill_group",
    "kill_tree",
    "prctl",
    "rss",
]

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


def _signal_descendants(pid: int) -> None:
    for child in children(pid):
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


def kill_descendants(pid: int) -> None:
    """Kill every process below this one (``pid``), and the process groups they lead, and reap them.

    Killed processes die asynchronously, and the orphans among them are adopted by this process (a subreaper) as
    they die: reap until no child is left, for at most :data:`_REAP_SECONDS`.
    """
    _signal_descendants(pid)
    deadline = time.monotonic() + _REAP_SECONDS
    while True:
        try:
            reaped, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return  # no child left
        if reaped == 0:
            if time.monotonic() > deadline:
                return
            _signal_descendants(pid)  # adopted since the last pass
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


def rss(pid: int) -> int:
    """Resident memory of ``pid`` in bytes (0 when unknown)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0
