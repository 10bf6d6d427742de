"""Wrappers for vector environments, Gymnasium-compatible names and constructors, grouped by family.

* common: :class:`RecordEpisodeStatistics`
* dict_info_to_list: :class:`DictInfoToList`
* vectorize_observation: :class:`TransformObservation`, :class:`VectorizeTransformObservation`,
  :class:`FilterObservation`, :class:`FlattenObservation`, :class:`GrayscaleObservation`,
  :class:`ReshapeObservation`, :class:`RescaleObservation`, :class:`DtypeObservation`
* vectorize_action: :class:`TransformAction`, :class:`VectorizeTransformAction`, :class:`ClipAction`,
  :class:`RescaleAction`
* vectorize_reward: :class:`TransformReward`, :class:`VectorizeTransformReward`, :class:`ClipReward`
* stateful_observation: :class:`NormalizeObservation`
* stateful_reward: :class:`NormalizeReward`

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

from reference.wrappers.vector.common import RecordEpisodeStatistics
from reference.wrappers.vector.dict_info_to_list import DictInfoToList
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
    TransformObservation,
    VectorizeTransformObservation,
)
from reference.wrappers.vector.vectorize_reward import ClipReward, TransformReward, VectorizeTransformReward

__all__ = [
    "ClipAction",
    "ClipReward",
    "DictInfoToList",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "RecordEpisodeStatistics",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "VectorizeTransformAction",
    "VectorizeTransformObservation",
    "VectorizeTransformReward",
]
