"""Correct envs that do something unusual but legal which a check once (or nearly) read as a defect (issue 37).

Each is a control: it must pass every rule without a warning (:data:`tests.meta.broken.catalog.CORRECT`), and each
names the check it guards in its docstring.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reference.core import Env
from reference.error import ResetNeeded
from reference.spaces import Discrete

__all__ = ["ContextualBandit"]

_CONTEXTS = 5
_BANDIT_STEPS = 20


class ContextualBandit(Env[np.int64, np.int64]):
    """A contextual bandit: each observation is a fresh draw of a context from the env's generator, by ``reset`` and
    by ``step`` alike; the reward says whether the action matched the last context; drawing context 0 ends the
    episode, the twentieth step truncates it. Its terminal observation is, by design, what a reset from the state
    before that step would draw: ENV-024 once read that as "step reset the env by itself" (issue 37 item 1)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode is not None:
            raise ValueError(f"ContextualBandit render_mode must be None (it declares no mode), got {render_mode!r}")
        self.observation_space = Discrete(_CONTEXTS)
        self.action_space = Discrete(_CONTEXTS)
        self._context: int | None = None
        self._steps = 0

    def _draw(self) -> int:
        return int(self.np_random.integers(_CONTEXTS))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._context = self._draw()
        self._steps = 0
        return np.int64(self._context), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._context is None:
            raise ResetNeeded("ContextualBandit step needs a reset first; call reset()")
        reward = 1.0 if int(action) == self._context else 0.0
        self._context = self._draw()
        self._steps += 1
        terminated = self._context == 0
        return np.int64(self._context), reward, terminated, not terminated and self._steps >= _BANDIT_STEPS, {}

