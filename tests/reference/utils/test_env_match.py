"""Tests for reference.utils.env_match.check_environments_match."""

from __future__ import annotations

import pytest

from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.envs.classic_control.mountain_car import MountainCarEnv
from reference.wrappers import TimeLimit, TransformObservation, TransformReward
from reference.utils.env_match import check_environments_match


def test_identical_environments_match_across_resets() -> None:
    check_environments_match(TimeLimit(CartPoleEnv(), 10), TimeLimit(CartPoleEnv(), 10), num_steps=60, seed=3)


def test_rendered_frames_are_compared() -> None:
    check_environments_match(
        CartPoleEnv(render_mode="rgb_array"), CartPoleEnv(render_mode="rgb_array"), num_steps=3, skip_render=False
    )


def test_differences_are_reported_with_their_step() -> None:
    with pytest.raises(AssertionError, match=r"stepping \(step = 0\) reward is not equivalent"):
        check_environments_match(CartPoleEnv(), TransformReward(CartPoleEnv(), lambda r: 2 * float(r)), num_steps=3)
    doubled = TransformReward(CartPoleEnv(), lambda r: 2 * float(r))
    check_environments_match(CartPoleEnv(), doubled, num_steps=3, skip_rew=True)
    with pytest.raises(AssertionError, match="resetting observation is not equivalent"):
        check_environments_match(CartPoleEnv(), TransformObservation(CartPoleEnv(), lambda o: o + 1, None), 2)
    with pytest.raises(AssertionError, match="action spaces differ"):
        check_environments_match(CartPoleEnv(), MountainCarEnv(), num_steps=1)


def test_info_comparison_modes() -> None:
    for mode in ("equivalence", "superset", "keys-equivalence", "keys-superset", "skip"):
        check_environments_match(CartPoleEnv(), CartPoleEnv(), num_steps=2, info_comparison=mode)
    with pytest.raises(ValueError, match="info_comparison must be one of"):
        check_environments_match(CartPoleEnv(), CartPoleEnv(), num_steps=1, info_comparison="nope")
