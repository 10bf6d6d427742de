"""What a target prints: kept out of the pytest process, and cut to its last :data:`TAIL` bytes per item phase.

Every process the supervisor forks inherits the pytest process's standard output and error, and pytest's capture
files with them (``--capture=fd``, the default: fd 1 and 2 point at one temporary file while a test runs, which pytest
reads whole at the end of each phase). A job process runs its items under that same capture, so what a target printed
there landed in a file the pytest process shares, was read whole by the job (a target printing 100 MB in its first
step made its items' reports 100 MB each, the job processes outgrow the memory cap and the pytest process reach
gigabytes) and what it printed outside an item (its warm-up, the shared rollouts) went straight to the terminal.

So, in each forked process (:func:`private`, at the start of each job): pytest's capture file and the standard streams
it restores between phases become files of this process's own; after each phase of an item, before pytest reads the
capture (:class:`Tail`, a hook wrapper inside pytest's), what the phase printed is cut to its last :data:`TAIL`
bytes, after a line saying how much was cut; the reports' captured sections are cut the same way before they leave
the job (:func:`bounded`, for a capture that is not pytest's fd capture). What a target prints outside an item goes
to a file of the process's own that nobody reads, emptied at each job's start. Under ``-s`` (no capture) nothing is
redirected: the output goes where the user asked, never through the pytest process.

What an item's phase printed (pytest's captured stdout, stderr and log) is the target's, never the suite's: it goes to
the item's record, each stream's last :data:`LINES` lines (:func:`take_output`), and the report pytest shows keeps none
of it, so a target that prints on every step does not flood the terminal with its failing items' output.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Generator, Mapping
from typing import Any, TypeAlias

import pytest

from conformance._engine.describe import is_list_or_tuple

__all__ = ["LINES", "TAIL", "Tail", "bounded", "cut", "cut_note", "private", "take_output"]

_JSON: TypeAlias = Any  # a serialized report, as pytest_report_to_serializable makes it

TAIL = 64 << 10
"""Bytes of what a target printed in one phase of an item (and characters of a report's captured section) kept."""

_NOTE_ROOM = 160  # characters a cut note takes, at most
_PID: list[int] = []  # the process whose files these are (a forked child makes its own)
_CAPTURES: list[int] = []  # pytest's capture files (the fds its capture reads), private to this process
_OUTSIDE: list[int] = []  # where fd 1 and 2 point between phases, private to this process


def _private_file(fd: int) -> None:
    """Point ``fd`` at a new temporary file of this process's own (unlinked: it goes when the process does)."""
    fresh = tempfile.TemporaryFile()  # noqa: SIM115 - its descriptor is copied below, then closed
    try:
        os.dup2(fresh.fileno(), fd)
    finally:
        fresh.close()


def _same(first: int, second: int) -> bool:
    try:
        one, other = os.fstat(first), os.fstat(second)
    except OSError:
        return False
    return (one.st_dev, one.st_ino) == (other.st_dev, other.st_ino)


def private(config: pytest.Config) -> None:
    """In a process forked from the pytest process, at the start of each job: make pytest's capture files, and the
    standard streams it restores between phases, files of this process's own (once per process), and empty the one
    that receives what a target prints outside an item. Nothing changes without pytest's fd capture."""
    if _PID != [os.getpid()]:
        _PID[:] = [os.getpid()]
        _CAPTURES.clear()
        _OUTSIDE.clear()
        capman = config.pluginmanager.getplugin("capturemanager")
        # pytest keeps its fd capture's state on a private attribute; if that ever moves, nothing is redirected and
        # bounded() still cuts what reaches the reports.
        capturing = getattr(capman, "_global_capturing", None)
        for name, stream in (("out", 1), ("err", 2)):
            capture: object = getattr(capturing, name, None)
            saved: object = getattr(capture, "targetfd_save", None)
            fileno: object = getattr(getattr(capture, "tmpfile", None), "fileno", None)
            if not isinstance(saved, int) or not callable(fileno):
                continue  # not an fd capture (sys, tee-sys): what it holds is cut by bounded()
            try:
                captured = fileno()
            except (OSError, ValueError):
                continue
            if not isinstance(captured, int):
                continue
            capturing_now = _same(stream, captured)
            _private_file(captured)
            _private_file(saved)
            os.dup2(captured if capturing_now else saved, stream)
            _CAPTURES.append(captured)
            _OUTSIDE.append(saved)
    for fd in _OUTSIDE:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)  # shared with fd 1 or 2 when they point there: both write from the start


def _trim(fd: int) -> None:
    """Keep the last :data:`TAIL` bytes of the capture file ``fd``, after a line saying how much was cut."""
    size = os.fstat(fd).st_size
    if size <= TAIL:
        return
    tail = os.pread(fd, TAIL, size - TAIL)
    kept = cut_note(size - TAIL).encode("utf-8") + tail
    os.ftruncate(fd, 0)
    os.pwrite(fd, kept, 0)
    os.lseek(fd, len(kept), os.SEEK_SET)  # where the next phase's output goes (fd 1 shares this offset)


def cut_note(cut_bytes: int) -> str:
    """The line that replaces what was cut of a target's output."""
    return (f"[conformance: the first {cut_bytes} bytes the target printed here were cut; "
            f"the last {TAIL} follow]\n")


class Tail:
    """A pytest plugin for job processes: after each phase of an item, cut what the target printed during it to its
    last :data:`TAIL` bytes before pytest's capture reads it (``trylast``: inside pytest's own capture wrapper)."""

    @staticmethod
    def _trimmed() -> None:
        for fd in _CAPTURES:
            with contextlib.suppress(OSError):
                _trim(fd)

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_setup(self) -> Generator[None, None, None]:
        try:
            return (yield)
        finally:
            self._trimmed()

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_call(self) -> Generator[None, None, None]:
        try:
            return (yield)
        finally:
            self._trimmed()

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_teardown(self) -> Generator[None, None, None]:
        try:
            return (yield)
        finally:
            self._trimmed()


def cut(text: str) -> str:
    """``text`` (a captured section) cut to its last :data:`TAIL` characters, after a line saying how much was cut."""
    if len(text) <= TAIL + _NOTE_ROOM:  # what a phase's trim kept (its note and its tail) passes as it is
        return text
    return cut_note(len(text) - TAIL).replace("bytes", "characters") + text[-TAIL:]


def _section(section: _JSON) -> _JSON:
    """A report section ``(title, text)`` with its text cut (anything else as it is)."""
    if is_list_or_tuple(section) and len(section) == 2 and isinstance(section[1], str):
        return (section[0], cut(section[1]))
    return section


def bounded(report: Mapping[str, _JSON]) -> dict[str, _JSON]:
    """A serialized report whose captured sections hold at most :data:`TAIL` characters each."""
    found = dict(report)
    sections = found.get("sections")
    if is_list_or_tuple(sections):
        found["sections"] = [_section(section) for section in sections]
    return found


LINES = 20
"""Lines of each stream a target printed in one phase of an item that its record keeps (the last ones)."""

_LINE_WIDTH = 240  # characters of one such line kept (a target may print one line of megabytes)
_STREAMS = ("stdout", "stderr", "log")


def _stream(title: str) -> tuple[str, str] | None:
    """The stream and phase of one of pytest's captured sections (``"Captured stdout call"``), ``None`` for others."""
    words = title.split()
    if len(words) == 3 and words[0] == "Captured" and words[1] in _STREAMS:
        return words[1], words[2]
    return None


def _short(line: str) -> str:
    return line if len(line) <= _LINE_WIDTH else line[:_LINE_WIDTH - 3] + "..."


def take_output(report: pytest.TestReport) -> str:
    """What the target printed in the phase ``report`` is of: each stream's last :data:`LINES` lines, after a line
    naming the stream and the phase (and how many lines there were, when some were left out); ``""`` when it printed
    nothing. The report loses its captured stdout, stderr and log sections (of every phase so far, which their own
    reports took): pytest shows a report's sections on the terminal."""
    parts: list[str] = []
    kept: list[tuple[str, str]] = []
    for title, text in report.sections:
        found = _stream(title)
        if found is None:
            kept.append((title, text))
            continue
        stream, when = found
        lines = text.rstrip("\n").splitlines()
        if when != report.when or not lines:
            continue
        tail = [_short(line) for line in lines[-LINES:]]
        count = f", the last {len(tail)} of {len(lines)} lines" if len(tail) < len(lines) else ""
        parts.append(f"{stream} ({when}{count}):\n" + "\n".join(tail))
    report.sections = kept
    return "\n".join(parts)
