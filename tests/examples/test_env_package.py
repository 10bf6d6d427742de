"""The example env package adopts the suite: with no flags, ``pytest --pyargs conformance`` in it passes with its one
accepted finding, fails when a new defect enters the env, and reports a fixed finding when one is removed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conformance._engine.test_artifacts import parse_report
from tests.meta._run import REPO, suite_env

PACKAGE = REPO / "examples" / "env_package"
TARGET = "thermostat.envs:ThermostatEnv"
_ENV_FILE = Path("thermostat") / "envs.py"


def _project(tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("conformance-report.html*", "__pycache__"))
    return copy


def _patch(project: Path, old: str, new: str) -> None:
    path = project / _ENV_FILE
    text = path.read_text(encoding="utf-8")
    assert old in text, f"the example env no longer has {old!r}: update this test with it"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _run(project: Path, *args: str) -> tuple[int, str, dict[str, Any]]:
    env = suite_env()
    env["PYTHONPATH"] = os.pathsep.join([str(project), env["PYTHONPATH"]])
    report = project / "report.json"
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "--pyargs", "conformance", "-p", "no:cacheprovider",
         "--conformance-report", str(report), *args],
        cwd=project, env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    output = completed.stdout + completed.stderr
    assert report.exists(), output[-3000:]
    return completed.returncode, output, json.loads(report.read_text(encoding="utf-8"))


def _outcomes(report: dict[str, Any]) -> dict[str, str]:
    return {r["rule"]: r["outcome"] for r in report["results"] if r["target"] == TARGET}


def test_passes_with_no_flags_and_its_finding_accepted(tmp_path: Path) -> None:
    project = _project(tmp_path)
    code, output, report = _run(project)
    assert code == 0, output[-3000:]
    outcomes = _outcomes(report)
    assert outcomes["ENV-019"] == "accepted", output[-3000:]
    assert not [rule for rule, outcome in outcomes.items() if outcome in ("failed", "error", "warned")]
    assert "1 accepted, 0 new, 0 fixed" in output
    assert "1 xfailed" in output
    # The table's html key: the report names the finding and shows the frames of the declared image mode.
    parsed = parse_report(project / "conformance-report.html")
    assert f"{TARGET}--ENV-019" in parsed.ids
    assert parsed.images, "no rgb_array frames in the HTML report"


def test_a_new_defect_fails(tmp_path: Path) -> None:
    project = _project(tmp_path)
    # Observations no longer in the float32 Box: a MUST finding the baseline does not hold.
    _patch(project, "[self._temperature], dtype=np.float32)", "[self._temperature], dtype=np.float64)")
    code, output, report = _run(project)
    assert code == 1, output[-3000:]
    assert _outcomes(report)["ENV-006"] == "failed"
    assert "1 accepted" in output


@pytest.mark.parametrize("strict", [False, True])
def test_a_removed_finding_is_reported_fixed(tmp_path: Path, strict: bool) -> None:
    project = _project(tmp_path)
    _patch(project, "        self._steps = 0\n", "        self._steps = -1  # no reset yet\n")
    _patch(
        project,
        "        push = (int(action) - 1) * 1.5",
        "        if self._steps < 0:\n"
        "            raise RuntimeError('ThermostatEnv.step needs a reset first: call reset()')\n"
        "        push = (int(action) - 1) * 1.5",
    )
    code, output, report = _run(project, *(["--conformance-baseline-strict"] if strict else []))
    assert _outcomes(report)["ENV-019"] == "passed", output[-3000:]
    assert "0 accepted, 0 new, 1 fixed" in output
    assert "fixed: ENV-019 [thermostat.envs:ThermostatEnv]" in output
    assert code == (1 if strict else 0), output[-3000:]
