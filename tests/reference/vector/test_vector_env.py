"""The ``VectorEnv`` base class, the vector wrapper bases and the package surface."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gymspec
import reference.vector as vector
from reference.spaces import Box, Discrete
from reference.vector import (
    AutoresetMode,
    SyncVectorEnv,
    VectorActionWrapper,
    VectorEnv,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)
from tests.reference.vector._helpers import ShortEpisodes


def make(n: int = 2, **kwargs: Any) -> SyncVectorEnv[Any, Any]:
    return SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box") for _ in range(n)], **kwargs)


def test_package_surface() -> None:
    assert vector.AutoresetMode is gymspec.AutoresetMode
    assert vector.__all__ == sorted(vector.__all__)
    assert {"AsyncVectorEnv", "SyncVectorEnv", "VectorEnv", "utils"} <= set(vector.__all__)


def test_base_class_defaults_and_seeding() -> None:
    env: VectorEnv[Any, Any, Any] = VectorEnv()
    env.num_envs = 3
    assert env.metadata == {} and env.spec is None and env.render_mode is None and not env.closed
    assert repr(env) == "VectorEnv(num_envs=3)"
    assert env.unwrapped is env
    env.reset(seed=5)
    assert env.np_random_seed == 5
    generator = np.random.default_rng(1)
    env.np_random = generator
    assert env.np_random is generator and env.np_random_seed == -1
    with pytest.raises(NotImplementedError):
        env.step(None)
    env.close()
    env.close()
    assert env.closed


def test_base_add_info_uses_num_envs() -> None:
    env: VectorEnv[Any, Any, Any] = VectorEnv()
    env.num_envs = 2
    info = env._add_info({}, {"a": 1}, 1)
    assert info["a"].tolist() == [0, 1] and info["_a"].tolist() == [False, True]


def test_close_is_idempotent_and_usable_as_context_manager() -> None:
    with make() as envs:
        envs.reset(seed=0)
    assert envs.closed
    envs.close()


def test_wrapper_reads_through_and_can_override() -> None:
    envs = make(3)
    wrapped: VectorWrapper[Any, Any, Any, Any, Any] = VectorWrapper(envs)
    assert wrapped.num_envs == 3 and wrapped.unwrapped is envs
    assert wrapped.observation_space is envs.observation_space
    assert wrapped.single_action_space is envs.single_action_space
    assert wrapped.metadata is envs.metadata and wrapped.render_mode is None and wrapped.spec is None
    assert repr(wrapped) == "<VectorWrapper, SyncVectorEnv(num_envs=3)>"
    wrapped.action_space = Box(0, 1, (3,))
    wrapped.single_observation_space = Discrete(2)
    wrapped.metadata = {"x": 1}
    assert wrapped.action_space == Box(0, 1, (3,)) and envs.action_space != wrapped.action_space
    assert wrapped.single_observation_space == Discrete(2) and wrapped.metadata == {"x": 1}
    with pytest.raises(AttributeError, match="read-only"):
        wrapped.num_envs = 4
    obs, _ = wrapped.reset(seed=1)
    assert obs.shape == (3, 2)
    assert len(wrapped.np_random_seed) == 3  # type: ignore[arg-type]
    wrapped.close()
    assert envs.closed and wrapped.closed
    with pytest.raises(TypeError, match="must be a reference VectorEnv"):
        VectorWrapper(object())  # type: ignore[arg-type]


class Doubled(VectorObservationWrapper[Any, Any, Any, Any]):
    def observations(self, observations: Any) -> Any:
        return observations * 2


class Flipped(VectorActionWrapper[Any, Any, Any, Any]):
    def actions(self, actions: Any) -> Any:
        return 2 - actions


class Negated(VectorRewardWrapper[Any, Any, Any]):
    def rewards(self, rewards: Any) -> Any:
        return -rewards


def test_observation_action_reward_wrappers() -> None:
    plain, wrapped_env = make(2), make(2)
    wrapped = Negated(Flipped(Doubled(wrapped_env)))
    obs, _ = plain.reset(seed=3)
    wobs, _ = wrapped.reset(seed=3)
    np.testing.assert_array_equal(wobs, obs * 2)
    actions = np.array([0, 2])
    obs, rewards, *_ = plain.step(2 - actions)
    wobs, wrewards, *_ = wrapped.step(actions)
    np.testing.assert_array_equal(wobs, obs * 2)
    np.testing.assert_array_equal(wrewards, -rewards)


def test_observation_wrapper_rejects_same_step_autoreset() -> None:
    with pytest.raises(ValueError, match="NEXT_STEP or DISABLED"):
        Doubled(make(autoreset_mode=AutoresetMode.SAME_STEP))
    Doubled(make(autoreset_mode="Disabled"))
    bare: VectorEnv[Any, Any, Any] = VectorEnv()
    with pytest.warns(UserWarning, match="autoreset_mode"):
        VectorObservationWrapper(bare)
