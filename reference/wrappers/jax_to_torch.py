"""Drive a JAX environment with PyTorch tensors (needs ``pip install "gymspec[jax,torch]"``).

Importing this module without JAX, PyTorch or array-api-compat raises
:class:`~reference.error.DependencyNotInstalled`.
"""

from __future__ import annotations

import functools
from typing import Any

from reference.core import ActType, Env, ObsType
from reference.utils._optional import import_optional
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers.array_conversion import ArrayConversion, Device, array_conversion, module_namespace

jnp = import_optional("jax.numpy", "reference.wrappers.jax_to_torch")
torch = import_optional("torch", "reference.wrappers.jax_to_torch")

__all__ = ["Device", "JaxToTorch", "jax_to_torch", "torch_to_jax"]

torch_to_jax = functools.partial(array_conversion, xp=module_namespace(jnp))
"""Convert tensors (or containers of them) to JAX arrays."""
jax_to_torch = functools.partial(array_conversion, xp=module_namespace(torch))
"""Convert JAX arrays (or containers of them) to tensors; pass ``device=`` to place them."""


class JaxToTorch(ArrayConversion[ObsType, ActType]):
    """Let a JAX environment take and return PyTorch tensors (rewards become ``float``, flags ``bool``).

    Args:
        env: The JAX environment.
        device: The device returned tensors are placed on (``None``: PyTorch's default).

    Example:
        A NumPy environment whose observations are turned into JAX arrays stands in for a JAX environment:

        >>> import jax.numpy as jnp
        >>> import torch
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Discrete
        >>> from reference.wrappers import TransformAction, TransformObservation
        >>> jax_env = TransformAction(TransformObservation(CartPoleEnv(), jnp.asarray, None), int, Discrete(2))
        >>> env = JaxToTorch(jax_env)
        >>> obs, _ = env.reset(seed=0)
        >>> type(obs).__name__, obs.dtype
        ('Tensor', torch.float32)
        >>> _, reward, terminated, _, _ = env.step(torch.tensor(1))
        >>> type(reward).__name__, type(terminated).__name__
        ('float', 'bool')
    """

    def __init__(self, env: Env[ObsType, ActType], device: Device | None = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        ArrayConversion.__init__(self, env=env, env_xp=jnp, target_xp=torch, target_device=device)
        self.device: Any = device
