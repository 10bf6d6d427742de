"""Where an item's time goes: the meter of target time (:class:`Meter`, :class:`MeteredGuard`), and every item's
record splitting its wall time into the target's calls and the suite's own work, checked on a fake clock."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

import pytest

from conformance._engine.cost import METER, Meter, MeteredGuard, metered
from conformance._engine.watchdog import CallLimits
from conformance.results import Report, RuleResult
from tests.conformance._engine._costed import CLOCK, COSTS, FakeClock
from tests.meta._run import run_inprocess

T = TypeVar("T")


class _Plain:
    """A guard that just calls (what the meter wraps), counting its calls."""

    def __init__(self) -> None:
        self.timeout = 1.0
        self.limits = CallLimits(1.0)
        self.calls: list[str] = []
        self.bodies = 0
        self.down = False

    def call(
        self, label: str, fn: Callable[[], T], *, method: str = "", mode: str = "", limit: float = 0.0,
        arguments: Mapping[str, object] | None = None, beside: bool = False,
    ) -> T:
        del method, mode, limit, arguments, beside
        self.calls.append(label)
        return fn()

    def run(self, body: Callable[[], T]) -> T:
        self.bodies += 1
        return body()

    def in_worker(self) -> bool:
        return True

    def shutdown(self) -> None:
        self.down = True


def _costing(clock: FakeClock, seconds: float, then: str | None = None) -> str | None:
    clock.advance(seconds)
    return then


def test_the_meter_counts_only_the_time_inside_calls() -> None:
    clock = FakeClock()
    meter = Meter(clock.now)
    clock.advance(5.0)  # the suite's own work before the call
    assert meter.timed(_costing, clock, 0.75, "result") == "result"
    clock.advance(3.0)  # and after it
    assert meter.seconds == 0.75


def test_a_call_inside_a_call_is_counted_once() -> None:
    clock = FakeClock()
    meter = Meter(clock.now)

    def outer() -> None:
        clock.advance(0.5)
        meter.timed(_costing, clock, 0.25)

    meter.timed(outer)
    assert meter.seconds == 0.75


def test_a_call_that_raises_is_still_counted() -> None:
    clock = FakeClock()
    meter = Meter(clock.now)

    def broken() -> None:
        clock.advance(0.5)
        raise RuntimeError("target error")

    with pytest.raises(RuntimeError):
        meter.timed(broken)
    meter.timed(_costing, clock, 0.25)  # and the meter is ready for the next call
    assert meter.seconds == 0.75


def test_the_metered_guard_times_calls_and_passes_everything_else_on() -> None:
    clock = FakeClock()
    plain = _Plain()
    guard = MeteredGuard(plain, Meter(clock.now))
    assert guard.call("env.step", lambda: _costing(clock, 0.5, "obs"), method="step") == "obs"
    assert guard.run(lambda: _costing(clock, 2.0)) is None  # a body is the suite's code: only its calls count
    assert guard.meter.seconds == 0.5
    assert plain.calls == ["env.step"] and plain.bodies == 1
    assert guard.timeout == 1.0 and guard.limits is plain.limits and guard.in_worker()
    guard.shutdown()
    assert plain.down
    assert metered(guard) is guard  # never wrapped twice
    assert isinstance(metered(plain), MeteredGuard)


def test_a_record_splits_its_time_into_the_targets_and_the_suites() -> None:
    result = RuleResult("ENV-011", "t", "MUST", "passed", seconds=2.5, target_seconds=2.0)
    assert result.suite_seconds == 0.5
    again = RuleResult.from_dict(result.to_dict())
    assert again.target_seconds == 2.0
    merged = result.merge(RuleResult("ENV-011", "t", "MUST", "passed", seconds=1.0, target_seconds=0.25))
    assert (merged.seconds, merged.target_seconds) == (3.5, 2.25)
    # The supervisor's record of an item whose process died has no target time: its seconds are not split.
    died = RuleResult("RENDER-015", "t", "MUST", "error", "the process died", seconds=16.0)
    assert died.target_seconds is None and died.suite_seconds is None
    assert RuleResult.from_dict(died.to_dict()).target_seconds is None
    assert died.merge(died).target_seconds is None
    report = Report((result, RuleResult("SEED-001", "t", "MUST", "passed", seconds=4.0, target_seconds=1.0), died))
    cost = report.summary()["cost"]["t"]
    assert (cost["seconds"], cost["target_seconds"], cost["suite_seconds"]) == (22.5, 3.0, 3.5)
    assert cost["unmeasured_seconds"] == 16.0
    assert [item["rule"] for item in cost["worst"]] == ["SEED-001", "ENV-011"]  # most suite time first
    assert report.cost_lines() == [
        "t: target 3.0 s, suite 3.5 s (16.0 s more in items whose process died or hung); most suite time: "
        "SEED-001 3.0 s (target 1.0 s), ENV-011 0.5 s (target 2.0 s)"
    ]


_RULES = "CONSTRUCT,ENV-004,ENV-019,ENV-020,ENV-025,SEED-001,SEED-003,SEED-004,SPACE-004,RENDER-001,RENDER-012"


def test_every_call_into_the_target_is_target_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a target whose calls are the only thing that takes time (a fake clock the meter reads), each item's
    wall time is all target time: a construction, reset, step, render, close, attribute read or space call the meter
    did not count would show as the suite's own time."""
    monkeypatch.setattr(METER, "clock", CLOCK.now)
    run = run_inprocess(["--env", "tests.conformance._engine._costed:Costed", "--rules", _RULES,
                         "--conformance-isolation", "fork"], tmp_path / "report.json")
    assert run.returncode == 0, run.report["summary"]
    results = [RuleResult.from_dict(record) for record in run.report["results"]]
    assert {result.rule for result in results} >= {"ENV-020", "SEED-001", "RENDER-012"}
    for result in results:
        assert result.target_seconds is not None and result.suite_seconds == pytest.approx(0.0, abs=1e-6), result
    # The items that made calls measured them: a rollout's steps at least.
    seeding = next(result for result in results if result.rule == "SEED-001")
    assert (seeding.target_seconds or 0.0) >= seeding.evidence.steps * COSTS["step"] > 0
    assert (next(result for result in results if result.rule == "RENDER-012").target_seconds or 0.0) > 0
