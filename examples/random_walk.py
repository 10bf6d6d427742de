"""A custom env written against the gymspec protocols, with no base class.

``RandomWalkEnv`` is a slippery walk on a line of cells: step left (0) or right (1), slip the other way with a
small probability, and the episode ends at either end of the line (+1 on the right, -1 on the left). It keeps its
own NumPy generator, seeded by ``reset(seed=...)``, and uses the reference's spaces, so it shows what an env author
needs to get right for the conformance suite to pass:

    pytest --pyargs conformance --env examples.random_walk:RandomWalkEnv

The assignment at the bottom is checked by mypy and pyright: the class satisfies ``gymspec.Env`` structurally.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import gymspec
from gymspec.errors import ResetNeeded
from reference.spaces import Discrete

__all__ = ["RandomWalkEnv"]

_CELL = 16  # pixels per cell in rgb_array frames


class RandomWalkEnv:
    """A slippery one-dimensional walk.

    Args:
        size: Number of cells, at least 3 (both ends are terminal).
        slip: Probability that a step goes the opposite way.
        render_mode: ``None``, ``"ansi"`` or ``"rgb_array"``.
    """

    metadata: gymspec.Metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, size: int = 7, slip: float = 0.1, render_mode: str | None = None) -> None:
        if not isinstance(size, int) or size < 3:
            raise ValueError(f"RandomWalkEnv size must be an int >= 3, got {size!r}")
        if not 0.0 <= slip <= 1.0:
            raise ValueError(f"RandomWalkEnv slip must be a probability in [0, 1], got {slip!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"RandomWalkEnv render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}"
            )
        self.size = size
        self.slip = slip
        self.render_mode = render_mode
        self.observation_space = Discrete(size)
        self.action_space = Discrete(2)
        # Seeded from entropy until the first reset(seed=...); reset(seed=None) keeps the stream going.
        self._rng = np.random.default_rng()
        self._position: int | None = None

    def reset(
        self, *, seed: int | None = None, options: gymspec.Options | None = None
    ) -> tuple[np.int64, gymspec.InfoDict]:
        if seed is not None:
            self._rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
        self._position = int(self._rng.integers(1, self.size - 1))
        return np.int64(self._position), {}

    def step(self, action: int | np.int64) -> tuple[np.int64, SupportsFloat, bool, bool, gymspec.InfoDict]:
        if self._position is None:
            raise ResetNeeded("RandomWalkEnv.step called before reset: call reset() first")
        if not self.action_space.contains(action):
            raise ValueError(f"RandomWalkEnv action must be 0 or 1, got {action!r}")
        slipped = bool(self._rng.random() < self.slip)
        direction = 1 if (int(action) == 1) != slipped else -1
        self._position += direction
        terminated = self._position in (0, self.size - 1)
        reward = 1.0 if self._position == self.size - 1 else -1.0 if self._position == 0 else 0.0
        return np.int64(self._position), reward, terminated, False, {"slipped": slipped}

    def render(self) -> str | NDArray[np.uint8] | None:
        if self.render_mode is None or self._position is None:
            return None
        if self.render_mode == "ansi":
            return "".join("A" if cell == self._position else "." for cell in range(self.size)) + "\n"
        frame = np.full((_CELL, self.size * _CELL, 3), 255, dtype=np.uint8)
        frame[:, : _CELL] = (200, 60, 60)
        frame[:, -_CELL:] = (60, 160, 60)
        left = self._position * _CELL
        frame[4:-4, left + 4 : left + _CELL - 4] = (40, 40, 200)
        return frame

    def close(self) -> None:
        self._position = None


if TYPE_CHECKING:
    _typed: gymspec.Env[np.int64, int | np.int64] = RandomWalkEnv()
