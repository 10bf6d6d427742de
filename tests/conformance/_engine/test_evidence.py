"""What an item observed (:class:`Tally`) and what a rule needs (:class:`Floor`): counting calls as they return,
floors met or not, and the two ways an item under its floor ends (not checked, not observed)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine import evidence
from conformance._engine.evidence import EPISODE_CAPS, Floor, Tally, episode_cap, shortfall, strongest
from conformance.results import Evidence

_ENV = object()  # a handle's identity is all the tally keys an instance by
_OTHER = object()


def _step(tally: Tally, terminated: Any = False, truncated: Any = False, handle: object = _ENV) -> None:
    tally.returned(handle, "step", {}, (0, 0.0, terminated, truncated, {}), "", instance=True, seconds=0.001)


def _reset(tally: Tally, handle: object = _ENV, **kwargs: Any) -> None:
    tally.returned(handle, "reset", kwargs, (0, {}), "", instance=True, seconds=0.001)


def test_a_single_env_rollout_counts_steps_ends_resets_and_frames() -> None:
    tally = Tally()
    tally.new_example()
    _reset(tally, seed=3)
    _step(tally)
    tally.returned(_ENV, "render", {}, np.zeros((2, 2, 3)), "rgb_array", instance=True, seconds=0.0)
    _step(tally, terminated=True)
    _reset(tally)
    tally.returned(_ENV, "render", {}, np.zeros((2, 2, 3)), "rgb_array", instance=True, seconds=0.0)
    _step(tally, np.bool_(True), np.bool_(True))
    evidence = tally.evidence()
    assert (evidence.steps, evidence.ends, evidence.terminated, evidence.truncated, evidence.both) == (3, 2, 2, 1, 1)
    assert (evidence.seeded_resets, evidence.unseeded_resets, evidence.longest) == (1, 1, 2)
    # The first frame came after a step of its episode, the second straight after a reset.
    assert evidence.renders == {"rgb_array": 2} and evidence.renders_after_step == 1
    assert evidence.instances == 1 and evidence.examples == 1


def test_a_vector_env_counts_each_sub_env_end_and_the_autoresets_after_them() -> None:
    tally = Tally()
    tally.new_example()
    _reset(tally, seed=[0, 1, 2])
    _step(tally, np.array([True, False, False]), np.array([False, False, True]))
    _step(tally, np.zeros(3, bool), np.zeros(3, bool))  # sub-envs 0 and 2 go past their ends
    _step(tally, np.zeros(3, bool), np.zeros(3, bool))
    evidence = tally.evidence()
    assert (evidence.steps, evidence.ends, evidence.autoresets, evidence.autoreset_envs) == (3, 2, 2, 2)
    assert evidence.after_autoreset == 4  # two sub-envs, two steps each since their autoreset
    assert evidence.seeded_resets == 1


def test_a_partial_reset_of_ended_sub_envs_is_the_callers_autoreset() -> None:
    tally = Tally()
    _reset(tally, seed=0)
    _step(tally, np.array([True, False]), np.array([False, False]))
    _reset(tally, options={"reset_mask": np.array([True, False])})
    assert tally.evidence().autoresets == 1 and tally.evidence().unseeded_resets == 1


def test_instances_count_only_the_targets_that_took_calls_in_one_example() -> None:
    tally = Tally()
    tally.new_example()
    _reset(tally, _ENV, seed=0)
    tally.returned(_OTHER, "sample", {}, 1, "", instance=False, seconds=0.0)  # a space: no instance
    assert tally.evidence().instances == 1
    _reset(tally, _OTHER, seed=1)
    assert tally.evidence().instances == 2
    tally.new_example()
    _reset(tally, _ENV, seed=0)
    assert tally.evidence().instances == 2  # the most at once, not a sum


def test_a_malformed_result_counts_as_a_call_only() -> None:
    tally = Tally()
    tally.returned(_ENV, "step", {}, "not a tuple", "", instance=True, seconds=0.0)
    tally.returned(_ENV, "step", {}, (0, 0, object(), [1, 2], {}), "", instance=True, seconds=0.0)
    assert tally.evidence().steps == 2 and tally.evidence().ends == 0


def test_a_functional_envs_transitions_are_steps_and_its_terminal_states_ends() -> None:
    tally = Tally()
    tally.returned(_ENV, "transition", {}, object(), "", instance=True, seconds=0.0)
    tally.returned(_ENV, "terminal", {}, np.array([True, False, True]), "", instance=True, seconds=0.0)
    tally.returned(_ENV, "render_image", {}, (None, np.zeros((1, 1, 3))), "", instance=True, seconds=0.0)
    evidence = tally.evidence()
    assert (evidence.steps, evidence.ends, evidence.renders) == (1, 2, {"rgb_array": 1})


_COUNTS = st.integers(0, 50)


@given(_COUNTS, _COUNTS, _COUNTS, _COUNTS)
def test_a_floor_is_met_exactly_when_every_count_reaches_it(steps: int, ends: int, want_steps: int,
                                                           want_ends: int) -> None:
    floor = Floor(steps=want_steps, ends=want_ends)
    missing = floor.missing(Evidence(steps=steps, ends=ends))
    assert (not missing) == (steps >= want_steps and ends >= want_ends)
    assert all(seen < needed for _, seen, needed in missing)


@given(_COUNTS, _COUNTS)
def test_an_alternative_floor_serves_as_well(steps: int, ends: int) -> None:
    floor = Floor(steps=30) | Floor(ends=2)
    assert (not floor.missing(Evidence(steps=steps, ends=ends))) == (steps >= 30 or ends >= 2)
    assert floor.describe() == "30 steps, or 2 episode ends"


def test_a_floor_refuses_a_negative_count() -> None:
    with pytest.raises(ValueError, match="Floor steps must be a non-negative int, got -1"):
        Floor(steps=-1)
    with pytest.raises(ValueError, match="Floor judged must map names to non-negative ints"):
        Floor(judged={"ends": -2})


def test_the_strongest_floor_asks_for_the_most_of_each() -> None:
    floor = strongest([Floor(steps=30), Floor(steps=10, ends=3, judged={"x": 1}), Floor()])
    assert floor == Floor(steps=30, ends=3, judged={"x": 1})
    assert floor.episodic and not Floor(steps=30).episodic and (Floor(steps=30) | Floor(ends=1)).episodic


def test_the_episode_cap_is_a_few_declared_limits_or_the_profiles_fixed_cap() -> None:
    assert episode_cap(Floor(ends=3), 1000, "default") == 5000
    assert episode_cap(Floor(steps=30), None, "quick") == EPISODE_CAPS["quick"]


def test_a_rollout_is_driven_until_its_floor_the_cap_or_the_time_is_reached() -> None:
    tally = Tally(Floor(ends=2), cap=100)
    assert tally.wants_more(10)
    _step(tally, terminated=True)
    _step(tally, terminated=True)
    assert not tally.wants_more(10)  # met
    capped = Tally(Floor(ends=2), cap=100)
    assert not capped.wants_more(100) and capped.capped and not capped.wants_more(5)
    late = Tally(Floor(ends=2), cap=100, seconds=0.5)
    late.target_seconds = 0.6
    assert not late.wants_more(1) and late.out_of_time
    assert not Tally(Floor(steps=30), cap=100).wants_more(1)  # a floor of steps alone: the plan's length serves it


def test_under_its_floor_an_item_is_not_checked_with_what_it_saw_and_the_remedy() -> None:
    tally = Tally(Floor(steps=30))
    _reset(tally, seed=0)
    _step(tally)
    found = shortfall("ENV-011", "pkg:Env", tally.floor, tally)
    assert found is not None
    message, checked = found
    assert checked and message.startswith("ENV-011 not checked on pkg:Env: observed 1 of 30 steps")
    assert "--conformance-budget" in message and "--conformance-profile thorough" in message
    tally.steps = 30
    assert shortfall("ENV-011", "pkg:Env", tally.floor, tally) is None


def test_episodes_that_do_not_end_within_the_cap_are_not_observed_not_unchecked() -> None:
    tally = Tally(Floor(steps=30, ends=3), cap=40)
    for _ in range(40):
        _step(tally)
    assert not tally.wants_more(40)
    found = shortfall("ENV-023", "pkg:Env", tally.floor, tally)
    assert found is not None
    message, checked = found
    assert not checked and "not observed" in message and "episode cap of 40 steps" in message
    assert "no episode ended" in message


def test_a_check_that_ran_out_of_episodes_of_the_kind_says_why() -> None:
    tally = Tally(Floor(judged={"terminal steps replayed": 1}))
    _step(tally, truncated=True)
    tally.exhaust("an episode ended truncated, not terminated")
    found = shortfall("ENV-024", "pkg:Env", tally.floor, tally)
    assert found is not None and not found[1]
    assert "an episode ended truncated, not terminated" in found[0]


def test_counting_a_single_envs_step_builds_no_array_and_no_second_instance_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every step of every rollout is counted: plain ``bool`` flags are read as they are, and an instance's record is
    made at its first call only (both cost more than the rest of the count, on every step)."""
    arrays: list[object] = []
    made: list[object] = []
    real_asarray, real_instance = np.asarray, evidence._Instance  # pyright: ignore[reportPrivateUsage]

    def asarray(value: object, *args: Any, **kwargs: Any) -> Any:
        arrays.append(value)
        return real_asarray(value, *args, **kwargs)

    def instance() -> object:
        made.append(1)
        return real_instance()

    monkeypatch.setattr(np, "asarray", asarray)  # the module NumPy the tally reads its flags with

    monkeypatch.setattr(evidence, "_Instance", instance)
    tally = Tally()
    tally.new_example()
    _reset(tally, seed=1)
    for _ in range(5):
        _step(tally)
    _step(tally, terminated=True)
    assert (tally.steps, tally.ends) == (6, 1)
    assert arrays == [] and len(made) == 1
    _step(tally, np.bool_(True), np.bool_(False))  # NumPy flags still go through arrays
    assert tally.ends == 2 and len(arrays) == 2
