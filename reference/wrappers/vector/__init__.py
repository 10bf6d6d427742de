"""Wrappers for vector environments, Gymnasium-compatible names and constructors, grouped by family.

* common: :class:`RecordEpisodeStatistics`
* dict_info_to_list: :class:`DictInfoToList`
* vectorize_observation: :class:`TransformObservation`, :class:`VectorizeTransformObservation`,
  :class:`FilterObservation`, :class:`FlattenObservation`, :class:`GrayscaleObservation`,
  :class:`ReshapeObservation`, :class:`RescaleObservation`, :class:`ResizeObservation`, :class:`DtypeObservation`
* vectorize_action: :class:`TransformAction`, :class:`VectorizeTransformAction`, :class:`ClipAction`,
  :class:`RescaleAction`
* vectorize_reward: :class:`TransformReward`, :class:`VectorizeTransformReward`, :class:`ClipReward`
* stateful_observation: :class:`NormalizeObservation`
* stateful_reward: :class:`NormalizeReward`
* rendering: :class:`HumanRendering`, :class:`RecordVideo`
* array_conversion, numpy_to_torch, jax_to_numpy, jax_to_torch: :class:`ArrayConversion`, :class:`NumpyToTorch`,
  :class:`JaxToNumpy`, :class:`JaxToTorch` (loaded on first use; they need array-api-compat and PyTorch or JAX)

Every wrapper works over :class:`~reference.vector.SyncVectorEnv` and :class:`~reference.vector.AsyncVectorEnv`.
Observation wrappers reject ``SameStep`` autoreset (its final observations would escape them), and
:class:`NormalizeObservation` needs ``NextStep``; the other wrappers support every autoreset mode.

Example:
    >>> import numpy as np
    >>> from reference.envs.classic_control.pendulum import PendulumEnv
    >>> from reference.vector import SyncVectorEnv
    >>> from reference.wrappers.vector import ClipAction, NormalizeReward, RecordEpisodeStatistics
    >>> envs = RecordEpisodeStatistics(NormalizeReward(ClipAction(SyncVectorEnv([PendulumEnv] * 2))))
    >>> _ = envs.reset(seed=0)
    >>> obs, rewards, terminations, truncations, info = envs.step(np.full((2, 1), 10.0, dtype=np.float32))
    >>> obs.shape, rewards.shape, info
    ((2, 3), (2,), {})
    >>> envs.close()
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from reference.wrappers.vector.common import RecordEpisodeStatistics
from reference.wrappers.vector.dict_info_to_list import DictInfoToList
from reference.wrappers.vector.rendering import HumanRendering, RecordVideo
from reference.wrappers.vector.stateful_observation import NormalizeObservation
from reference.wrappers.vector.stateful_reward import NormalizeReward
from reference.wrappers.vector.vectorize_action import (
    ClipAction,
    RescaleAction,
    TransformAction,
    VectorizeTransformAction,
)
from reference.wrappers.vector.vectorize_observation import (
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    ResizeObservation,
    TransformObservation,
    VectorizeTransformObservation,
)
from reference.wrappers.vector.vectorize_reward import ClipReward, TransformReward, VectorizeTransformReward

__all__ = [
    "ArrayConversion",
    "ClipAction",
    "ClipReward",
    "DictInfoToList",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToTorch",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorizeTransformAction",
    "VectorizeTransformObservation",
    "VectorizeTransformReward",
]

if TYPE_CHECKING:
    # Type checkers see the lazily imported classes (and ``__all__`` lists them); at run time ``__getattr__``
    # imports them on first access.
    from reference.wrappers.vector.array_conversion import ArrayConversion
    from reference.wrappers.vector.jax_to_numpy import JaxToNumpy
    from reference.wrappers.vector.jax_to_torch import JaxToTorch
    from reference.wrappers.vector.numpy_to_torch import NumpyToTorch

# These need PyTorch, JAX or array-api-compat, so they are imported on first access (as in Gymnasium).
_LAZY = {
    "ArrayConversion": "array_conversion",
    "JaxToNumpy": "jax_to_numpy",
    "JaxToTorch": "jax_to_torch",
    "NumpyToTorch": "numpy_to_torch",
}


def __getattr__(name: str) -> type:
    if name in _LAZY:
        wrapper: type = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        return wrapper
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
