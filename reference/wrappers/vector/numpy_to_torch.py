"""Drive a NumPy vector environment with PyTorch tensors (needs ``pip install "gymspec[torch]"``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference.core import ActType, ObsType
from reference.utils.record_constructor import RecordConstructorArgs
from reference.vector.vector_env import VectorEnv
from reference.wrappers.numpy_to_torch import Device, torch
from reference.wrappers.vector.array_conversion import ArrayConversion

__all__ = ["NumpyToTorch"]


class NumpyToTorch(ArrayConversion[ObsType, ActType]):
    """Let a NumPy vector environment take and return PyTorch tensors.

    Args:
        env: The NumPy vector environment.
        device: The device returned tensors are placed on (``None``: PyTorch's default).

    Example:
        >>> import torch
        >>> from reference.envs.classic_control.cartpole import CartPoleVectorEnv
        >>> envs = NumpyToTorch(CartPoleVectorEnv(num_envs=2))
        >>> obs, _ = envs.reset(seed=0)
        >>> obs.shape, obs.dtype
        (torch.Size([2, 4]), torch.float32)
        >>> _, rewards, terminations, _, _ = envs.step(torch.tensor([0, 1]))
        >>> rewards.dtype, terminations.dtype
        (torch.float64, torch.bool)
        >>> envs.close()
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, Any], device: Device | None = None) -> None:
        RecordConstructorArgs.__init__(self, device=device)
        ArrayConversion.__init__(self, env=env, env_xp=np, target_xp=torch, target_device=device)
        self.device: Any = device
