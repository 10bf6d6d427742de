"""Tests for conformance/test_instances.py: SEED-009's scripted program finds every shared-state defect of the broken
corpus by itself, whatever programs Hypothesis' derandomized draws make (they change with the module's source); the
render budgets of SEED-009 and ENV-030 leave no defect unfound when frames are costly."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance._kit import stateful
from tests.meta._run import run_inprocess
from tests.meta.broken.catalog import BROKEN
from tests.meta.catalog import Broken

_SHARED_STATE = [broken for broken in BROKEN if broken.rule == "SEED-009"]


@pytest.mark.parametrize("broken", _SHARED_STATE, ids=[broken.spec.rsplit(".", 1)[-1] for broken in _SHARED_STATE])
def test_the_scripted_program_alone_finds_each_shared_state_defect(
    broken: Broken, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stateful, "_run_machine", lambda *args, **kwargs: None)  # no Hypothesis program at all
    run = run_inprocess(["--env", broken.spec, "--rules", "SEED-009", "--conformance-profile", "quick",
                         "--conformance-isolation", "thread"], tmp_path / "report.json")
    assert run.outcomes(broken.target_id).get("SEED-009") == "failed", run.report


def test_without_the_script_the_machine_still_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The guard of the test above: with the machine a no-op, a correct target passes (nothing else fails it).
    monkeypatch.setattr(stateful, "_run_machine", lambda *args, **kwargs: None)
    run = run_inprocess(["--env", "tests.meta.broken._base:Walk", "--rules", "SEED-009", "--conformance-profile",
                         "quick", "--conformance-isolation", "thread"], tmp_path / "report.json")
    assert run.outcomes("tests.meta.broken._base:Walk").get("SEED-009") == "passed", run.report


@pytest.mark.parametrize("profile", ["quick", "default"])
def test_a_close_that_breaks_costly_frames_is_found_within_the_render_budget(profile: str, tmp_path: Path) -> None:
    # Frames of 0.4 s: the quick profile's budget (1 s) is spent in ENV-030's first example, which still renders
    # before and after the other instance's close.
    target = "tests.meta.broken.deep:ControlCloseDropsSharedCanvasSlowly"
    run = run_inprocess(["--env", target, "--rules", "ENV-030,SEED-009", "--conformance-profile", profile],
                        tmp_path / "report.json")
    outcomes = run.outcomes(target)
    assert (outcomes["ENV-030"], outcomes["SEED-009"]) == ("failed", "passed"), run.report
