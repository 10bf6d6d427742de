"""Tests for :mod:`conformance._engine.profiles`: how a costly target's effort is cut to its budget."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.profiles import (
    PROFILES,
    Costs,
    Profile,
    demand,
    first_choices,
    full_first,
    given_under,
    hypothesis_settings,
    scaled,
)
from conformance._kit.floors import ROLLOUT, SUB_ENV_ENDS

_SECONDS = st.floats(0.0, 40.0, allow_nan=False)
_COSTS = st.builds(Costs, construct=_SECONDS, reset=_SECONDS, step=st.floats(0.0, 0.05, allow_nan=False))
_ITEMS = st.integers(1, 200)
_NAMES = st.sampled_from(sorted(PROFILES))


def _demand_at(profile: Profile, costs: Costs, items: int, factor: float) -> float:
    """The demand with examples and rollout lengths both cut by ``factor`` (before rounding and floors)."""
    return factor * demand(profile, Costs(costs.construct, costs.reset, costs.step * factor), items)


@given(_NAMES, _COSTS, _ITEMS)
def test_effort_stays_between_the_floors_and_the_profile(name: str, costs: Costs, items: int) -> None:
    profile = PROFILES[name]
    cut = scaled(profile, costs, items)
    # One construction that takes more than a tenth of the budget leaves room for one example per item.
    floor = 1 if costs.construct * 10 > profile.budget else profile.min_examples
    assert floor <= cut.max_examples <= profile.max_examples
    assert profile.min_steps <= cut.max_steps <= profile.max_steps
    assert cut.max_prefix == min(profile.max_prefix, cut.max_steps)
    if demand(profile, costs, items) <= profile.budget:
        assert cut == profile


@given(_NAMES, _COSTS, _ITEMS)
def test_a_cut_target_is_cut_to_its_budget(name: str, costs: Costs, items: int) -> None:
    profile = PROFILES[name]
    cut = scaled(profile, costs, items)
    if cut == profile or cut.max_examples in (1, profile.min_examples):
        return
    # Examples are the cut factor's share of the profile's, rounded up: one example fewer is within the budget,
    # as many is not below it.
    low, high = (cut.max_examples - 1) / profile.max_examples, cut.max_examples / profile.max_examples
    assert _demand_at(profile, costs, items, low) <= profile.budget * (1 + 1e-9)
    assert _demand_at(profile, costs, items, high) >= profile.budget * (1 - 1e-9)


@given(_NAMES, _COSTS, _COSTS, _ITEMS)
def test_costlier_targets_never_get_more_effort(name: str, cheap: Costs, extra: Costs, items: int) -> None:
    profile = PROFILES[name]
    costly = Costs(cheap.construct + extra.construct, cheap.reset + extra.reset, cheap.step + extra.step)
    a, b = scaled(profile, cheap, items), scaled(profile, costly, items)
    assert b.max_examples <= a.max_examples
    assert b.max_steps <= a.max_steps


def test_a_construction_of_seconds_leaves_one_example_per_item() -> None:
    # A benchmark env loading its assets for 20 s: the floor of examples would pay constructions nothing can afford.
    for profile in PROFILES.values():
        cut = scaled(profile, Costs(construct=profile.budget / 5, reset=0.001, step=0.001), 80)
        assert cut.max_examples == 1
        assert cut.max_steps == profile.min_steps


def test_construction_bound_targets_are_cut_in_proportion_to_the_excess() -> None:
    # ALE-like: a construction and a seeded reset each reload a ROM; steps cost next to nothing.
    profile = PROFILES["default"]
    costs = Costs(construct=0.01, reset=0.01, step=0.0)
    cut = scaled(profile, costs, 100)
    excess = demand(profile, costs, 100) / profile.budget
    assert cut.max_examples == math.ceil(profile.max_examples / excess)


def test_step_bound_targets_are_cut_by_the_square_root_of_the_excess() -> None:
    profile = PROFILES["default"]
    costs = Costs(construct=0.0, reset=0.0, step=0.001)
    cut = scaled(profile, costs, 40)
    excess = demand(profile, costs, 40) / profile.budget
    assert cut.max_examples == math.ceil(profile.max_examples / math.sqrt(excess))
    assert cut.max_steps == int(profile.max_steps / math.sqrt(excess))


def test_cheap_targets_keep_the_whole_profile() -> None:
    profile = PROFILES["default"]
    assert scaled(profile, Costs(construct=0.001, reset=0.0001, step=0.00002), 67) == profile


_LONGEST = 200


def _lengths() -> st.SearchStrategy[tuple[int, int]]:
    """Stands for a rollout plan: its length first (the choice full_first names), then a seed."""
    return full_first(st.integers(0, _LONGEST).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, 2**32 - 1))),
                      (_LONGEST,))


@pytest.mark.parametrize("name", ["quick", "default", "thorough"])
def test_the_first_example_is_the_full_one_not_the_simplest(name: str) -> None:
    seen: list[int] = []
    strategy = _lengths()

    @given_under(PROFILES[name], strategy, max_examples=1, first=first_choices(strategy))
    def example(drawn: tuple[int, int]) -> None:
        seen.append(drawn[0])

    example()
    assert seen == [_LONGEST]


def test_a_full_first_example_that_fails_still_shrinks() -> None:
    seen: list[int] = []
    strategy = _lengths()

    @given_under(PROFILES["default"], strategy, max_examples=1, first=first_choices(strategy))
    def example(drawn: tuple[int, int]) -> None:
        seen.append(drawn[0])
        if drawn[0] > 37:
            raise AssertionError(drawn)

    with pytest.raises(AssertionError) as found:
        example()
    assert seen[0] == _LONGEST and found.value.args[0] == (38, 0)  # the shortest failing plan, its seed simplest


def test_a_derandomized_profile_draws_the_same_examples_on_every_run() -> None:
    runs: list[list[tuple[int, int]]] = []
    for _ in range(2):
        seen: list[tuple[int, int]] = []
        strategy = _lengths()

        @given_under(PROFILES["default"], strategy, first=first_choices(strategy))
        def example(drawn: tuple[int, int]) -> None:
            seen.append(drawn)  # noqa: B023 - run at once

        example()
        runs.append(seen)
    assert runs[0] == runs[1] and len(runs[0]) == PROFILES["default"].max_examples


def test_no_profile_cuts_a_rollout_below_the_largest_step_floor() -> None:
    largest = max(floor.steps for floor in (ROLLOUT, SUB_ENV_ENDS))  # one rollout's steps (FIRST_EPISODES: two)
    costs = Costs(construct=20.0, reset=1.0, step=1.0)
    for profile in PROFILES.values():
        assert scaled(profile, costs, items=100).max_steps >= largest


def test_the_settings_of_a_profile_are_built_once_per_process() -> None:
    """Every item asks for its settings: one object per (profile, example count) serves them all; a full first
    example gets a database of its own each time (it forgets the example once replayed)."""
    profile = PROFILES["default"]
    assert hypothesis_settings(profile) is hypothesis_settings(profile)
    assert hypothesis_settings(profile, max_examples=3) is not hypothesis_settings(profile)
    first, again = hypothesis_settings(profile, first=(200,)), hypothesis_settings(profile, first=(200,))
    assert first.database is not again.database and first.max_examples == profile.max_examples
    assert not first.derandomize and hypothesis_settings(profile).database is None
