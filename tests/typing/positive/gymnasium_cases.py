"""Gymnasium's own classes satisfy the gymspec protocols: checked by mypy and pyright, never executed.

This module imports Gymnasium directly (not through ``pytest.importorskip``, which would make it ``Any`` and let
every assignment pass), including modules that need JAX at run time (``phys2d``): type checkers only read it.
``tests/typing/test_mypy.py`` and ``tests/typing/test_pyright.py`` fail if any assignment below stops type-checking.
"""

from __future__ import annotations

from typing import Any, TypeVar

from typing_extensions import TypeAlias

import gymnasium
import numpy as np
from gymnasium.envs.classic_control.cartpole import CartPoleEnv, CartPoleVectorEnv
from gymnasium.envs.phys2d.cartpole import CartPoleFunctional, CartPoleParams, RenderStateType
from gymnasium.envs.toy_text.frozen_lake import FrozenLakeEnv
from gymnasium.spaces import Box, Dict, Discrete, Graph, MultiBinary, MultiDiscrete, OneOf, Sequence, Text, Tuple
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv
from gymnasium.wrappers import (
    ClipAction,
    FlattenObservation,
    OrderEnforcing,
    RecordEpisodeStatistics,
    TimeLimit,
    TransformReward,
)
from numpy.typing import NDArray

import gymspec
from gymspec._typing import NDArrayAny

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")
FloatArray = NDArray[np.float32]
JaxArray: TypeAlias = Any
"""``jax.Array``: JAX is not a test dependency, so its arrays are unknown to the checkers here."""


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
    """A function generic over the env's type parameters."""
    return env.reset(seed=0)[0]


def readme_example_accepts_gymnasium_envs() -> None:
    rollout(CartPoleEnv(), 10)
    rollout(FrozenLakeEnv(), 10)
    rollout(gymnasium.make("CartPole-v1"), 10)


def generic_function_accepts_gymnasium_envs() -> None:
    first_observation(CartPoleEnv())
    first_observation(FrozenLakeEnv())


def env_classes_are_envs() -> None:
    cartpole: gymspec.Env[NDArrayAny, int] = CartPoleEnv()
    cartpole_arrays: gymspec.Env[NDArrayAny, NDArrayAny] = CartPoleEnv()
    lake: gymspec.Env[int | np.int64, int] = FrozenLakeEnv()
    with_random: gymspec.HasNpRandom = CartPoleEnv()
    with_metadata: gymspec.HasMetadata = CartPoleEnv()
    del cartpole, cartpole_arrays, lake, with_random, with_metadata


def make_result_is_env_with_optional_parts() -> None:
    env = gymnasium.make("CartPole-v1")
    as_env: gymspec.Env[FloatArray, int] = env
    as_spec: gymspec.HasSpec = env
    as_unwrapped: gymspec.HasUnwrapped = env
    as_attrs: gymspec.SupportsWrapperAttrs = env
    as_random: gymspec.HasNpRandom = env
    as_metadata: gymspec.HasMetadata = env
    if env.spec is not None:
        spec: gymspec.EnvSpecLike = env.spec
        del spec
    del as_env, as_spec, as_unwrapped, as_attrs, as_random, as_metadata


def wrappers_are_wrappers() -> None:
    base = CartPoleEnv()
    limited: gymspec.Wrapper[NDArrayAny, int, NDArrayAny, int] = TimeLimit(base, 10)
    ordered: gymspec.Wrapper[NDArrayAny, int, NDArrayAny, int] = OrderEnforcing(base)
    stats: gymspec.Wrapper[NDArrayAny, int, NDArrayAny, int] = RecordEpisodeStatistics(base)
    rewards: gymspec.Wrapper[NDArrayAny, int, NDArrayAny, int] = TransformReward(base, lambda r: r)
    flat: gymspec.Env[NDArrayAny, int] = FlattenObservation(gymnasium.make("CartPole-v1"))
    clipped: gymspec.Env[NDArrayAny, NDArrayAny] = ClipAction(gymnasium.make("Pendulum-v1"))
    del limited, ordered, stats, rewards, flat, clipped


def spaces_are_spaces() -> None:
    box: gymspec.Space[FloatArray] = Box(-1.0, 1.0, (3,), np.float32)
    discrete: gymspec.Space[np.int64] = Discrete(3)
    multi_discrete: gymspec.Space[NDArrayAny] = MultiDiscrete([2, 3])
    multi_binary: gymspec.Space[NDArrayAny] = MultiBinary(4)
    text: gymspec.Space[str] = Text(5)
    tup: gymspec.Space[tuple[object, ...]] = Tuple((Discrete(2), Box(0, 1)))
    dct: gymspec.Space[dict[str, object]] = Dict({"a": Discrete(2)})
    seq: gymspec.Space[object] = Sequence(Discrete(2))
    graph: gymspec.Space[object] = Graph(Box(0, 1, (2,)), Discrete(2))
    one_of: gymspec.Space[object] = OneOf((Discrete(2), Box(0, 1)))
    box_like: gymspec.BoxLike = Box(-1.0, 1.0, (3,), np.float32)
    discrete_like: gymspec.DiscreteLike = Discrete(3)
    multi_discrete_like: gymspec.MultiDiscreteLike = MultiDiscrete([2, 3])
    multi_binary_like: gymspec.MultiBinaryLike = MultiBinary(4)
    composite: gymspec.CompositeLike = Tuple((Discrete(2),))
    jsonable: gymspec.SupportsJsonable = Box(-1.0, 1.0, (3,), np.float32)
    del box, discrete, multi_discrete, multi_binary, text, tup, dct, seq, graph, one_of
    del box_like, discrete_like, multi_discrete_like, multi_binary_like, composite, jsonable


def vector_envs_are_vector_envs() -> None:
    sync: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = SyncVectorEnv([CartPoleEnv, CartPoleEnv])
    asynchronous: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = AsyncVectorEnv([CartPoleEnv, CartPoleEnv])
    made: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = gymnasium.make_vec("CartPole-v1", num_envs=2)
    cartpole: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = CartPoleVectorEnv(num_envs=2)
    modes: gymspec.AutoresettingVectorEnv[NDArrayAny, NDArrayAny] = CartPoleVectorEnv(num_envs=2)
    with_metadata: gymspec.HasMetadata = CartPoleVectorEnv(num_envs=2)
    del sync, asynchronous, made, cartpole, modes, with_metadata


def modules_are_registries() -> None:
    registry: gymspec.SupportsMake = gymnasium
    vec_registry: gymspec.SupportsMakeVec = gymnasium
    del registry, vec_registry


def functional_env_is_func_env() -> None:
    # CartPoleFunctional needs JAX to run, not to be type-checked: its states and arrays are JAX arrays (unknown
    # without JAX), while its params, render state and every signature are checked as written.
    cartpole: gymspec.FuncEnv[
        JaxArray, JaxArray, int, JaxArray, JaxArray, RenderStateType, CartPoleParams
    ] = CartPoleFunctional()
    del cartpole
