"""Tests for reference.wrappers.stateful_observation, stateful_reward and stateful_action."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import error
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.envs.classic_control.pendulum import PendulumEnv
from reference.spaces import Box, Dict, Discrete
from reference.wrappers import (
    DelayObservation,
    FrameStackObservation,
    MaxAndSkipObservation,
    NormalizeObservation,
    NormalizeReward,
    RepeatAction,
    StickyAction,
    TimeAwareObservation,
    TimeLimit,
)
from tests.reference.wrappers._differential import (
    cartpole_actions,
    compare_rollouts,
    gym_env,
    gym_wrapper,
    pendulum_actions,
)
from tests.reference.wrappers._envs import BoxEnv, DictEnv, DiscreteEnv, TupleEnv


@given(delay=st.integers(0, 4), steps=st.integers(1, 8))
@settings(max_examples=25, deadline=None)
def test_delay_observation(delay: int, steps: int) -> None:
    env = DelayObservation(DiscreteEnv(length=100), delay)
    seen = [env.reset()[0]] + [env.step(0)[0] for _ in range(steps)]
    truth = list(range(steps + 1))
    expected = [0] * delay + [t % 5 for t in truth]
    assert seen == expected[: steps + 1]


def test_delay_observation_validates() -> None:
    with pytest.raises(TypeError, match="delay must be an int"):
        DelayObservation(DiscreteEnv(), 1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="delay must be >= 0"):
        DelayObservation(DiscreteEnv(), -1)


def test_time_aware_observation_spaces() -> None:
    flat = TimeAwareObservation(TimeLimit(BoxEnv(length=10), 4))
    assert flat.observation_space.shape == (4,)
    obs, _ = flat.reset()
    assert obs[-1] == 0 and flat.step(np.zeros(2, np.float32))[0][-1] == 1
    as_dict = TimeAwareObservation(TimeLimit(DictEnv(), 4), flatten=False, dict_time_key="t")
    assert set(as_dict.observation_space.spaces) == {"t", "pos", "count"}  # type: ignore[attr-defined]
    assert as_dict.reset()[0]["t"].tolist() == [0]
    as_tuple = TimeAwareObservation(TimeLimit(TupleEnv(), 4), flatten=False, normalize_time=True)
    assert len(as_tuple.reset()[0]) == 4
    with pytest.raises(ValueError, match="must be wrapped by a TimeLimit"):
        TimeAwareObservation(BoxEnv())
    with pytest.raises(ValueError, match="dict_time_key must not already be an observation key"):
        TimeAwareObservation(TimeLimit(DictEnv(), 3), dict_time_key="pos")


@pytest.mark.parametrize("padding_type", ["reset", "zero", "custom"])
@given(stack_size=st.integers(1, 4), steps=st.integers(0, 5))
@settings(max_examples=15, deadline=None)
def test_frame_stack_observation(padding_type: str, stack_size: int, steps: int) -> None:
    pad = np.full(3, 0.5, np.float32)
    env = FrameStackObservation(BoxEnv(length=100), stack_size, padding_type=pad if padding_type == "custom" else padding_type)
    assert env.observation_space == Box(-1.0, 1.0, (stack_size, 3), np.float32)
    history = [env.unwrapped.reset()[0]]
    obs, _ = env.reset()
    for step in range(steps):
        action = np.array([step / 10, -step / 10], np.float32)
        history.append(np.array([action[0], action[1], (step + 1) / 100], np.float32))
        obs = env.step(action)[0]
    padding = {"reset": history[0], "zero": np.zeros(3, np.float32), "custom": pad}[padding_type]
    expected = ([padding] * stack_size + history)[-stack_size:]
    np.testing.assert_allclose(obs, np.stack(expected), rtol=1e-6)


def test_frame_stack_validates() -> None:
    with pytest.raises(TypeError, match="stack_size must be an int"):
        FrameStackObservation(BoxEnv(), 2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="stack_size must be positive"):
        FrameStackObservation(BoxEnv(), 0)
    with pytest.raises(ValueError, match="padding_type must be 'reset', 'zero' or an element"):
        FrameStackObservation(BoxEnv(), 2, padding_type="ones")


def test_frame_stack_other_spaces() -> None:
    vector_utils = pytest.importorskip("reference.vector.utils")
    del vector_utils
    env = FrameStackObservation(DictEnv(), 2, padding_type="zero")
    obs, _ = env.reset()
    assert obs["count"].tolist() == [0, 0]
    assert env.step(0)[0]["count"].tolist() == [0, 1]
    assert obs in env.observation_space


def test_normalize_observation() -> None:
    env = NormalizeObservation(BoxEnv(length=1000))
    assert env.observation_space == Box(-np.inf, np.inf, (3,), np.float32)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    for _ in range(200):
        obs = env.step(rng.uniform(-1, 1, 2).astype(np.float32))[0]
    assert obs.dtype == np.float32
    assert np.all(np.abs(env.obs_rms.mean[:2]) < 0.2)
    env.update_running_mean = False
    frozen = env.obs_rms.mean.copy()
    env.step(np.ones(2, np.float32))
    np.testing.assert_array_equal(env.obs_rms.mean, frozen)
    with pytest.raises(error.InvalidBound, match="epsilon must be > 0"):
        NormalizeObservation(BoxEnv(), epsilon=0)


def test_normalize_reward() -> None:
    env = NormalizeReward(DiscreteEnv(length=1000), gamma=0.5)
    env.reset()
    rewards = [float(env.step(2)[1]) for _ in range(100)]
    assert rewards[-1] == pytest.approx(2.0 / np.sqrt(env.return_rms.var + 1e-8))
    env.update_running_mean = False
    var = env.return_rms.var
    env.step(0)
    assert env.return_rms.var == var
    for gamma, epsilon in ((1.5, 1e-8), (0.9, 0.0)):
        with pytest.raises(error.InvalidBound):
            NormalizeReward(DiscreteEnv(), gamma=gamma, epsilon=epsilon)


def test_max_and_skip_observation() -> None:
    env = MaxAndSkipObservation(DiscreteEnv(length=100), skip=3)
    env.reset()
    obs, reward, terminated, truncated, _ = env.step(1)
    assert (int(obs), reward, terminated, truncated) == (3, 3.0, False, False)
    short = MaxAndSkipObservation(DiscreteEnv(length=2), skip=4)
    short.reset()
    assert short.step(1)[1:3] == (2.0, True)
    with pytest.raises(ValueError, match="skip must be >= 2"):
        MaxAndSkipObservation(DiscreteEnv(), skip=1)
    with pytest.raises(TypeError, match="skip must be an int"):
        MaxAndSkipObservation(DiscreteEnv(), skip=2.0)  # type: ignore[arg-type]


def test_sticky_action_validates() -> None:
    for probability in (-0.1, 1.0):
        with pytest.raises(error.InvalidProbability):
            StickyAction(DiscreteEnv(), probability)
    with pytest.raises(error.InvalidBound, match="low <= high"):
        StickyAction(DiscreteEnv(), 0.5, (3, 2))
    for duration in (0, (0, 2), (1, 2, 3), "2"):
        with pytest.raises(ValueError, match="repeat_action_duration must be"):
            StickyAction(DiscreteEnv(), 0.5, duration)  # type: ignore[arg-type]


def test_repeat_action() -> None:
    env = RepeatAction(DiscreteEnv(length=5), num_repeats=3)
    env.reset()
    assert env.step(2)[1:3] == (6.0, False)
    assert env.step(1)[1:3] == (2.0, True)
    with pytest.raises(ValueError, match="num_repeats must be >= 1"):
        RepeatAction(DiscreteEnv(), 0)


@pytest.mark.gymnasium
@pytest.mark.parametrize(
    ("name", "kwargs", "env_name"),
    [
        ("NormalizeObservation", {}, "CartPoleEnv"),
        ("NormalizeReward", {"gamma": 0.9}, "PendulumEnv"),
        ("FrameStackObservation", {"stack_size": 3}, "CartPoleEnv"),
        ("FrameStackObservation", {"stack_size": 2, "padding_type": "zero"}, "PendulumEnv"),
        ("DelayObservation", {"delay": 2}, "CartPoleEnv"),
        ("MaxAndSkipObservation", {"skip": 3}, "PendulumEnv"),
        ("StickyAction", {"repeat_action_probability": 0.5, "repeat_action_duration": (1, 3)}, "CartPoleEnv"),
        ("RepeatAction", {"num_repeats": 2}, "PendulumEnv"),
    ],
)
def test_matches_gymnasium(name: str, kwargs: dict[str, Any], env_name: str) -> None:
    import reference.wrappers as ours_module

    base: Any = CartPoleEnv() if env_name == "CartPoleEnv" else PendulumEnv()
    ours_env = TimeLimit(base, 25)
    theirs_env = gym_wrapper("TimeLimit")(gym_env(env_name), 25)
    actions = cartpole_actions(80) if env_name == "CartPoleEnv" else pendulum_actions(60)
    ours = getattr(ours_module, name)(ours_env, **kwargs)
    theirs = gym_wrapper(name)(theirs_env, **kwargs)
    compare_rollouts(ours, theirs, actions, exact=name not in ("NormalizeObservation", "NormalizeReward"))


@pytest.mark.gymnasium
def test_time_aware_matches_gymnasium() -> None:
    ours = TimeAwareObservation(TimeLimit(CartPoleEnv(), 30), normalize_time=True)
    theirs = gym_wrapper("TimeAwareObservation")(gym_wrapper("TimeLimit")(gym_env("CartPoleEnv"), 30), normalize_time=True)
    compare_rollouts(ours, theirs, cartpole_actions(40))
    assert ours.observation_space.shape == theirs.observation_space.shape


def test_spaces_are_updated() -> None:
    assert DelayObservation(DiscreteEnv(), 1).observation_space == Discrete(5)
    assert isinstance(TimeAwareObservation(TimeLimit(DictEnv(), 3), flatten=False).observation_space, Dict)
