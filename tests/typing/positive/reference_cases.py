"""The reference's envs, wrappers, functional envs and registry satisfy the gymspec protocols: checked, never run.

The wrappers are also checked the other way round: they accept any object that satisfies ``gymspec.Env``, such as
the duck-typed env of ``tests/typing/_duck.py`` or one of Gymnasium's envs.
"""

from __future__ import annotations

from typing import TypeVar

import gymnasium
import numpy as np
from numpy.typing import NDArray

import gymspec
import reference
from gymspec._typing import NDArrayAny
from reference.envs._rendering import Canvas
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.envs.functional.cartpole import CartPoleFunctional, CartPoleParams
from reference.envs.toy_text.frozen_lake import FrozenLakeEnv
from reference.vector import SyncVectorEnv
from reference.wrappers import (
    Autoreset,
    OrderEnforcing,
    PassiveEnvChecker,
    RecordEpisodeStatistics,
    StickyAction,
    TimeLimit,
    TransformReward,
)
from tests.typing._duck import DuckEnv

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")
_Rewards = np.float64 | NDArray[np.float64]
_Flags = np.bool_ | NDArray[np.bool_]


def rollout(env: gymspec.Env[gymspec.Value, int], steps: int) -> float:
    """README.md's example, verbatim."""
    env.reset(seed=0)
    total = 0.0
    for _ in range(steps):
        _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        total += float(reward)
        if terminated or truncated:
            env.reset()
    return total


def first_observation(env: gymspec.Env[ObsT, ActT]) -> ObsT:
    return env.reset(seed=0)[0]


def readme_example_accepts_reference_envs() -> None:
    rollout(CartPoleEnv(), 10)
    rollout(FrozenLakeEnv(), 10)
    rollout(reference.make("CartPole-v1"), 10)


def generic_function_keeps_the_observation_type() -> None:
    cart: NDArray[np.float32] = first_observation(CartPoleEnv())
    lake: int | np.int64 = first_observation(FrozenLakeEnv())
    del cart, lake


def envs_are_envs() -> None:
    cartpole: gymspec.Env[NDArray[np.float32], int] = CartPoleEnv()
    lake: gymspec.Env[int | np.int64, int] = FrozenLakeEnv()
    with_parts: gymspec.HasNpRandom = CartPoleEnv()
    with_metadata: gymspec.HasMetadata = CartPoleEnv()
    del cartpole, lake, with_parts, with_metadata


def wrappers_accept_any_env() -> None:
    duck = DuckEnv()
    limited: gymspec.Wrapper[int, int, int, int] = TimeLimit(duck, 10)
    ordered: gymspec.Wrapper[int, int, int, int] = OrderEnforcing(duck)
    autoreset: gymspec.Env[int, int] = Autoreset(duck)
    stats: gymspec.Env[int, int] = RecordEpisodeStatistics(duck)
    checked: gymspec.Env[int, int] = PassiveEnvChecker(duck)
    sticky: gymspec.Env[int, int] = StickyAction(duck, 0.25)
    rewards: gymspec.Env[int, int] = TransformReward(duck, lambda r: r)
    around_gymnasium: gymspec.Env[NDArrayAny, int] = TimeLimit(gymnasium.make("CartPole-v1"), 10)
    del limited, ordered, autoreset, stats, checked, sticky, rewards, around_gymnasium


def functional_env_is_func_env() -> None:
    cartpole: gymspec.FuncEnv[
        NDArray[np.float64], NDArray[np.float32], int, _Rewards, _Flags, Canvas, CartPoleParams
    ] = CartPoleFunctional()
    del cartpole


def vector_env_is_vector_env() -> None:
    envs = SyncVectorEnv([CartPoleEnv, CartPoleEnv])
    sync: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = envs
    with_metadata: gymspec.HasMetadata = envs
    del envs, sync, with_metadata


def module_is_registry() -> None:
    registry: gymspec.SupportsMake = reference
    vec_registry: gymspec.SupportsMakeVec = reference
    del registry, vec_registry
