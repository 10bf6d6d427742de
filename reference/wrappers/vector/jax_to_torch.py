"""Drive a JAX vector environment with PyTorch tensors (needs ``pip install "gymspec[jax,torch]"``)."""

from __future__ import annotations

from typing import Any

from reference.core import ActType, ObsType
from reference.utils.record_constructor import RecordConstructorArgs
from reference.vector.vector_env import VectorEnv
from reference.wrappers.jax_to_torch import Device, jnp, torch
from reference.wrappers.vector.array_conversion import ArrayConversion

__all__ = ["JaxToTorch"]


class JaxToTorch(ArrayConversion[ObsType, ActType]):
    """Let a JAX vector environment take and return PyTorch tensors.

    Args:
        env: The JAX vector environment.
        device: The device returned tensors are placed on (``None``: PyTorch's default).

    Example:
        >>> import jax.numpy as jnp
        >>> import torch
        >>> from reference.envs.classic_control.cartpole import CartPoleVectorEnv
        >>> from reference.wrappers.vector import TransformObservation
        >>> jax_envs = TransformObservation(CartPoleVectorEnv(num_envs=2), jnp.asarray)
        >>> envs = JaxToTorch(jax_envs)
        >>> obs, _ = envs.reset(seed=0)
        >>> type(obs).__name__, tuple(obs.shape)
        ('Tensor', (2, 4))
        >>> envs.close()
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, Any], device: Device | None = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        ArrayConversion.__init__(self, env=env, env_xp=jnp, target_xp=torch, target_device=device)
        self.device: Any = device
