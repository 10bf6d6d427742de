"""Run the conformance suite in a child process and read its JSON report (shared by the meta-tests)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["BASE_ARGS", "REPO", "SuiteRun", "has_xdist", "run_inprocess", "run_suite", "suite_env"]

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class SuiteRun:
    """The outcome of one child run.

    Attributes:
        returncode: pytest's exit code.
        output: stdout and stderr together.
        report: The parsed JSON report.
    """

    returncode: int
    output: str
    report: dict[str, Any]

    def outcomes(self, target: str) -> dict[str, str]:
        """Rule id → outcome for one target."""
        return {r["rule"]: r["outcome"] for r in self.report["results"] if r["target"] == target}

    def result(self, target: str, rule: str) -> dict[str, Any]:
        """The report record of one (target, rule) item."""
        for record in self.report["results"]:
            if record["target"] == target and record["rule"] == rule:
                found: dict[str, Any] = record
                return found
        raise KeyError(f"no result for rule {rule!r} on target {target!r}")


def has_xdist() -> bool:
    """Whether pytest-xdist is importable (then runs may use ``-n``)."""
    return importlib.util.find_spec("xdist") is not None


BASE_ARGS = ("--pyargs", "conformance", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "--tb=short")
"""How the meta-tests call the suite (no cache, no project addopts)."""


_PATIENT_TIMEOUT = "60"


def _patient(args: Sequence[str]) -> list[str]:
    """``args`` with a long call timeout unless they set one: the meta-tests run beside each other on a busy
    machine, where a correct call can stall for seconds, and only the hostile corpus is about hangs."""
    if "--conformance-timeout" in args:
        return list(args)
    return [*args, "--conformance-timeout", _PATIENT_TIMEOUT]


def suite_env(**extra: str) -> dict[str, str]:
    """The environment of a child run: this one, the repository importable, no CONFORMANCE_ENV, plus ``extra``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]), **extra}
    env.pop("CONFORMANCE_ENV", None)
    return env


def run_suite(
    args: Sequence[str], report: Path, *, timeout: float = 600.0, env: Mapping[str, str] | None = None
) -> SuiteRun:
    """Run ``pytest --pyargs conformance ARGS`` with ``--conformance-report REPORT`` in a child process.

    Args:
        args: Extra pytest/conformance arguments (targets, profile, ``-k``...).
        report: Where the child writes its report.
        timeout: Seconds before the child is killed (a hang of the suite itself fails the meta-test).
        env: Extra environment variables for the child.

    Returns:
        The run.
    """
    command = [sys.executable, "-m", "pytest", *BASE_ARGS, "--conformance-report", str(report), *_patient(args)]
    completed = subprocess.run(
        command, cwd=REPO, env=suite_env(**(env or {})), capture_output=True, text=True, timeout=timeout,
        check=False,
    )
    return _read(completed.returncode, completed.stdout + completed.stderr, report)


def run_inprocess(args: Sequence[str], report: Path) -> SuiteRun:
    """Like :func:`run_suite`, but with ``pytest.main`` in this process (no start-up cost).

    Only for targets that cannot hang: an abandoned worker thread would outlive the run in this process.
    """
    import pytest

    code = pytest.main([*BASE_ARGS, "--conformance-report", str(report), *_patient(args)])
    return _read(int(code), "", report)


def _read(returncode: int, output: str, report: Path) -> SuiteRun:
    if not report.exists():
        raise AssertionError(f"the suite wrote no report (exit {returncode}):\n{output[-4000:]}")
    return SuiteRun(returncode, output, json.loads(report.read_text(encoding="utf-8")))
