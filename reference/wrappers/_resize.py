"""The :class:`ResizeObservation` wrapper (re-exported by ``transform_observation``, where Gymnasium has it)."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference._wrapper import require_env
from reference.core import ActType, Env
from reference.spaces._guards import is_box
from reference.spaces.box import Box
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._image import resize_image
from reference.wrappers._shared import is_int
from reference.wrappers.transform_observation import TransformObservation

__all__ = ["ResizeObservation"]

_Array: TypeAlias = "np.ndarray[Any, Any]"


class ResizeObservation(TransformObservation[_Array, ActType, _Array], RecordConstructorArgs):
    """Resize image observations to ``shape`` (height, width), keeping any channel axis.

    Uses OpenCV's area interpolation when OpenCV is installed (as Gymnasium does), else the NumPy equivalent
    (see :func:`reference.wrappers._image.resize_image`).

    Args:
        env: The environment to wrap; its observation space must be a uint8 Box of 2 or 3 dimensions with
            bounds 0..255.
        shape: The new ``(height, width)``: two positive ints.

    Raises:
        TypeError: If the space is not a Box, ``shape`` is not a tuple or holds non-integers.
        ValueError: If the space is not a uint8 0..255 image, or ``shape`` does not hold two positive ints.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> image = Box(0, 255, (60, 80, 3), dtype=np.uint8)
        >>> frames = TransformObservation(CartPoleEnv(), lambda o: np.zeros((60, 80, 3), np.uint8), image)
        >>> env = ResizeObservation(frames, (30, 40))
        >>> env.observation_space
        Box(0, 255, (30, 40, 3), uint8)
        >>> env.reset(seed=0)[0].shape
        (30, 40, 3)
    """

    def __init__(self, env: Env[_Array, ActType], shape: tuple[int, int]) -> None:
        require_env("ResizeObservation", env)
        inner = env.observation_space
        if not is_box(inner):
            raise TypeError(f"ResizeObservation env.observation_space must be a Box, got {type(inner).__name__}")
        if len(inner.shape) not in (2, 3):
            raise ValueError(f"ResizeObservation observation shape must be (H, W) or (H, W, C), got {inner.shape}")
        if inner.dtype != np.uint8 or not (np.all(inner.low == 0) and np.all(inner.high == 255)):
            raise ValueError(f"ResizeObservation observation space must be uint8 with bounds 0..255, got {inner!r}")
        if not isinstance(shape, tuple):
            raise TypeError(f"ResizeObservation shape must be a tuple (height, width), got {shape!r}")
        if len(shape) != 2:
            raise ValueError(f"ResizeObservation shape must have two elements (height, width), got {shape!r}")
        if not all(is_int(size) for size in shape):
            raise TypeError(f"ResizeObservation shape must hold ints, got {shape!r}")
        if not all(size > 0 for size in shape):
            raise ValueError(f"ResizeObservation shape must hold positive ints, got {shape!r}")
        RecordConstructorArgs.__init__(self, shape=shape)
        self.shape: tuple[int, int] = (int(shape[0]), int(shape[1]))
        space = Box(low=0, high=255, shape=self.shape + inner.shape[2:], dtype=np.uint8)
        TransformObservation.__init__(
            self, env=env, func=lambda obs: resize_image(obs, self.shape), observation_space=space
        )
