"""TaxiEnv: differential against Gymnasium (dry, rainy, fickle), transition table, action masks and ansi text."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.toy_text.taxi import TaxiEnv
from tests.reference.envs._differential import discrete_actions, policy_actions, run_lockstep

gym_taxi = pytest.importorskip("gymnasium.envs.toy_text.taxi")
pytestmark = pytest.mark.gymnasium

seeds = st.integers(0, 2**32 - 1)
configs = st.fixed_dictionaries(
    {
        "is_rainy": st.booleans(),
        "fickle_passenger": st.booleans(),
        "rainy_probability": st.sampled_from([0.8, 0.5, 1.0]),
        "fickle_probability": st.sampled_from([0.3, 1.0, 0.0]),
    }
)
_NAV = TaxiEnv()  # dry transitions, used only to plan routes


def _drive(state: int) -> int:
    """Shortest route to the passenger, pick up, shortest route to the destination, drop off."""
    row, col, passenger, destination = _NAV.decode(state)
    target = _NAV.locs[passenger] if passenger < 4 else _NAV.locs[destination]
    if (row, col) == target:
        return 4 if passenger < 4 else 5
    frontier: deque[tuple[int, int]] = deque((_NAV.P[state][a][0][1], a) for a in range(4))
    seen = {state}
    while frontier:
        s, first = frontier.popleft()
        if s in seen:
            continue
        seen.add(s)
        if _NAV.decode(s)[:2] == target:
            return first
        frontier.extend((_NAV.P[s][a][0][1], first) for a in range(4))
    raise AssertionError(f"no route from {state}")


@settings(max_examples=40, deadline=None)
@given(seed=seeds, config=configs, actions=discrete_actions(6))
def test_matches_gymnasium(seed: int, config: dict[str, object], actions: list[int]) -> None:
    ours, theirs = TaxiEnv(**config), gym_taxi.TaxiEnv(**config)  # type: ignore[arg-type]
    run_lockstep(ours, theirs, seed, actions)


@settings(max_examples=12, deadline=None)
@given(seed=seeds, config=configs)
def test_delivering_episodes_match_gymnasium(seed: int, config: dict[str, object]) -> None:
    # A route planner delivers passengers, so dropoffs (+20), wrong stands and fickle detours all occur.
    actions = policy_actions(TaxiEnv(**config), seed, _drive, 250)  # type: ignore[arg-type]
    endings = run_lockstep(TaxiEnv(**config), gym_taxi.TaxiEnv(**config), seed, actions)  # type: ignore[arg-type]
    assert endings >= 1


@pytest.mark.parametrize("is_rainy", [False, True])
def test_transition_table_and_masks_match_gymnasium(is_rainy: bool) -> None:
    ours, theirs = TaxiEnv(is_rainy=is_rainy), gym_taxi.TaxiEnv(is_rainy=is_rainy)
    assert ours.P == theirs.P
    assert ours.initial_state_distrib.tolist() == theirs.initial_state_distrib.tolist()
    for state in range(500):
        assert ours.decode(state) == tuple(theirs.decode(state))
        assert ours.encode(*ours.decode(state)) == state
        mask, expected = ours.action_mask(state), theirs.action_mask(state)
        assert mask.dtype == expected.dtype and np.array_equal(mask, expected)


def test_ansi_matches_gymnasium_through_a_delivery() -> None:
    ours, theirs = TaxiEnv(render_mode="ansi"), gym_taxi.TaxiEnv(render_mode="ansi")
    state, _ = ours.reset(seed=2)
    theirs.reset(seed=2)
    assert ours.render() == theirs.render()
    terminated = False
    for _ in range(40):
        action = _drive(state)
        state, _, terminated, _, _ = ours.step(action)
        theirs.step(action)
        assert ours.render() == theirs.render()
        if terminated:
            break
    assert terminated


def test_argument_checks() -> None:
    with pytest.raises(ValueError, match="rainy_probability must be in"):
        TaxiEnv(rainy_probability=1.5)
    env = TaxiEnv()
    with pytest.raises(ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(InvalidAction):
        env.step(6)
    with pytest.raises(ValueError, match="state must be in"):
        env.decode(500)
