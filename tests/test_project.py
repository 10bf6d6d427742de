"""Project plumbing: README's commands are what CI runs, and every package ships its py.typed marker."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return [line for block in blocks for line in block.splitlines() if line.startswith("pip install")]


def test_readme_has_the_two_commands() -> None:
    commands = _readme_commands()
    assert any("pytest --pyargs conformance" in c for c in commands)
    assert any("python -m pytest" in c for c in commands)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test_command = next(c for c in _readme_commands() if "python -m pytest" in c)
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test_command in ci_lines


@pytest.mark.parametrize("package", ["gymspec", "reference", "conformance"])
def test_package_is_typed(package: str) -> None:
    assert (ROOT / package / "py.typed").is_file()
