"""Tests for :mod:`conformance._kit.frames`: which frames a rollout draws for what they cost (a fake clock)."""

from __future__ import annotations

from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.handles import Handle
from conformance._kit.frames import ALL_SECONDS, ENOUGH, FEWEST, READINGS, RenderBudget


class _Scene:
    """A renderer whose frames cost ``costs`` seconds of a fake clock in turn (the last one repeats)."""

    def __init__(self, costs: list[float]) -> None:
        self.now = 0.0
        self.costs = costs
        self.frames = 0

    def clock(self) -> float:
        return self.now

    def render(self) -> int:
        self.now += self.costs[min(self.frames, len(self.costs) - 1)]
        self.frames += 1
        return self.frames


def _rollout(budget: RenderBudget, scene: _Scene, steps: int, resets: frozenset[int] = frozenset()) -> list[int]:
    """Positions 0..steps (0 and ``resets`` after a reset, forced); the positions that rendered."""
    budget.start(steps)
    drawn = []
    for position in range(steps + 1):
        forced = position == 0 or position in resets
        if budget.due(position, forced=forced):
            budget.render(cast(Handle, scene), forced=forced)
            drawn.append(position)
    return drawn


_COST = st.floats(0.0, 10.0, allow_nan=False)
_STEPS = st.integers(1, 300)
_SECONDS = st.sampled_from([1.0, 3.0, 30.0])


@given(st.floats(0.0, ALL_SECONDS / 300, allow_nan=False), _STEPS, _SECONDS)
def test_cheap_frames_are_all_drawn(cost: float, steps: int, seconds: float) -> None:
    scene = _Scene([cost])
    assert _rollout(RenderBudget(seconds, scene.clock), scene, steps) == list(range(steps + 1))


@given(st.lists(_COST, min_size=1, max_size=5), _STEPS, _SECONDS, st.frozensets(st.integers(1, 300), max_size=4))
def test_forced_frames_and_a_frame_after_a_step_are_always_drawn(
    costs: list[float], steps: int, seconds: float, resets: frozenset[int]
) -> None:
    scene = _Scene(costs)
    budget = RenderBudget(seconds, scene.clock)
    resets = frozenset(position for position in resets if position < steps)  # a rollout ends with a step
    drawn = _rollout(budget, scene, steps, resets)
    assert {0, *resets} <= set(drawn)
    assert any(position not in resets for position in drawn[1:])  # a frame after a step, not only the resets'
    assert budget.stepped > 0


@given(st.floats(1e-4, 10.0, allow_nan=False), st.integers(1, 300), _SECONDS)
def test_costly_frames_are_drawn_within_the_budget(cost: float, steps: int, seconds: float) -> None:
    scene = _Scene([cost])
    budget = RenderBudget(seconds, scene.clock)
    drawn = _rollout(budget, scene, steps)
    # A stride is set after a few readings; from then on the frames are what the budget affords (at least the
    # floors: ENOUGH while affordable, FEWEST however costly, every one when all of them cost under ALL_SECONDS).
    affordable = max(FEWEST, int(ALL_SECONDS / cost), min(ENOUGH, int(seconds / cost)))
    assert len(drawn) - 1 <= READINGS + affordable
    if cost * 2 >= seconds:  # the first frame took half the budget: the stride is set at once
        assert len(drawn) - 1 <= affordable


@given(st.floats(1e-4, ALL_SECONDS / ENOUGH, allow_nan=False), st.integers(ENOUGH, 300))
def test_frames_the_budget_affords_are_not_cut_below_the_floor(cost: float, steps: int) -> None:
    scene = _Scene([cost])
    drawn = _rollout(RenderBudget(3.0, scene.clock), scene, steps)
    assert len(drawn) - 1 >= ENOUGH // 2


def test_a_slow_first_frame_is_outweighed_by_cheap_ones() -> None:
    # A GL context made by the first render: the frames after it, cheap, bring the stride back down.
    scene = _Scene([1.0, 0.0])
    budget = RenderBudget(3.0, scene.clock)
    assert len(_rollout(budget, scene, 20)) < 21
    for _ in range(100):
        _rollout(budget, scene, 20)
    assert _rollout(budget, scene, 20) == list(range(21))


def test_a_spent_budget_skips_later_examples_until_one_fails() -> None:
    scene = _Scene([2.0])
    budget = RenderBudget(3.0, scene.clock)
    assert not budget.spent_out()
    _rollout(budget, scene, 20)
    assert budget.spent >= 3.0
    assert budget.spent_out()
    with pytest.raises(ValueError, match="frame"), budget.example():
        raise ValueError("a frame broke its rule")
    # Hypothesis replays a failing example: it must render as the first run did.
    assert not budget.spent_out()


def test_a_reset_frame_alone_does_not_spend_the_examples() -> None:
    # A first example of no steps drew only the reset's frame: the next example still runs.
    scene = _Scene([5.0])
    budget = RenderBudget(3.0, scene.clock)
    _rollout(budget, scene, 0)
    assert budget.spent >= 3.0
    assert not budget.spent_out()


@given(_STEPS)
def test_no_reading_means_every_step(steps: int) -> None:
    budget = RenderBudget(3.0)
    budget.start(steps)
    assert all(budget.due(position) for position in range(steps + 1))


@given(st.lists(st.floats(0.0, 2.0, allow_nan=False), max_size=40), _SECONDS)
def test_renders_outside_a_rollout_are_made_while_the_budget_lasts(costs: list[float], seconds: float) -> None:
    # A program's render calls (SEED-009): each is made only while the budget allows, so at most one overruns it.
    scene = _Scene(costs or [0.0])
    budget = RenderBudget(seconds, scene.clock)
    made = 0
    for _ in costs:
        if budget.allows():
            with budget.timed():
                scene.render()
            made += 1
    assert budget.spent == pytest.approx(sum(costs[:made]))
    assert made == len(costs) or sum(costs[:made - 1]) < seconds <= budget.spent


def test_renders_outside_a_rollout_resume_after_a_failure() -> None:
    scene = _Scene([4.0])
    budget = RenderBudget(3.0, scene.clock)
    with budget.timed():
        scene.render()
    assert not budget.allows()
    with pytest.raises(ValueError, match="program"), budget.example():
        raise ValueError("a program broke its rule")
    assert budget.allows()
