"""The ids ``reference.envs`` registers: Gymnasium's spec values, and differential rollouts through ``make``."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference.envs  # noqa: F401 - registers the ids
from reference.registration import make, registry
from tests.reference.envs._differential import box_actions, discrete_actions, run_lockstep, sampled_actions

gym = pytest.importorskip("gymnasium")
pytestmark = pytest.mark.gymnasium

OURS = {
    "CartPole-v0",
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
    "Blackjack-v1",
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Taxi-v4",
}


def _gym_make(env_id: str, **kwargs: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gym.make(env_id, **kwargs)


def test_every_classic_control_and_toy_text_id_is_registered() -> None:
    assert OURS <= set(registry)


@pytest.mark.parametrize("env_id", sorted(OURS))
def test_spec_values_match_gymnasium(env_id: str) -> None:
    ours, theirs = registry[env_id], gym.spec(env_id)
    assert ours.max_episode_steps == theirs.max_episode_steps
    assert ours.reward_threshold == theirs.reward_threshold
    assert ours.kwargs == theirs.kwargs
    assert ours.nondeterministic == theirs.nondeterministic
    assert ours.order_enforce == theirs.order_enforce
    assert ours.disable_env_checker == theirs.disable_env_checker
    assert isinstance(ours.entry_point, str) and isinstance(theirs.entry_point, str)
    assert ours.entry_point == theirs.entry_point.replace("gymnasium.", "reference.", 1)
    # Where Gymnasium has a hand-vectorised env (CartPole), ours is the batched functional CartPole.
    assert (ours.vector_entry_point is None) == (theirs.vector_entry_point is None)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), actions=box_actions(-2.0, 2.0, min_size=210, max_size=260))
def test_pendulum_truncates_like_gymnasium(seed: int, actions: list[np.ndarray]) -> None:
    assert run_lockstep(make("Pendulum-v1"), _gym_make("Pendulum-v1"), seed, actions) == 1


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), actions=discrete_actions(6, min_size=210, max_size=260))
def test_taxi_truncates_like_gymnasium(seed: int, actions: list[int]) -> None:
    assert run_lockstep(make("Taxi-v4"), _gym_make("Taxi-v4"), seed, actions) >= 1


@pytest.mark.filterwarnings("ignore:.*CartPole-v0 is out of date")
@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("CartPole-v0", {}),
        ("CartPole-v1", {"sutton_barto_reward": True}),
        ("MountainCar-v0", {}),
        ("Acrobot-v1", {}),
        ("FrozenLake8x8-v1", {"is_slippery": False}),
        ("CliffWalkingSlippery-v1", {}),
        ("Blackjack-v1", {"sab": False, "natural": True}),
    ],
)
def test_made_environments_match_gymnasium(env_id: str, kwargs: dict[str, Any]) -> None:
    ours, theirs = make(env_id, **kwargs), _gym_make(env_id, **kwargs)
    assert ours.spec is not None and ours.spec.max_episode_steps == theirs.spec.max_episode_steps
    for seed in (0, 1):
        run_lockstep(ours, theirs, seed, sampled_actions(theirs.action_space, seed, 300))
    ours.close()
    theirs.close()
