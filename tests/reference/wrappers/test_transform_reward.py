"""Tests for reference.wrappers.transform_reward."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import error
from reference.envs.classic_control.pendulum import PendulumEnv
from reference.wrappers import ClipReward, TransformReward
from tests.reference.wrappers._differential import compare_rollouts, gym_env, gym_wrapper, pendulum_actions
from tests.reference.wrappers._envs import DiscreteEnv


def test_transform_reward() -> None:
    env = TransformReward(DiscreteEnv(), lambda r: float(r) + 10)
    env.reset()
    assert env.step(2)[1] == 12.0
    with pytest.raises(TypeError, match="func must be callable"):
        TransformReward(DiscreteEnv(), "f")  # type: ignore[arg-type]


@given(
    low=st.none() | st.floats(-3, 3),
    width=st.floats(0, 3),
    no_high=st.booleans(),
    action=st.integers(0, 2),
)
@settings(max_examples=40, deadline=None)
def test_clip_reward_stays_within_bounds(low: float | None, width: float, no_high: bool, action: int) -> None:
    high = None if no_high and low is not None else (0.0 if low is None else low) + width
    env = ClipReward(DiscreteEnv(), min_reward=low, max_reward=high)
    env.reset()
    reward = float(env.step(action)[1])
    assert reward == float(np.clip(float(action), low, high))


@pytest.mark.parametrize(("low", "high"), [(None, None), (1.0, 0.0)])
def test_clip_reward_validates(low: Any, high: Any) -> None:
    with pytest.raises(error.InvalidBound, match="ClipReward min_reward"):
        ClipReward(DiscreteEnv(), low, high)
    with pytest.raises(ValueError):
        ClipReward(DiscreteEnv(), low, high)


@pytest.mark.gymnasium
def test_clip_reward_matches_gymnasium() -> None:
    ours = ClipReward(PendulumEnv(), min_reward=-2.0, max_reward=-0.5)
    theirs = gym_wrapper("ClipReward")(gym_env("PendulumEnv"), min_reward=-2.0, max_reward=-0.5)
    compare_rollouts(ours, theirs, pendulum_actions(), exact=False)
