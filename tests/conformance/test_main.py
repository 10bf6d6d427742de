"""``python -m conformance``: targets are classified, a one-screen table or the JSON report is printed."""

from __future__ import annotations

import json
import os

import pytest

from conformance.__main__ import classify, main
from tests.meta._run import REPO


def test_targets_are_classified() -> None:
    assert classify("CartPole-v1") == ("--env-id", "CartPole-v1")
    assert classify("tests.meta.broken._base:Walk") == ("--env", "tests.meta.broken._base:Walk")
    assert classify("gymnasium_robotics:FetchReach-v2") == ("--env-id", "gymnasium_robotics:FetchReach-v2")
    assert classify("no_such_module_xyz:Thing") == ("--env-id", "no_such_module_xyz:Thing")


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.delenv("CONFORMANCE_ENV", raising=False)


@pytest.mark.usefixtures("in_repo")
def test_table_and_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tests.meta.broken._base:Walk", "tests.meta.broken.env:Env009StepOutside", "--rules", "ENV-009",
                 "--profile", "quick"])
    out = capsys.readouterr().out
    assert code == 1
    assert "target" in out.splitlines()[0] and "passed" in out.splitlines()[0]
    assert "FAILED  ENV-009 [tests.meta.broken.env:Env009StepOutside]" in out
    assert len(out.splitlines()) < 25


@pytest.mark.usefixtures("in_repo")
def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tests.meta.broken._base:Walk", "--rules", "ENV-00[1-3]", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["schema"] == 1 and report["summary"]["failed"] == 0
    assert os.path.basename(report["results"][0]["nodeid"]).startswith("test_")
