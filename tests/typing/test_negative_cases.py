"""Every negative typing case is rejected by mypy, for the reason it is there for.

``negative/cases.py`` tags each assignment that must fail with ``# rejects: <member>``. This test type-checks that
file alone and requires, for every tagged line, an ``[assignment]`` error on that line whose notes name the member —
so a case cannot pass by being rejected for some unrelated mistake.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = Path(__file__).with_name("negative") / "cases.py"
_TAG = re.compile(r"#\s*rejects:\s*(?P<member>\w+)")
_DIAG = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): (?P<kind>error|note): (?P<text>.*)$")


def _expected() -> dict[int, str]:
    tagged: dict[int, str] = {}
    for number, line in enumerate(CASES.read_text().splitlines(), start=1):
        match = _TAG.search(line)
        if match is not None:
            tagged[number] = match["member"]
    return tagged


@pytest.fixture(scope="module")
def diagnostics() -> dict[int, list[tuple[str, str]]]:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypy.ini"), "--no-error-summary", str(CASES)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    by_line: dict[int, list[tuple[str, str]]] = {}
    for raw in result.stdout.splitlines():
        match = _DIAG.match(raw)
        if match is not None and match["path"].endswith("cases.py"):
            by_line.setdefault(int(match["line"]), []).append((match["kind"], match["text"]))
    return by_line


@pytest.mark.parametrize(("line", "member"), sorted(_expected().items()))
def test_case_is_rejected_because_of_member(
    diagnostics: dict[int, list[tuple[str, str]]], line: int, member: str
) -> None:
    found = diagnostics.get(line, [])
    errors = [text for kind, text in found if kind == "error"]
    assert any(text.endswith("[assignment]") for text in errors), f"line {line} was accepted by mypy: {found}"
    notes = " ".join(text for kind, text in found if kind == "note")
    assert re.search(rf"\b{member}\b", notes), f"line {line} was rejected, but not because of {member!r}: {notes}"


def test_only_tagged_lines_are_rejected(diagnostics: dict[int, list[tuple[str, str]]]) -> None:
    errors = {line for line, found in diagnostics.items() if any(kind == "error" for kind, _ in found)}
    assert errors == set(_expected()), "an untagged line of negative/cases.py has a type error"


def test_there_are_cases() -> None:
    assert len(_expected()) >= 10
