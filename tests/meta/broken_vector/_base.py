"""The correct sub-env every broken vector env is built over, and the correct vector envs themselves.

``Hop`` is a noisy 1-D hop with short episodes: the action (0, 1, 2) pushes left, not at all, or right (by ``push``,
its one constructor argument); noise comes from the env's own generator; the episode terminates when ``|x| >= 2.5``
and truncates after 10 steps, so both endings happen within a few steps. Its info always has ``"steps"`` and, only
while ``x > 1``, an array ``"edge"``, so batched info masks vary from sub-env to sub-env.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference.spaces import Box, Discrete
from reference.vector import AsyncVectorEnv, SyncVectorEnv

__all__ = ["Hop", "HopAsync", "HopSync"]

_LIMIT = 2.5
_MAX_STEPS = 10


class Hop(Env[NDArray[np.float32], np.int64]):
    """A correct single env with short episodes, both endings and a sometimes-present array info key."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, push: float = 0.7) -> None:
        self.observation_space = Box(-5.0, 5.0, (2,), np.float32)
        self.action_space = Discrete(3)
        self._push = push
        self._x = 0.0
        self._t = 0

    def _obs(self) -> NDArray[np.float32]:
        return np.array([np.clip(self._x, -5.0, 5.0), self._t / _MAX_STEPS], dtype=np.float32)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._x = float(self.np_random.uniform(-1.0, 1.0))
        self._t = 0
        return self._obs(), {"steps": 0}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self.action_space.contains(action):
            raise ValueError(f"Hop action must be an element of {self.action_space}, got {action!r}")
        self._x += (int(action) - 1) * self._push + float(self.np_random.normal(0.0, 0.3))
        self._t += 1
        terminated = abs(self._x) >= _LIMIT
        truncated = not terminated and self._t >= _MAX_STEPS
        info: dict[str, Any] = {"steps": self._t}
        if self._x > 1.0:
            info["edge"] = np.array([self._x, -self._x])
        reward = 1.0 if terminated else -0.1 * abs(self._x)
        return self._obs(), reward, terminated, truncated, info


class HopSync(SyncVectorEnv[Any, Any]):
    """A correct ``SyncVectorEnv`` of ``Hop`` sub-envs.

    Args:
        num_envs: The number of sub-envs.
        autoreset_mode: The mode (a string value or the enum).
        **kwargs: Further ``SyncVectorEnv`` arguments (``copy``...).
    """

    def __init__(self, num_envs: int, autoreset_mode: Any = "NextStep", **kwargs: Any) -> None:
        super().__init__([Hop for _ in range(num_envs)], autoreset_mode=autoreset_mode, **kwargs)


class HopAsync(AsyncVectorEnv[Any, Any]):
    """A correct ``AsyncVectorEnv`` of ``Hop`` sub-envs (two workers at most, to go easy on small machines).

    Args:
        num_envs: The number of sub-envs.
        autoreset_mode: The mode.
        shared_memory: Whether observations travel through shared memory.
    """

    def __init__(self, num_envs: int, autoreset_mode: Any = "NextStep", shared_memory: bool = True) -> None:
        super().__init__([Hop for _ in range(num_envs)], autoreset_mode=autoreset_mode, shared_memory=shared_memory,
                         num_workers=min(2, num_envs))
