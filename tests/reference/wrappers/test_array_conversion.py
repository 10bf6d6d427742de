"""Tests for the array-conversion wrappers (skipped unless array-api-compat and the backends are installed)."""

from __future__ import annotations

import pickle
from typing import Any, NamedTuple

import numpy as np
import pytest

import reference.error
from reference.envs.classic_control.cartpole import CartPoleEnv
from tests.reference.wrappers._differential import cartpole_actions

pytest.importorskip("array_api_compat")


class _Pair(NamedTuple):
    a: Any
    b: Any


def test_array_conversion_keeps_structure_and_types() -> None:
    from reference.wrappers.array_conversion import array_conversion

    value = {"x": np.arange(3), "pair": _Pair(np.float32(1.5), [True, None]), "name": "cart", "t": (2, 3.0)}
    converted = array_conversion(value, np)
    assert type(converted["pair"]) is _Pair and converted["name"] == "cart" and converted["pair"].b[1] is None
    np.testing.assert_array_equal(converted["x"], value["x"])
    assert isinstance(converted["t"], tuple) and isinstance(converted["t"][0], np.ndarray)
    with pytest.raises(TypeError, match="array_conversion value must be"):
        array_conversion({"bad": object()}, np)


def test_numpy_array_conversion_round_trip_and_pickling() -> None:
    from reference.wrappers import ArrayConversion

    env = ArrayConversion(CartPoleEnv(), env_xp=np, target_xp=np)
    obs, info = env.reset(seed=3)
    assert isinstance(obs, np.ndarray) and info == {}
    clone = pickle.loads(pickle.dumps(env))
    np.testing.assert_array_equal(clone.reset(seed=3)[0], obs)
    with pytest.raises(ValueError, match="must be an Array API framework"):
        ArrayConversion(CartPoleEnv(), env_xp=np, target_xp=pickle)


def test_numpy_to_torch_matches_gymnasium() -> None:
    torch = pytest.importorskip("torch")
    gym_wrappers = pytest.importorskip("gymnasium.wrappers")
    from gymnasium.envs.classic_control import CartPoleEnv as GymCartPole

    from reference.wrappers import NumpyToTorch

    ours, theirs = NumpyToTorch(CartPoleEnv()), gym_wrappers.NumpyToTorch(GymCartPole())
    obs_a, _ = ours.reset(seed=0)
    obs_b, _ = theirs.reset(seed=0)
    assert isinstance(obs_a, torch.Tensor) and torch.equal(obs_a, obs_b)
    for action in cartpole_actions(40):
        a, b = ours.step(torch.tensor(action)), theirs.step(torch.tensor(action))
        assert torch.equal(a[0], b[0]) and a[1:4] == b[1:4]
        assert type(a[1]) is float and type(a[2]) is bool
        if a[2] or a[3]:
            assert torch.equal(ours.reset()[0], theirs.reset()[0])


def test_vector_numpy_to_torch_matches_gymnasium() -> None:
    torch = pytest.importorskip("torch")
    gym_vector = pytest.importorskip("gymnasium.wrappers.vector")
    from gymnasium.envs.classic_control import CartPoleEnv as GymCartPole
    from gymnasium.vector import SyncVectorEnv as GymSyncVectorEnv

    from reference.vector import SyncVectorEnv
    from reference.wrappers.vector import NumpyToTorch

    ours = NumpyToTorch(SyncVectorEnv([CartPoleEnv] * 3))
    theirs = gym_vector.NumpyToTorch(GymSyncVectorEnv([GymCartPole] * 3))
    assert torch.equal(ours.reset(seed=1)[0], theirs.reset(seed=1)[0])
    for step in range(30):
        actions = torch.tensor([step % 2, 1, 0])
        a, b = ours.step(actions), theirs.step(actions)
        for mine, gyms in zip(a[:4], b[:4]):
            assert isinstance(mine, torch.Tensor) and torch.equal(mine, gyms)
    ours.close()
    theirs.close()


def test_missing_backends_raise_dependency_not_installed() -> None:
    import importlib.util

    import reference.wrappers as wrappers

    for name, module in (("JaxToNumpy", "jax"), ("NumpyToTorch", "torch")):
        if importlib.util.find_spec(module) is None:
            with pytest.raises(reference.error.DependencyNotInstalled, match=f"gymspec\\[{module}\\]"):
                getattr(wrappers, name)
        else:
            assert getattr(wrappers, name).__name__ == name
