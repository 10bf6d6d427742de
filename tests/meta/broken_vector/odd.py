"""Correct vector envs that do something unusual but legal which a check once read as a defect (issue 37).

* :class:`Resume` (as ``resume_sync_same_step``): a sub-env whose unseeded reset starts the next episode where the
  last one ended. Under ``"SameStep"`` every ``final_obs`` equals the observation the ending step returned, which
  AUTORESET-002 once read as "``final_obs`` holds the new episode's first observation" (issue 37 item 1). Gymnasium's
  Blackjack hits the same coincidence now and then (a new hand equal to the last one's end).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reference.core import Env
from reference.spaces import Discrete
from reference.vector import SyncVectorEnv

__all__ = ["Resume", "resume_sync_same_step"]

_CELLS = 6
_MAX_STEPS = 8


class Resume(Env[np.int64, np.int64]):
    """A line of six cells and a hidden goal cell: move left or right (slipping a fifth of the time); reaching the goal
    terminates, the eighth step truncates. A seeded reset draws the start; an unseeded one starts where the last
    episode ended (the goal, or wherever the time ran out), with a new goal."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self) -> None:
        self.observation_space = Discrete(_CELLS)
        self.action_space = Discrete(2)
        self._cell: int | None = None
        self._goal = 0
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or self._cell is None:
            self._cell = int(self.np_random.integers(_CELLS))
        others = [cell for cell in range(_CELLS) if cell != self._cell]
        self._goal = int(self.np_random.choice(others))
        self._steps = 0
        return np.int64(self._cell), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._cell is None:
            raise RuntimeError("Resume step needs a reset first; call reset()")
        move = 1 if int(action) == 1 else -1
        if self.np_random.random() < 0.2:
            move = -move
        self._cell = int(np.clip(self._cell + move, 0, _CELLS - 1))
        self._steps += 1
        terminated = self._cell == self._goal
        truncated = not terminated and self._steps >= _MAX_STEPS
        return np.int64(self._cell), 1.0 if terminated else 0.0, terminated, truncated, {}


def resume_sync_same_step(num_envs: int) -> SyncVectorEnv[Any, Any]:
    """A reference ``SyncVectorEnv`` of :class:`Resume` sub-envs, ``"SameStep"``."""
    return SyncVectorEnv([Resume for _ in range(num_envs)], autoreset_mode="SameStep")
