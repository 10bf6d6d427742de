"""Single-environment wrappers, Gymnasium-compatible names and constructors, grouped by family.

* common: :class:`TimeLimit`, :class:`OrderEnforcing`, :class:`PassiveEnvChecker`, :class:`Autoreset`,
  :class:`RecordEpisodeStatistics`
* rendering: :class:`RenderCollection`, :class:`HumanRendering`, :class:`RecordVideo` (PNG frames),
  :class:`AddWhiteNoise`, :class:`ObstructView`
* transform_action: :class:`TransformAction`, :class:`ClipAction`, :class:`RescaleAction`
* transform_observation: :class:`TransformObservation`, :class:`FlattenObservation`, :class:`FilterObservation`,
  :class:`DtypeObservation`, :class:`ReshapeObservation`, :class:`RescaleObservation`,
  :class:`GrayscaleObservation`, :class:`AddRenderObservation`
* transform_reward: :class:`TransformReward`, :class:`ClipReward`
* stateful_observation: :class:`TimeAwareObservation`, :class:`FrameStackObservation`,
  :class:`NormalizeObservation`, :class:`DelayObservation`, :class:`MaxAndSkipObservation`
* stateful_reward: :class:`NormalizeReward`
* stateful_action: :class:`StickyAction`, :class:`RepeatAction`
* vector: the wrappers for vector environments (:mod:`reference.wrappers.vector`)
"""

from __future__ import annotations

from reference.wrappers.common import Autoreset, OrderEnforcing, PassiveEnvChecker, RecordEpisodeStatistics, TimeLimit
from reference.wrappers.rendering import AddWhiteNoise, HumanRendering, ObstructView, RecordVideo, RenderCollection
from reference.wrappers.stateful_action import RepeatAction, StickyAction
from reference.wrappers.stateful_observation import (
    DelayObservation,
    FrameStackObservation,
    MaxAndSkipObservation,
    NormalizeObservation,
    TimeAwareObservation,
)
from reference.wrappers.stateful_reward import NormalizeReward
from reference.wrappers.transform_action import ClipAction, RescaleAction, TransformAction
from reference.wrappers.transform_observation import (
    AddRenderObservation,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    ReshapeObservation,
    RescaleObservation,
    TransformObservation,
)
from reference.wrappers.transform_reward import ClipReward, TransformReward

# Last: the vector wrappers build on the single-env wrappers above.
from reference.wrappers import vector

__all__ = [
    "AddRenderObservation",
    "AddWhiteNoise",
    "Autoreset",
    "ClipAction",
    "ClipReward",
    "DelayObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "FrameStackObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "ObstructView",
    "OrderEnforcing",
    "PassiveEnvChecker",
    "RecordEpisodeStatistics",
    "RecordVideo",
    "RenderCollection",
    "RepeatAction",
    "RescaleAction",
    "RescaleObservation",
    "ReshapeObservation",
    "StickyAction",
    "TimeAwareObservation",
    "TimeLimit",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "vector",
]
