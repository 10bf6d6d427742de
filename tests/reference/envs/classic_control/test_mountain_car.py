"""MountainCarEnv: differential against Gymnasium, plus argument checks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.classic_control.mountain_car import MountainCarEnv
from tests.reference.envs._differential import discrete_actions, policy_actions, run_lockstep

gym_mountain_car = pytest.importorskip("gymnasium.envs.classic_control.mountain_car")
pytestmark = pytest.mark.gymnasium


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), actions=discrete_actions(3), goal_velocity=st.sampled_from([0, 0.01]))
def test_matches_gymnasium(seed: int, actions: list[int], goal_velocity: float) -> None:
    run_lockstep(
        MountainCarEnv(goal_velocity=goal_velocity),
        gym_mountain_car.MountainCarEnv(goal_velocity=goal_velocity),
        seed,
        actions,
    )


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_matches_gymnasium_at_the_goal_and_the_left_wall(seed: int) -> None:
    # Pushing along the velocity swings the car up (hitting the left wall on the way), so episodes terminate.
    def swing(obs: np.ndarray) -> int:
        return 2 if obs[1] >= 0 else 0

    actions = policy_actions(MountainCarEnv(), seed, swing, 400)
    assert run_lockstep(MountainCarEnv(), gym_mountain_car.MountainCarEnv(), seed, actions) >= 2
    wall = [0] * 60
    run_lockstep(MountainCarEnv(), gym_mountain_car.MountainCarEnv(), seed, wall, options={"low": -1.2, "high": -1.1})


def test_invalid_action_and_step_before_reset() -> None:
    env = MountainCarEnv()
    with pytest.raises(ResetNeeded):
        env.step(1)
    env.reset(seed=0)
    for bad in (3, -1, 1.5, np.array([1])):
        with pytest.raises(InvalidAction, match=r"MountainCarEnv action must be an integer in \[0, 3\)"):
            env.step(bad)  # type: ignore[arg-type]


def test_state_property() -> None:
    env = MountainCarEnv()
    env.reset(seed=1)
    state = env.state
    assert state is not None and state.dtype == np.float64 and state.shape == (2,)
    env.state = np.array([0.49, 0.07])
    _, _, terminated, _, _ = env.step(2)
    assert terminated
