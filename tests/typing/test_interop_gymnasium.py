"""Gymnasium's own objects satisfy the ``runtime_checkable`` gymspec protocols at run time.

The typed assignments below are also checked by mypy and pyright (``test_mypy.py``, ``test_pyright.py``), together
with the checked-only cases of ``positive/gymnasium_cases.py``. Gymnasium is imported directly behind a module-level
skip, so it keeps its precise types for the checkers (``pytest.importorskip`` would make it ``Any``).
"""

from __future__ import annotations

import importlib.util

import pytest

if importlib.util.find_spec("gymnasium") is None:
    pytest.skip("gymnasium (the test-only peer) is not installed", allow_module_level=True)

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium.envs.classic_control.cartpole import CartPoleEnv  # noqa: E402
from gymnasium.envs.toy_text.frozen_lake import FrozenLakeEnv  # noqa: E402
from gymnasium.experimental.functional import FuncEnv as GymFuncEnv  # noqa: E402
from gymnasium.spaces import (  # noqa: E402
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Text,
    Tuple,
)
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv  # noqa: E402
from gymnasium.wrappers import (  # noqa: E402
    ClipAction,
    FlattenObservation,
    OrderEnforcing,
    RecordEpisodeStatistics,
    TimeLimit,
    TransformReward,
)
from numpy.typing import NDArray  # noqa: E402

import gymspec  # noqa: E402
from gymspec._typing import InfoDict, NDArrayAny  # noqa: E402

FloatArray = NDArray[np.float32]


def test_env_subclasses_are_envs() -> None:
    cartpole: gymspec.Env[FloatArray, int | NDArrayAny] = CartPoleEnv()
    lake: gymspec.Env[int | np.int64, int] = FrozenLakeEnv()
    assert isinstance(cartpole, gymspec.Env)
    assert isinstance(lake, gymspec.Env)
    with_random: gymspec.HasNpRandom = CartPoleEnv()
    assert isinstance(with_random, gymspec.HasNpRandom)


def test_make_result_is_env_and_has_optional_parts() -> None:
    env = gym.make("CartPole-v1")
    as_env: gymspec.Env[FloatArray, int] = env
    as_spec: gymspec.HasSpec = env
    as_unwrapped: gymspec.HasUnwrapped = env
    as_attrs: gymspec.SupportsWrapperAttrs = env
    as_random: gymspec.HasNpRandom = env
    assert env.spec is not None
    spec: gymspec.EnvSpecLike = env.spec
    assert spec.id == "CartPole-v1"
    for obj, proto in [
        (as_env, gymspec.Env),
        (as_spec, gymspec.HasSpec),
        (as_unwrapped, gymspec.HasUnwrapped),
        (as_attrs, gymspec.SupportsWrapperAttrs),
        (as_random, gymspec.HasNpRandom),
    ]:
        assert isinstance(obj, proto)
    env.close()


def test_wrappers_are_wrappers() -> None:
    base = CartPoleEnv()
    limited: gymspec.Wrapper[FloatArray, int, FloatArray, int] = TimeLimit(base, 10)
    ordered: gymspec.Wrapper[FloatArray, int, FloatArray, int] = OrderEnforcing(base)
    stats: gymspec.Wrapper[FloatArray, int, FloatArray, int] = RecordEpisodeStatistics(base)
    rewards: gymspec.Wrapper[FloatArray, int, FloatArray, int] = TransformReward(base, lambda r: r)
    flat: gymspec.Env[NDArrayAny, int] = FlattenObservation(gym.make("CartPole-v1"))
    pendulum = gym.make("Pendulum-v1")
    clipped: gymspec.Env[NDArrayAny, NDArrayAny] = ClipAction(pendulum)
    for wrapper in (limited, ordered, stats, rewards):
        assert isinstance(wrapper, gymspec.Wrapper)
        assert wrapper.unwrapped is base
    assert isinstance(flat, gymspec.Env) and isinstance(clipped, gymspec.Env)
    pendulum.close()


def test_spaces_are_spaces() -> None:
    box: gymspec.Space[FloatArray] = Box(-1.0, 1.0, (3,), np.float32)
    discrete: gymspec.Space[np.int64] = Discrete(3)
    multi_discrete: gymspec.Space[NDArrayAny] = MultiDiscrete([2, 3])
    multi_binary: gymspec.Space[NDArrayAny] = MultiBinary(4)
    text: gymspec.Space[str] = Text(5)
    tup: gymspec.Space[tuple[object, ...]] = Tuple((Discrete(2), Box(0, 1)))
    dct: gymspec.Space[InfoDict] = Dict({"a": Discrete(2)})
    seq: gymspec.Space[object] = Sequence(Discrete(2))
    graph: gymspec.Space[object] = Graph(Box(0, 1, (2,)), Discrete(2))
    one_of: gymspec.Space[object] = OneOf((Discrete(2), Box(0, 1)))
    shaped: list[gymspec.Space[object]] = [box, discrete, multi_discrete, multi_binary, text, tup, dct, seq, graph, one_of]
    for space in shaped:
        assert isinstance(space, gymspec.Space)
        assert space.contains(space.sample())
    assert isinstance(box, gymspec.BoxLike)
    assert isinstance(discrete, gymspec.DiscreteLike)
    assert isinstance(multi_discrete, gymspec.MultiDiscreteLike)
    assert isinstance(tup, gymspec.CompositeLike) and isinstance(dct, gymspec.CompositeLike)
    jsonable: gymspec.SupportsJsonable = Box(-1.0, 1.0, (3,), np.float32)
    assert isinstance(jsonable, gymspec.SupportsJsonable)


def test_vector_envs_are_vector_envs() -> None:
    envs = SyncVectorEnv([CartPoleEnv, CartPoleEnv])
    sync: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = envs
    made: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = gym.make_vec("CartPole-v1", num_envs=2)
    modes: gymspec.AutoresettingVectorEnv[NDArrayAny, NDArrayAny] = envs
    declared: gymspec.HasMetadata = envs
    assert isinstance(sync, gymspec.VectorEnv) and isinstance(made, gymspec.VectorEnv)
    assert isinstance(modes, gymspec.AutoresettingVectorEnv)
    assert gymspec.autoreset_mode_of(declared.metadata["autoreset_mode"]) is gymspec.AutoresetMode.NEXT_STEP
    sync.close()
    made.close()


def test_async_vector_env_class_is_vector_env() -> None:
    envs = AsyncVectorEnv([CartPoleEnv, CartPoleEnv])
    try:
        as_vector: gymspec.VectorEnv[NDArrayAny, NDArrayAny] = envs
        modes: gymspec.AutoresettingVectorEnv[NDArrayAny, NDArrayAny] = envs
        assert isinstance(as_vector, gymspec.VectorEnv)
        assert isinstance(modes, gymspec.AutoresettingVectorEnv)
        assert as_vector.num_envs == 2
    finally:
        envs.close()


def test_registry_module_supports_make() -> None:
    registry: gymspec.SupportsMake = gym
    vec_registry: gymspec.SupportsMakeVec = gym
    assert isinstance(registry, gymspec.SupportsMake) and isinstance(vec_registry, gymspec.SupportsMakeVec)


class _Walk(GymFuncEnv[int, np.int64, np.int64, float, bool, None, None]):
    """A functional env on Gymnasium's base class, written as its docs write one: the spaces are class attributes."""

    observation_space = Discrete(5)
    action_space = Discrete(2)


def test_functional_env_base_is_func_env() -> None:
    # The base class, structurally (checked by mypy and pyright): Gymnasium's FuncEnv leaves every function
    # abstract and declares the spaces without setting them, so at run time a subclass that sets them is checked.
    # Its concrete CartPoleFunctional needs JAX, so positive/gymnasium_cases.py checks it without running it.
    def build(
        env: GymFuncEnv[object, object, object, object, object, object, object],
    ) -> gymspec.FuncEnv[object, object, object, object, object, object, object]:
        return env

    del build
    as_walk: gymspec.FuncEnv[int, np.int64, np.int64, float, bool, None, None] = _Walk()
    assert isinstance(as_walk, gymspec.FuncEnv)
