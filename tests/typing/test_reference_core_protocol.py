"""Subclasses of ``reference.core.Env``/``Wrapper`` satisfy the gymspec protocols (mypy-checked, and at run time)."""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import gymspec
from reference.core import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper
from reference.spaces import Box, Discrete

_Obs = NDArray[np.float32]
_Info = dict[str, Any]


class _Walk(Env[_Obs, np.int64]):
    def __init__(self) -> None:
        self.observation_space = Box(-1.0, 1.0, (1,), np.float32)
        self.action_space = Discrete(2)

    def reset(self, *, seed: int | None = None, options: _Info | None = None) -> tuple[_Obs, _Info]:
        super().reset(seed=seed)
        return np.zeros(1, dtype=np.float32), {}

    def step(self, action: np.int64) -> tuple[_Obs, SupportsFloat, bool, bool, _Info]:
        return np.zeros(1, dtype=np.float32), 0.0, False, False, {}

    def render(self) -> None:
        return None


class _Double(ObservationWrapper[_Obs, np.int64, _Obs]):
    def observation(self, observation: _Obs) -> _Obs:
        return observation * 2


class _Negate(RewardWrapper[_Obs, np.int64]):
    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        return -float(reward)


class _Same(ActionWrapper[_Obs, np.int64, np.int64]):
    def action(self, action: np.int64) -> np.int64:
        return action


def test_env_subclass_is_env() -> None:
    env: gymspec.Env[_Obs, np.int64] = _Walk()
    with_random: gymspec.HasNpRandom = _Walk()
    with_spec: gymspec.HasSpec = _Walk()
    with_unwrapped: gymspec.HasUnwrapped = _Walk()
    with_attrs: gymspec.SupportsWrapperAttrs = _Walk()
    for obj, proto in [
        (env, gymspec.Env),
        (with_random, gymspec.HasNpRandom),
        (with_spec, gymspec.HasSpec),
        (with_unwrapped, gymspec.HasUnwrapped),
        (with_attrs, gymspec.SupportsWrapperAttrs),
    ]:
        assert isinstance(obj, proto)


def test_wrapper_subclasses_are_wrappers() -> None:
    base = _Walk()
    plain: gymspec.Wrapper[_Obs, np.int64, _Obs, np.int64] = Wrapper(base)
    doubled: gymspec.Wrapper[_Obs, np.int64, _Obs, np.int64] = _Double(base)
    negated: gymspec.Wrapper[_Obs, np.int64, _Obs, np.int64] = _Negate(base)
    same: gymspec.Wrapper[_Obs, np.int64, _Obs, np.int64] = _Same(base)
    for wrapper in (plain, doubled, negated, same):
        assert isinstance(wrapper, gymspec.Wrapper)
        assert wrapper.unwrapped is base
