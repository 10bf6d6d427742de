"""What a machine cannot draw is neither a failure nor a pass: on a machine with no display, items whose ``rgb_array``
render raises the windowing layer's error are errors that name the display and the remedy, and so is the
construction check of a target that opens a window when it is made; the target is not checked. Under a display the
same raise is the env's own failure (RENDER-004, the construction check)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.meta._run import SuiteRun, run_inprocess

_TARGET = "tests.meta.broken.headless:RgbArrayThroughAWindow"
_MADE = "tests.meta.broken.headless:OpensAWindowWhenMade"
_RULES = "RENDER-00[46],RENDER-01[234]"


@pytest.fixture
def display(request: pytest.FixtureRequest) -> Iterator[str]:
    """Set ``DISPLAY`` to the parameter for the test ("" for a machine without one)."""
    saved = {name: os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY")}
    os.environ["DISPLAY"], os.environ["WAYLAND_DISPLAY"] = str(request.param), ""
    try:
        yield str(request.param)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run(tmp_path: Path, target: str = _TARGET) -> SuiteRun:
    return run_inprocess(["--conformance-profile", "quick", "--env", target, "--rules", _RULES,
                          "--conformance-isolation", "thread"], tmp_path / "report.json")


@pytest.mark.parametrize("display", [""], indirect=True)
def test_a_mode_drawn_through_a_window_is_not_checked_without_a_display(display: str, tmp_path: Path) -> None:
    run = _run(tmp_path)
    outcomes = run.outcomes(_TARGET)
    assert "failed" not in outcomes.values(), outcomes
    assert run.returncode != 0  # not checked is never a pass
    for rule in ("RENDER-004", "RENDER-006", "RENDER-012", "RENDER-013", "RENDER-014"):
        record = run.result(_TARGET, rule)
        assert record["outcome"] == "error", record
        assert "'rgb_array' on a machine with no display" in record["message"], record["message"]
        assert "xvfb-run" in record["message"], record["message"]


@pytest.mark.parametrize("display", [":99"], indirect=True)
def test_the_same_raise_under_a_display_is_the_envs_failure(display: str, tmp_path: Path) -> None:
    run = _run(tmp_path)
    record = run.result(_TARGET, "RENDER-004")
    assert record["outcome"] == "failed", record
    assert "NoSuchDisplayException" in record["message"], record["message"]


@pytest.mark.parametrize("display", [""], indirect=True)
def test_a_target_that_needs_a_display_to_be_made_is_not_checked_without_one(display: str, tmp_path: Path) -> None:
    run = _run(tmp_path, _MADE)
    assert run.returncode != 0
    outcomes = run.outcomes(_MADE)
    assert outcomes.pop("CONSTRUCT") == "error"
    assert set(outcomes.values()) == {"skipped"}, outcomes
    message = run.result(_MADE, "CONSTRUCT")["message"]
    assert "this machine has no display" in message and "xvfb-run" in message, message


@pytest.mark.parametrize("display", [":99"], indirect=True)
def test_a_construction_that_fails_under_a_display_is_the_targets_failure(display: str, tmp_path: Path) -> None:
    run = _run(tmp_path, _MADE)
    assert run.result(_MADE, "CONSTRUCT")["outcome"] == "failed"
