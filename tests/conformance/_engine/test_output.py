"""What a target prints is cut to its tail, with a line saying how much was cut (the whole path, a target printing
100 MiB under a real capture: tests/meta/test_hostile.py's flood test), and goes to the item's record as its last
lines, out of the report pytest shows (the whole path: tests/conformance/test_plugin.py)."""

from __future__ import annotations

import os
import tempfile

import pytest

from conformance._engine import output
from conformance._engine.output import LINES, TAIL, bounded, cut, take_output


def test_text_within_the_tail_is_kept_whole() -> None:
    assert cut("x" * 10) == "x" * 10
    trimmed = output.cut_note(5) + "y" * TAIL  # what a phase's trim already kept passes as it is
    assert cut(trimmed) == trimmed


def test_longer_text_keeps_its_tail_after_a_line_saying_how_much_was_cut() -> None:
    text = "a" * (3 * TAIL) + "the end"
    kept = cut(text)
    note, rest = kept.split("\n", 1)
    assert rest == text[-TAIL:] and rest.endswith("the end")
    assert f"the first {2 * TAIL + 7} characters" in note


def test_a_reports_sections_are_cut_and_nothing_else_changes() -> None:
    report = {"nodeid": "x", "sections": [["Captured stdout call", "z" * (2 * TAIL)], ["Captured log", "short"],
                                          "odd"], "longrepr": "kept"}
    found = bounded(report)
    assert found["nodeid"] == "x" and found["longrepr"] == "kept"
    stdout, log, odd = found["sections"]
    assert len(stdout[1]) < TAIL + 200 and stdout[1].endswith("z" * TAIL) and log == ("Captured log", "short")
    assert odd == "odd"
    assert report["sections"][0][1] == "z" * (2 * TAIL)  # the report given is not changed


def test_a_capture_file_is_trimmed_to_its_tail_and_written_on_after_it() -> None:
    with tempfile.TemporaryFile() as handle:
        fd = handle.fileno()
        os.write(fd, b"h" * (5 * TAIL) + b"tail")
        output._trim(fd)
        os.write(fd, b"+next")  # the next phase writes after what was kept, as fd 1 (sharing the offset) does
        kept = os.pread(fd, 10 * TAIL, 0)
    note, rest = kept.split(b"\n", 1)
    assert rest == b"h" * (TAIL - 4) + b"tail+next"
    assert f"the first {4 * TAIL + 4} bytes".encode() in note


def test_a_phases_output_goes_to_the_record_as_its_last_lines_and_leaves_the_report() -> None:
    steps = "".join(f"step {i}\n" for i in range(100))
    sections = [("Captured stdout setup", "built\n"), ("Captured stdout call", steps),
                ("Captured stderr call", "x" * 1000 + "\n"), ("Captured log call", ""), ("conformance", "kept")]
    report = pytest.TestReport("n", ("f", 1, "d"), {}, "failed", None, "call", sections=sections)
    text = take_output(report)
    assert report.sections == [("conformance", "kept")]  # pytest shows none of what the target printed
    lines = text.splitlines()
    assert lines[0] == f"stdout (call, the last {LINES} of 100 lines):"
    assert lines[1:LINES + 1] == [f"step {i}" for i in range(100 - LINES, 100)]
    assert lines[LINES + 1] == "stderr (call):" and lines[LINES + 2] == "x" * 237 + "..."
    assert len(lines) == LINES + 3  # the setup phase's output is the setup report's; an empty log says nothing
