"""Factories for the ecosystem tier's third-party JAX targets: gymnax's Gymnasium adapters.

gymnax 1.0.1 pins ``gymnasium==1.3.0``, so it cannot share an interpreter with the ``test`` extra's Gymnasium 1.4.0:
its verdicts are checked from a venv of its own (pyproject.toml's ``ecosystem-gymnax`` extra). The modules are
imported by name when a factory is called, so this module imports without gymnax.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["gymnax_cartpole", "gymnax_cartpole_vector"]


def _cartpole() -> tuple[Any, Any]:
    gymnax = importlib.import_module("gymnax")
    env, params = gymnax.make("CartPole-v1")
    return env, params


def gymnax_cartpole() -> Any:
    """``GymnaxToGymWrapper`` over gymnax's ``CartPole-v1`` (an ``Env``)."""
    wrappers = importlib.import_module("gymnax.wrappers.gym")
    env, params = _cartpole()
    return wrappers.GymnaxToGymWrapper(env, params)


def gymnax_cartpole_vector(num_envs: int) -> Any:
    """``GymnaxToVectorGymWrapper`` over gymnax's ``CartPole-v1`` (a ``VectorEnv`` of ``num_envs``)."""
    wrappers = importlib.import_module("gymnax.wrappers.gym")
    env, params = _cartpole()
    return wrappers.GymnaxToVectorGymWrapper(env, num_envs=num_envs, params=params)
