"""What a target prints is cut to its tail, with a line saying how much was cut (the whole path, a target printing
100 MiB under a real capture: tests/meta/test_hostile.py's flood test)."""

from __future__ import annotations

import os
import tempfile

from conformance._engine import output
from conformance._engine.output import TAIL, bounded, cut


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
