"""Project plumbing: README's commands are what CI runs, and every package ships its py.typed marker."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    blocks = re.findall(r"```bash\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    return [line for block in blocks for line in block.splitlines() if line.startswith("pip install")]


SUITE_COMMAND = 'pip install -e ".[conformance]" && pytest --pyargs conformance'
TEST_COMMAND = 'pip install -e ".[test]" && python -m pytest -m "not slow" -n 2'


def test_readme_has_the_two_commands() -> None:
    commands = _readme_commands()
    assert SUITE_COMMAND in commands and TEST_COMMAND in commands, commands


def test_readme_says_what_the_test_command_leaves_out() -> None:
    """The test command deselects the ``slow`` marker; README says so, and how to run what it leaves out."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "What the test command leaves out is marked `slow` and runs with `python -m pytest -m slow -n 2`" in readme
    assert '-m "not slow"' in TEST_COMMAND
    assert any(marker.startswith("slow:") for marker in _pyproject_markers())


def _pyproject_markers() -> list[str]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    block = text[text.index("markers = [") : text.index("]", text.index("markers = ["))]
    return re.findall(r'"([^"]+)"', block)


def test_ci_runs_exactly_the_readme_test_command() -> None:
    test_command = next(c for c in _readme_commands() if "python -m pytest" in c)
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert test_command in ci_lines


def test_ci_runs_exactly_the_readme_first_command_with_only_its_extra() -> None:
    first = next(c for c in _readme_commands() if "pytest --pyargs conformance" in c)
    assert '".[conformance]"' in first
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert first in ci_lines
    # In a virtualenv of its own: after the test extra's environment is left, and after a fresh one is made.
    at = ci_lines.index(first)
    assert "deactivate" in ci_lines[:at]
    assert any(line.startswith("python3 -m venv") for line in ci_lines[ci_lines.index("deactivate") : at])


def test_the_suite_runs_without_xdist_under_strict_markers(tmp_path: Path) -> None:
    """A user project with ``--strict-markers`` and no pytest-xdist: the suite must not mark items for xdist."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "pytest", "--strict-markers", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", "--pyargs",
               "conformance", "--env", "tests.meta.broken._base:Walk", "--rules", "ENV-001"]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.rstrip().splitlines()[-1].startswith("2 passed, ")


@pytest.mark.parametrize("package", ["gymspec", "reference", "conformance"])
def test_package_is_typed(package: str) -> None:
    assert (ROOT / package / "py.typed").is_file()
