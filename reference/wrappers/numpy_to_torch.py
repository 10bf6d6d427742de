"""Drive a NumPy environment with PyTorch tensors (needs ``pip install "gymspec[torch]"``).

Importing this module without PyTorch or array-api-compat raises :class:`~reference.error.DependencyNotInstalled`.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from reference.core import ActType, Env, ObsType
from reference.utils._optional import import_optional
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers.array_conversion import ArrayConversion, Device, array_conversion, module_namespace

torch = import_optional("torch", "reference.wrappers.numpy_to_torch")

__all__ = ["Device", "NumpyToTorch", "numpy_to_torch", "torch_to_numpy"]

torch_to_numpy = functools.partial(array_conversion, xp=module_namespace(np))
"""Convert tensors (or containers of them) to NumPy arrays."""
numpy_to_torch = functools.partial(array_conversion, xp=module_namespace(torch))
"""Convert NumPy arrays (or containers of them) to tensors; pass ``device=`` to place them."""


class NumpyToTorch(ArrayConversion[ObsType, ActType]):
    """Let a NumPy environment take and return PyTorch tensors (rewards stay ``float``, flags ``bool``).

    Args:
        env: The NumPy environment.
        device: The device returned tensors are placed on (``None``: PyTorch's default).

    Example:
        >>> import torch
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = NumpyToTorch(CartPoleEnv())
        >>> obs, _ = env.reset(seed=0)
        >>> type(obs).__name__, obs.dtype
        ('Tensor', torch.float32)
        >>> obs, reward, terminated, truncated, _ = env.step(torch.tensor(1))
        >>> type(obs).__name__, type(reward).__name__, type(terminated).__name__
        ('Tensor', 'float', 'bool')
    """

    def __init__(self, env: Env[ObsType, ActType], device: Device | None = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        ArrayConversion.__init__(self, env=env, env_xp=np, target_xp=torch, target_device=device)
        self.device: Any = device
