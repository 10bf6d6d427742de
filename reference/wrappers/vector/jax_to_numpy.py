"""Drive a JAX vector environment with NumPy arrays (needs ``pip install "gymspec[jax]"``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference.core import ActType, ObsType
from reference.utils.record_constructor import RecordConstructorArgs
from reference.vector.vector_env import VectorEnv
from reference.wrappers.jax_to_numpy import jnp
from reference.wrappers.vector.array_conversion import ArrayConversion

__all__ = ["JaxToNumpy"]


class JaxToNumpy(ArrayConversion[ObsType, ActType]):
    """Let a JAX vector environment take and return NumPy arrays.

    Args:
        env: The JAX vector environment.

    Example:
        >>> import jax.numpy as jnp
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleVectorEnv
        >>> from reference.wrappers.vector import TransformObservation
        >>> jax_envs = TransformObservation(CartPoleVectorEnv(num_envs=2), jnp.asarray)
        >>> envs = JaxToNumpy(jax_envs)
        >>> obs, _ = envs.reset(seed=0)
        >>> type(obs).__name__, obs.shape
        ('ndarray', (2, 4))
        >>> envs.close()
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, Any]) -> None:
        RecordConstructorArgs.__init__(self)
        ArrayConversion.__init__(self, env=env, env_xp=jnp, target_xp=np)
