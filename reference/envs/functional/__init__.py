"""Functional (NumPy, batch-capable) versions of classic-control environments, under Gymnasium's ``phys2d`` ids.

:func:`register_functional_envs` registers ``phys2d/CartPole-v0``, ``phys2d/CartPole-v1`` and
``phys2d/Pendulum-v0``; ``make`` gives a ``FunctionalEnv`` and ``make_vec`` (by default) a ``FunctionalVectorEnv``
that steps every sub-environment with one batched call.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import TypeAlias

__all__ = ["FUNCTIONAL_ENV_IDS", "register_functional_envs"]

_Kwargs: TypeAlias = dict[str, Any]

_CARTPOLE = "reference.envs.functional.cartpole"
_PENDULUM = "reference.envs.functional.pendulum"

# id -> register() arguments; kept in one table so the ids are listed once.
_SPECS: dict[str, _Kwargs] = {
    "phys2d/CartPole-v0": {
        "entry_point": f"{_CARTPOLE}:CartPoleFunctionalEnv",
        "vector_entry_point": f"{_CARTPOLE}:CartPoleFunctionalVectorEnv",
        "max_episode_steps": 200,
        "reward_threshold": 195.0,
    },
    "phys2d/CartPole-v1": {
        "entry_point": f"{_CARTPOLE}:CartPoleFunctionalEnv",
        "vector_entry_point": f"{_CARTPOLE}:CartPoleFunctionalVectorEnv",
        "max_episode_steps": 500,
        "reward_threshold": 475.0,
    },
    "phys2d/Pendulum-v0": {
        "entry_point": f"{_PENDULUM}:PendulumFunctionalEnv",
        "vector_entry_point": f"{_PENDULUM}:PendulumFunctionalVectorEnv",
        "max_episode_steps": 200,
    },
}

FUNCTIONAL_ENV_IDS = tuple(_SPECS)
"""The ids :func:`register_functional_envs` registers."""


def register_functional_envs() -> None:
    """Register the functional environments' ids; ids already registered are left as they are (idempotent).

    Unlike Gymnasium, the passive environment checker stays enabled: these envs return NumPy data it can check.
    """
    from reference.registration import register, registry

    for env_id, kwargs in _SPECS.items():
        if env_id not in registry:
            register(id=env_id, **kwargs)
