"""Continuous_MountainCarEnv: differential against Gymnasium (including float32/float64 action dtypes)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.classic_control.continuous_mountain_car import Continuous_MountainCarEnv
from tests.reference.envs._differential import box_actions, policy_actions, run_lockstep

gym_cmc = pytest.importorskip("gymnasium.envs.classic_control.continuous_mountain_car")
pytestmark = pytest.mark.gymnasium


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), actions=box_actions(-1.0, 1.0, margin=0.5))
def test_matches_gymnasium(seed: int, actions: list[np.ndarray]) -> None:
    run_lockstep(Continuous_MountainCarEnv(), gym_cmc.Continuous_MountainCarEnv(), seed, actions)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), gain=st.floats(0.5, 2.0), dtype=st.sampled_from([np.float32, np.float64]))
def test_matches_gymnasium_at_the_goal(seed: int, gain: float, dtype: type) -> None:
    # Pushing along the velocity reaches the goal; float64 actions change the scalar types inside the dynamics.
    def swing(obs: np.ndarray) -> np.ndarray:
        return np.array([gain if obs[1] >= 0 else -gain], dtype=dtype)

    actions = policy_actions(Continuous_MountainCarEnv(), seed, swing, 400)
    assert run_lockstep(Continuous_MountainCarEnv(), gym_cmc.Continuous_MountainCarEnv(), seed, actions) >= 1


def test_action_without_elements_is_rejected() -> None:
    env = Continuous_MountainCarEnv()
    with pytest.raises(ResetNeeded):
        env.step(np.zeros(1, dtype=np.float32))
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"action must be an array of shape \(1,\)"):
        env.step(np.zeros(0, dtype=np.float32))


def test_returned_observation_is_not_the_internal_state() -> None:
    env = Continuous_MountainCarEnv()
    env.reset(seed=0)
    obs, *_ = env.step(np.array([0.5], dtype=np.float32))
    obs[:] = 99.0
    assert env.state is not None and float(env.state[0]) != 99.0
