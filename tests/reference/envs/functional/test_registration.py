"""The phys2d ids: registered idempotently, made as FunctionalEnv / FunctionalVectorEnv."""

from __future__ import annotations

import warnings

import numpy as np

from reference.envs.functional import FUNCTIONAL_ENV_IDS, register_functional_envs
from reference.envs.functional.cartpole import CartPoleFunctionalEnv, CartPoleFunctionalVectorEnv
from reference.envs.functional.pendulum import PendulumFunctionalEnv, PendulumFunctionalVectorEnv
from reference.registration import make, make_vec, registry, spec


def test_registers_the_phys2d_ids_idempotently() -> None:
    register_functional_envs()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # re-registering would warn "Overriding environment"
        register_functional_envs()
    assert FUNCTIONAL_ENV_IDS == ("phys2d/CartPole-v0", "phys2d/CartPole-v1", "phys2d/Pendulum-v0")
    assert all(env_id in registry for env_id in FUNCTIONAL_ENV_IDS)
    assert spec("phys2d/CartPole-v0").max_episode_steps == 200
    assert spec("phys2d/CartPole-v1").max_episode_steps == 500
    assert spec("phys2d/CartPole-v1").reward_threshold == 475.0


def test_make_and_make_vec() -> None:
    register_functional_envs()
    env = make("phys2d/CartPole-v1", sutton_barto_reward=True)
    assert isinstance(env.unwrapped, CartPoleFunctionalEnv)
    env.reset(seed=0)
    assert env.step(0)[1] == 0.0  # the Sutton-Barto reward reached the params
    assert isinstance(make("phys2d/Pendulum-v0").unwrapped, PendulumFunctionalEnv)
    frames = make("phys2d/CartPole-v1", render_mode="rgb_array_list")
    frames.reset(seed=0)
    assert len(frames.render()) == 1  # type: ignore[arg-type]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # "v0 is out of date", as in Gymnasium
        vec = make_vec("phys2d/CartPole-v0", num_envs=3)
    assert isinstance(vec, CartPoleFunctionalVectorEnv) and vec.max_episode_steps == 200 and vec.num_envs == 3
    vec.reset(seed=0)
    assert vec.step(np.array([0, 1, 0]))[1].shape == (3,)
    pendulums = make_vec("phys2d/Pendulum-v0", num_envs=2)
    assert isinstance(pendulums, PendulumFunctionalVectorEnv) and pendulums.max_episode_steps == 200
    synced = make_vec("phys2d/CartPole-v1", num_envs=2, vectorization_mode="sync")
    synced_obs, _ = synced.reset(seed=4)
    native_obs, _ = make_vec("phys2d/CartPole-v1", num_envs=2).reset(seed=4)
    assert np.array_equal(synced_obs, native_obs)  # sub-env i is seeded s + i either way
