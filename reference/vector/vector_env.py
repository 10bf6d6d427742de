"""The vector-environment base class, its wrapper bases, and the autoreset mode enum.

A vector environment steps ``num_envs`` sub-environments as one batch: ``step`` takes a batch of actions (an
element of :attr:`VectorEnv.action_space`) and returns batched observations, ``(num_envs,)`` arrays of rewards,
terminations and truncations, and one info dict whose values are batched with ``_key`` masks. How a sub-env whose
episode ended is reset is declared by ``metadata["autoreset_mode"]`` (see :class:`AutoresetMode`).

:class:`VectorEnv` lives in :mod:`~reference.vector._base_env` and the wrapper bases in
:mod:`~reference.vector._base_wrappers`; this module gathers them under Gymnasium's module name.
"""

from __future__ import annotations

from gymspec import AutoresetMode
from reference.vector._base_env import ArrayType, VectorEnv
from reference.vector._base_wrappers import (
    VectorActionWrapper,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)

__all__ = [
    "ArrayType",
    "AutoresetMode",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
]
