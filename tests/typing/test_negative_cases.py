"""Every negative typing case is rejected by mypy and by pyright, for the reason it is there for.

``negative/cases.py`` tags each assignment that must fail with ``# rejects: <member>[, <member>...]``. This test
type-checks that file alone with each checker and requires, for every tagged line, an error on that line whose
explanation names each member (mypy: in the notes under the error; pyright: quoted in its message), so a case
cannot pass by being rejected for some unrelated mistake. ``[mypy names none]`` exempts mypy from naming (see the
cases' docstring); it must still reject the line. ``[pyright names <member>]`` holds pyright to naming that member
instead of the listed ones (the ``action_space``/``step`` tie, which each checker checks on its own side). A case is
an assignment (mypy's ``[assignment]``) or a call (``[arg-type]``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.typing._checkers import Diagnostic, pyright_executable, run_mypy, run_pyright, write_pyright_config

CASES = Path(__file__).with_name("negative") / "cases.py"
_TAG = re.compile(
    r"#\s*rejects:\s*(?P<members>\w+(?:\s*,\s*\w+)*)\s*"
    r"(?:(?P<exempt>\[mypy names none\])|\[pyright names (?P<pyright>\w+)\])?\s*$"
)


@dataclass(frozen=True)
class _Tag:
    """What one tagged line must be rejected for."""

    members: tuple[str, ...]
    mypy_names_none: bool = False
    pyright_members: tuple[str, ...] = ()

    @property
    def id(self) -> str:
        return "-".join(self.members)


def _expected() -> dict[int, _Tag]:
    tagged: dict[int, _Tag] = {}
    for number, line in enumerate(CASES.read_text().splitlines(), start=1):
        match = _TAG.search(line)
        if match is not None:
            members = tuple(member.strip() for member in match["members"].split(","))
            pyright = (match["pyright"],) if match["pyright"] else members
            tagged[number] = _Tag(members, match["exempt"] is not None, pyright)
    return tagged


def _by_line(found: list[Diagnostic]) -> dict[int, list[Diagnostic]]:
    by_line: dict[int, list[Diagnostic]] = {}
    for diagnostic in found:
        if diagnostic.path.endswith("cases.py"):
            by_line.setdefault(diagnostic.line, []).append(diagnostic)
    return by_line


@pytest.fixture(scope="module")
def mypy_diagnostics() -> dict[int, list[Diagnostic]]:
    _, _, found = run_mypy([CASES])
    return _by_line(found)


@pytest.fixture(scope="module")
def pyright_diagnostics(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[Diagnostic]]:
    if pyright_executable() is None:
        pytest.skip("pyright is not installed: pip install -e '.[test]' brings basedpyright")
    config = write_pyright_config(tmp_path_factory.mktemp("pyright"), [CASES])
    _, output, found = run_pyright(config)
    assert '"summary"' in output, output[-3000:]
    return _by_line(found)


_CASES = sorted(_expected().items())


_IDS = [f"line{line}-{tag.id}" for line, tag in _CASES]


@pytest.mark.parametrize(("line", "tag"), _CASES, ids=_IDS)
def test_mypy_rejects_case_because_of_member(
    mypy_diagnostics: dict[int, list[Diagnostic]], line: int, tag: _Tag
) -> None:
    found = mypy_diagnostics.get(line, [])
    errors = [d.text for d in found if d.kind == "error"]
    rejected = any(text.endswith(("[assignment]", "[arg-type]")) for text in errors)
    assert rejected, f"line {line} was accepted by mypy: {found}"
    if tag.mypy_names_none:
        return
    notes = " ".join(d.text for d in found if d.kind == "note")
    for member in tag.members:
        assert re.search(rf"\b{member}\b", notes), f"line {line} was rejected, but not because of {member!r}: {notes}"


@pytest.mark.parametrize(("line", "tag"), _CASES, ids=_IDS)
def test_pyright_rejects_case_because_of_member(
    pyright_diagnostics: dict[int, list[Diagnostic]], line: int, tag: _Tag
) -> None:
    found = pyright_diagnostics.get(line, [])
    assert found, f"line {line} was accepted by pyright"
    message = "\n".join(d.text for d in found)
    for member in tag.pyright_members:
        assert f'"{member}"' in message, f"line {line} was rejected, but not because of {member!r}:\n{message}"


def test_mypy_rejects_only_tagged_lines(mypy_diagnostics: dict[int, list[Diagnostic]]) -> None:
    errors = {line for line, found in mypy_diagnostics.items() if any(d.kind == "error" for d in found)}
    assert errors == set(_expected()), "an untagged line of negative/cases.py has a mypy error"


def test_pyright_rejects_only_tagged_lines(pyright_diagnostics: dict[int, list[Diagnostic]]) -> None:
    assert set(pyright_diagnostics) == set(_expected()), "an untagged line of negative/cases.py has a pyright error"


def test_there_are_cases() -> None:
    assert len(_expected()) >= 30
