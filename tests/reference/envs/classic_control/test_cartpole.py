"""CartPoleEnv: differential against Gymnasium, plus the reference's stricter argument checks."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.spaces.box import Box
from reference.spaces.discrete import Discrete
from tests.reference.envs._differential import discrete_actions, run_lockstep

gym_cartpole = pytest.importorskip("gymnasium.envs.classic_control.cartpole")
pytestmark = pytest.mark.gymnasium

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=80, deadline=None)
@given(seed=seeds, actions=discrete_actions(2), sutton_barto=st.booleans())
def test_matches_gymnasium(seed: int, actions: list[int], sutton_barto: bool) -> None:
    ours = CartPoleEnv(sutton_barto_reward=sutton_barto)
    theirs = gym_cartpole.CartPoleEnv(sutton_barto_reward=sutton_barto)
    run_lockstep(ours, theirs, seed, actions)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, actions=discrete_actions(2, max_size=100), bound=st.floats(0.0, 0.2))
def test_matches_gymnasium_with_reset_bounds_and_semi_implicit_euler(
    seed: int, actions: list[int], bound: float
) -> None:
    ours, theirs = CartPoleEnv(), gym_cartpole.CartPoleEnv()
    ours.kinematics_integrator = theirs.kinematics_integrator = "semi-implicit euler"
    run_lockstep(ours, theirs, seed, actions, options={"low": -bound, "high": bound})


def test_steps_after_termination_match_gymnasium_and_warn_once() -> None:
    ours, theirs = CartPoleEnv(), gym_cartpole.CartPoleEnv()
    ours.reset(seed=3)
    theirs.reset(seed=3)
    terminated = False
    while not terminated:
        _, _, terminated, _, _ = ours.step(1)
        theirs.step(1)
    with pytest.warns(UserWarning, match="after the episode terminated") as record:
        for _ in range(3):
            obs, reward, terminated, _, _ = ours.step(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                expected = theirs.step(0)
            assert obs.tobytes() == expected[0].tobytes()
            assert reward == expected[1] == 0.0
            assert terminated is True
    assert len([w for w in record if "after the episode terminated" in str(w.message)]) == 1


@pytest.mark.parametrize("action", [2, -1, 1.0, "1", None, np.array([1]), np.float32(1.0)])
def test_invalid_action_is_rejected(action: object) -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"CartPoleEnv action must be an integer in \[0, 2\)"):
        env.step(action)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        env.step(action)  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [True, np.int8(1), np.array(0, dtype=np.int64), np.uint64(0)])
def test_integer_like_actions_are_accepted(action: object) -> None:
    env = CartPoleEnv()
    env.reset(seed=0)
    obs, *_ = env.step(action)  # type: ignore[arg-type]
    assert obs.dtype == np.float32


def test_step_before_reset_raises_reset_needed() -> None:
    with pytest.raises(ResetNeeded, match="reset"):
        CartPoleEnv().step(0)


def test_state_property_round_trips_and_drives_the_dynamics() -> None:
    ours, theirs = CartPoleEnv(), gym_cartpole.CartPoleEnv()
    assert ours.state is None
    state = np.array([0.1, -0.2, 0.05, 0.3])
    ours.state = state
    theirs.state = state.copy()
    got = ours.state
    assert got is not None and got.dtype == np.float64 and np.array_equal(got, state)
    ours.steps_beyond_terminated = None
    theirs.steps_beyond_terminated = None
    assert ours.step(1)[0].tobytes() == theirs.step(1)[0].tobytes()
    with pytest.raises(ValueError, match=r"CartPoleEnv state must have shape \(4,\)"):
        ours.state = np.zeros(3)


def test_bad_reset_bounds_are_rejected() -> None:
    env = CartPoleEnv()
    with pytest.raises(ValueError, match="low"):
        env.reset(options={"low": 0.1, "high": -0.1})
    with pytest.raises(ValueError, match="real number"):
        env.reset(options={"low": "a lot"})


def test_spaces_match_gymnasium() -> None:
    ours, theirs = CartPoleEnv(), gym_cartpole.CartPoleEnv()
    assert isinstance(ours.observation_space, Box) and isinstance(ours.action_space, Discrete)
    assert ours.observation_space.dtype == theirs.observation_space.dtype
    assert np.array_equal(ours.observation_space.low, theirs.observation_space.low)
    assert np.array_equal(ours.observation_space.high, theirs.observation_space.high)
    assert int(ours.action_space.n) == int(theirs.action_space.n)
