"""Wrappers that corrupt rendered frames with noise, for robustness experiments (re-exported by ``rendering``)."""

from __future__ import annotations

from typing import TypeAlias

import numpy as np
from numpy.typing import NDArray

import gymspec
from gymspec import RenderResult
from reference._framework import require_bool
from reference.core import ActType, ObsType, Wrapper
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import is_int, require_real
from reference.wrappers.utils import ProbabilityError

__all__ = ["AddWhiteNoise", "ObstructView"]

_Frame: TypeAlias = NDArray[np.uint8]


def _noise(rng: np.random.Generator, shape: tuple[int, ...], grayscale: bool) -> _Frame:
    if grayscale:
        luma = 255 * np.array([0.2989, 0.587, 0.114])
        grey = rng.integers((0, 0, 0), luma, size=shape, dtype=np.uint8).sum(-1, keepdims=True)
        return np.repeat(grey, 3, axis=-1).astype(np.uint8)
    return rng.integers(0, 255, size=shape, dtype=np.uint8)


class AddWhiteNoise(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Replace each pixel of the rendered frame by random noise with a fixed probability (drawn from ``np_random``).

    Args:
        env: The environment to wrap (``rgb_array`` rendering).
        probability_of_noise_per_pixel: The probability, in ``[0, 1)``.
        is_noise_grayscale: Use grey noise instead of coloured noise.

    Raises:
        InvalidProbability: If the probability is outside ``[0, 1)`` (also a ``ValueError``).

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = AddWhiteNoise(CartPoleEnv(render_mode="rgb_array"), probability_of_noise_per_pixel=0.5)
        >>> _ = env.reset(seed=0)
        >>> env.render().shape
        (400, 600, 3)
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        probability_of_noise_per_pixel: float,
        is_noise_grayscale: bool = False,
    ) -> None:
        require_real("AddWhiteNoise", "probability_of_noise_per_pixel", probability_of_noise_per_pixel)
        require_bool("AddWhiteNoise", is_noise_grayscale=is_noise_grayscale)
        if not 0 <= probability_of_noise_per_pixel < 1:
            raise ProbabilityError(
                f"AddWhiteNoise probability_of_noise_per_pixel must be in [0, 1), got {probability_of_noise_per_pixel!r}"
            )
        RecordConstructorArgs.__init__(
            self, probability_of_noise_per_pixel=probability_of_noise_per_pixel, is_noise_grayscale=is_noise_grayscale
        )
        Wrapper.__init__(self, env)
        self.probability_of_noise_per_pixel = probability_of_noise_per_pixel
        self.is_noise_grayscale = is_noise_grayscale

    def render(self) -> RenderResult:
        """Render the inner environment and add noise.

        Returns:
            The noisy frame.
        """
        frame = np.asarray(self.env.render())
        noise = _noise(self.np_random, frame.shape, self.is_noise_grayscale)
        mask = self.np_random.random(frame.shape[0:2]) < self.probability_of_noise_per_pixel
        return np.where(mask[..., None], noise, frame)


class ObstructView(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Cover random square patches of the rendered frame with noise (drawn from ``np_random``).

    Args:
        env: The environment to wrap (``rgb_array`` rendering).
        obstructed_pixels_ratio: Roughly the fraction of pixels covered, in ``[0, 1)``.
        obstruction_width: The side of each square patch, at least 1.
        is_noise_grayscale: Use grey noise instead of coloured noise.

    Raises:
        ValueError: If the ratio is outside ``[0, 1)`` or the width is below 1.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = ObstructView(CartPoleEnv(render_mode="rgb_array"), obstructed_pixels_ratio=0.2, obstruction_width=20)
        >>> _ = env.reset(seed=0)
        >>> env.render().shape
        (400, 600, 3)
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        obstructed_pixels_ratio: float,
        obstruction_width: int,
        is_noise_grayscale: bool = False,
    ) -> None:
        require_real("ObstructView", "obstructed_pixels_ratio", obstructed_pixels_ratio)
        require_bool("ObstructView", is_noise_grayscale=is_noise_grayscale)
        if not 0 <= obstructed_pixels_ratio < 1:
            raise ValueError(f"ObstructView obstructed_pixels_ratio must be in [0, 1), got {obstructed_pixels_ratio!r}")
        if not is_int(obstruction_width):
            raise TypeError(f"ObstructView obstruction_width must be an int, got {describe(obstruction_width)}")
        if obstruction_width < 1:
            raise ValueError(f"ObstructView obstruction_width must be >= 1, got {obstruction_width!r}")
        RecordConstructorArgs.__init__(
            self,
            obstructed_pixels_ratio=obstructed_pixels_ratio,
            obstruction_width=obstruction_width,
            is_noise_grayscale=is_noise_grayscale,
        )
        Wrapper.__init__(self, env)
        self.obstruction_centers_ratio = obstructed_pixels_ratio / obstruction_width**2
        self.obstruction_width = obstruction_width
        self.is_noise_grayscale = is_noise_grayscale

    def render(self) -> RenderResult:
        """Render the inner environment and obstruct patches.

        Returns:
            The obstructed frame.
        """
        frame = np.asarray(self.env.render())
        height, width = frame.shape[0], frame.shape[1]
        n_pixels = height * width
        centers = self.np_random.integers(0, n_pixels, int(n_pixels * self.obstruction_centers_ratio))
        rows, cols = np.unravel_index(centers, (height, width))
        mask = np.zeros((height, width), dtype=bool)
        low = self.obstruction_width // 2
        high = self.obstruction_width - low
        for row, col in zip(rows, cols):
            mask[max(row - low, 0) : min(row + high, height), max(col - low, 0) : min(col + high, width)] = True
        noise = _noise(self.np_random, frame.shape, self.is_noise_grayscale)
        return np.where(mask[..., None], noise, frame)
