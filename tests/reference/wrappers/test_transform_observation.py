"""Tests for reference.wrappers.transform_observation."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.envs.classic_control.pendulum import PendulumEnv
from reference.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Tuple
from reference.spaces.utils import flatten_space
from reference.wrappers import (
    AddRenderObservation,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    ReshapeObservation,
    RescaleObservation,
    TransformObservation,
)
from tests.reference.wrappers._differential import (
    cartpole_actions,
    compare_rollouts,
    gym_env,
    gym_wrapper,
    pendulum_actions,
)
from tests.reference.wrappers._envs import BoxEnv, DictEnv, DiscreteEnv, TupleEnv


def _rollout_in_space(env: Any, steps: int = 4) -> None:
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
    for _ in range(steps):
        obs = env.step(env.action_space.sample())[0]
        assert obs in env.observation_space


def test_transform_observation_validates() -> None:
    with pytest.raises(TypeError, match="func must be callable"):
        TransformObservation(BoxEnv(), None, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="observation_space must be a Space or None"):
        TransformObservation(BoxEnv(), lambda o: o, 3)  # type: ignore[arg-type]


@pytest.mark.parametrize("make_env", [BoxEnv, DiscreteEnv, DictEnv, TupleEnv])
def test_flatten_observation(make_env: Any) -> None:
    inner = make_env()
    env = FlattenObservation(inner)
    assert env.observation_space == flatten_space(inner.observation_space)
    _rollout_in_space(env)


def test_filter_observation() -> None:
    env = FilterObservation(DictEnv(), ["pos"])
    assert env.observation_space == Dict({"pos": Box(-5.0, 5.0, (2,), np.float32)})
    _rollout_in_space(env)
    tuple_env = FilterObservation(TupleEnv(), [2, 0])
    assert tuple_env.observation_space == Tuple((Discrete(2), Discrete(4)))
    assert tuple_env.reset()[0] == (0, 0)


@pytest.mark.parametrize(
    ("make_env", "keys", "exc", "fragment"),
    [
        (DictEnv, "pos", TypeError, "must be a sequence of keys"),
        (DictEnv, ["nope"], ValueError, "missing keys \\['nope'\\]"),
        (DictEnv, [0], TypeError, "must all be str for a Dict"),
        (DictEnv, [], ValueError, "at least one key"),
        (TupleEnv, [0, 0], ValueError, "must not repeat"),
        (TupleEnv, [5], ValueError, "out-of-range \\[5\\]"),
        (TupleEnv, ["a"], TypeError, "must all be int for a Tuple"),
        (BoxEnv, ["a"], ValueError, "must be a Dict or a Tuple"),
    ],
)
def test_filter_observation_validates(make_env: Any, keys: Any, exc: type[Exception], fragment: str) -> None:
    with pytest.raises(exc, match=fragment):
        FilterObservation(make_env(), keys)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.uint8])
def test_dtype_observation(dtype: Any) -> None:
    env = DtypeObservation(DiscreteEnv(), dtype)
    assert env.observation_space == Box(0, 4, (), dtype)
    obs, _ = env.reset()
    assert np.asarray(obs).dtype == dtype
    inner = TransformObservation(DiscreteEnv(), lambda o: np.array([o % 2, 1], np.int8), MultiBinary(2))
    assert DtypeObservation(inner, dtype).observation_space == Box(0, 1, (2,), dtype)
    md = TransformObservation(DiscreteEnv(), lambda o: np.array([o]), MultiDiscrete([5]))
    assert DtypeObservation(md, np.int32).observation_space.dtype == np.int32
    with pytest.raises(TypeError, match="must be a Box, Discrete, MultiDiscrete or MultiBinary"):
        DtypeObservation(DictEnv(), dtype)


@given(shape=st.sampled_from([(3, 1), (1, 3), (-1,), (3,), (1, -1, 1)]))
@settings(max_examples=10, deadline=None)
def test_reshape_observation(shape: tuple[int, ...]) -> None:
    env = ReshapeObservation(BoxEnv(), shape)
    assert env.observation_space.shape == np.zeros(3).reshape(shape).shape
    _rollout_in_space(env)


@pytest.mark.parametrize(
    ("shape", "exc", "fragment"),
    [((2, 2), ValueError, "as many elements"), ([3], TypeError, "tuple of ints"), ((0, 3), ValueError, "positive"),
     ((-1, -1), ValueError, "at most one -1")],
)
def test_reshape_observation_validates(shape: Any, exc: type[Exception], fragment: str) -> None:
    with pytest.raises(exc, match=fragment):
        ReshapeObservation(BoxEnv(), shape)


@given(low=st.floats(-10, 10, width=32), width=st.floats(0.5, 10, width=32))
@settings(max_examples=25, deadline=None)
def test_rescale_observation_keeps_observations_in_the_new_space(low: float, width: float) -> None:
    env = RescaleObservation(BoxEnv(), np.float32(low), np.float32(low + width))
    obs, _ = env.reset()
    np.testing.assert_allclose(obs, low + width / 2, rtol=1e-4, atol=1e-4)
    for action in ([1.0, -1.0], [0.5, 0.25]):
        obs = env.step(np.asarray(action, np.float32))[0]
        assert np.all(obs >= low - 1e-4) and np.all(obs <= low + width + 1e-4)


def test_grayscale_observation() -> None:
    image = Box(0, 255, (3, 2, 3), np.uint8)
    rgb = TransformObservation(BoxEnv(), lambda o: np.full((3, 2, 3), [10, 200, 30], np.uint8), image)
    env = GrayscaleObservation(rgb)
    assert env.observation_space == Box(0, 255, (3, 2), np.uint8)
    assert env.reset()[0].tolist() == [[int(10 * 0.2125 + 200 * 0.7154 + 30 * 0.0721)] * 2] * 3
    assert GrayscaleObservation(rgb, keep_dim=True).reset()[0].shape == (3, 2, 1)
    with pytest.raises(ValueError, match="must be \\(height, width, 3\\)"):
        GrayscaleObservation(BoxEnv())


def test_add_render_observation() -> None:
    env = AddRenderObservation(BoxEnv(render_mode="rgb_array"))
    assert env.observation_space == Box(0, 255, (6, 8, 3), np.uint8)
    env.reset()
    assert env.step(np.zeros(2, np.float32))[0][0, 0, 0] == 1
    both = AddRenderObservation(BoxEnv(render_mode="rgb_array"), render_only=False, obs_key="o", render_key="p")
    assert set(both.observation_space.spaces) == {"o", "p"}  # type: ignore[attr-defined]
    _rollout_in_space(both)
    with_dict = AddRenderObservation(
        TransformObservation(BoxEnv(render_mode="rgb_array"), lambda o: {"x": o}, Dict({"x": Box(-1, 1, (3,))})),
        render_only=False,
    )
    assert set(with_dict.observation_space.spaces) == {"x", "pixels"}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="must produce frames"):
        AddRenderObservation(BoxEnv())


@pytest.mark.gymnasium
@pytest.mark.parametrize(
    ("name", "kwargs", "env_name"),
    [
        ("FlattenObservation", {}, "CartPoleEnv"),
        ("DtypeObservation", {"dtype": np.float64}, "CartPoleEnv"),
        ("ReshapeObservation", {"shape": (2, 2)}, "CartPoleEnv"),
        ("RescaleObservation", {"min_obs": np.float32(0.0), "max_obs": np.float32(1.0)}, "PendulumEnv"),
        ("RescaleObservation", {"min_obs": np.array([0, -2, 1], np.float32), "max_obs": np.array([1, 2, 9], np.float32)},
         "PendulumEnv"),
    ],
)
def test_matches_gymnasium(name: str, kwargs: dict[str, Any], env_name: str) -> None:
    import reference.wrappers as ours_module

    ours_env = CartPoleEnv() if env_name == "CartPoleEnv" else PendulumEnv()
    actions = cartpole_actions() if env_name == "CartPoleEnv" else pendulum_actions()
    ours = getattr(ours_module, name)(ours_env, **kwargs)
    theirs = gym_wrapper(name)(gym_env(env_name), **kwargs)
    compare_rollouts(ours, theirs, actions)
