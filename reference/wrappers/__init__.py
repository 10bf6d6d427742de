"""Single-environment wrappers, Gymnasium-compatible names and constructors, grouped by family.

* common: :class:`TimeLimit`, :class:`OrderEnforcing`, :class:`PassiveEnvChecker`, :class:`Autoreset`,
  :class:`RecordEpisodeStatistics`
* rendering: :class:`RenderCollection`, :class:`HumanRendering`, :class:`RecordVideo` (PNG frames),
  :class:`AddWhiteNoise`, :class:`ObstructView`
* transform_action: :class:`TransformAction`, :class:`ClipAction`, :class:`RescaleAction`, :class:`DiscretizeAction`
* transform_observation: :class:`TransformObservation`, :class:`FlattenObservation`, :class:`FilterObservation`,
  :class:`DtypeObservation`, :class:`ReshapeObservation`, :class:`RescaleObservation`,
  :class:`GrayscaleObservation`, :class:`AddRenderObservation`, :class:`ResizeObservation`,
  :class:`DiscretizeObservation`
* atari_preprocessing: :class:`AtariPreprocessing`
* array_conversion, numpy_to_torch, jax_to_numpy, jax_to_torch: :class:`ArrayConversion`, :class:`NumpyToTorch`,
  :class:`JaxToNumpy`, :class:`JaxToTorch` (they need array-api-compat and PyTorch or JAX; importing them from
  here without those raises :class:`~reference.error.DependencyNotInstalled`)
* transform_reward: :class:`TransformReward`, :class:`ClipReward`
* stateful_observation: :class:`TimeAwareObservation`, :class:`FrameStackObservation`,
  :class:`NormalizeObservation`, :class:`DelayObservation`, :class:`MaxAndSkipObservation`
* stateful_reward: :class:`NormalizeReward`
* stateful_action: :class:`StickyAction`, :class:`RepeatAction`
* vector: the wrappers for vector environments (:mod:`reference.wrappers.vector`)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from reference.wrappers.atari_preprocessing import AtariPreprocessing
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
from reference.wrappers.transform_action import ClipAction, DiscretizeAction, RescaleAction, TransformAction
from reference.wrappers.transform_observation import (
    AddRenderObservation,
    DiscretizeObservation,
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    ReshapeObservation,
    RescaleObservation,
    ResizeObservation,
    TransformObservation,
)
from reference.wrappers.transform_reward import ClipReward, TransformReward

# Last: the vector wrappers build on the single-env wrappers above.
from reference.wrappers import vector

__all__ = [
    "AddRenderObservation",
    "AddWhiteNoise",
    "ArrayConversion",
    "AtariPreprocessing",
    "Autoreset",
    "ClipAction",
    "ClipReward",
    "DelayObservation",
    "DiscretizeAction",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "FrameStackObservation",
    "GrayscaleObservation",
    "HumanRendering",
    "JaxToNumpy",
    "JaxToTorch",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "NormalizeReward",
    "NumpyToTorch",
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
    "ResizeObservation",
    "StickyAction",
    "TimeAwareObservation",
    "TimeLimit",
    "TransformAction",
    "TransformObservation",
    "TransformReward",
    "vector",
]

if TYPE_CHECKING:
    # Type checkers see the lazily imported classes (and ``__all__`` lists them); at run time ``__getattr__``
    # imports them on first access.
    from reference.wrappers.array_conversion import ArrayConversion
    from reference.wrappers.jax_to_numpy import JaxToNumpy
    from reference.wrappers.jax_to_torch import JaxToTorch
    from reference.wrappers.numpy_to_torch import NumpyToTorch

# These need PyTorch, JAX or array-api-compat, so they are imported on first access (as in Gymnasium): a missing
# backend raises DependencyNotInstalled then, not on ``import reference``.
_LAZY = {
    "ArrayConversion": "array_conversion",
    "JaxToNumpy": "jax_to_numpy",
    "JaxToTorch": "jax_to_torch",
    "NumpyToTorch": "numpy_to_torch",
}
_RENAMED = {
    "AutoResetWrapper": "Autoreset",
    "FrameStack": "FrameStackObservation",
    "PixelObservationWrapper": "AddRenderObservation",
    "VectorListInfo": "vector.DictInfoToList",
}


def __getattr__(name: str) -> type:
    if name in _LAZY:
        wrapper: type = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        return wrapper
    if name in _RENAMED:
        # Gymnasium's wording, which code may parse to find the new name.
        raise AttributeError(f"{name!r} has been renamed with `wrappers.{_RENAMED[name]}`")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
