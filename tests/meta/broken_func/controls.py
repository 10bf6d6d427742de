"""Correct functional envs with unusual-but-legal behaviour that the FUNC rules must pass."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from reference.functional import FuncEnv
from reference.spaces import Box, Discrete

__all__ = ["SingleStates"]

_State = NDArray[np.float64]


class SingleStates(FuncEnv[_State, NDArray[np.float32], Any, Any, Any, Any, None]):
    """A NumPy FuncEnv for single states only: it unpacks its ``[x, v, t]`` state (``x, v, t = state``).

    On a batch of 3 rows the unpacking runs and mixes rows, on a batch of 2 it raises: such an env does not take
    batches, so the batched checks (FUNC-008/009/014) must not apply to it rather than report its garbage.
    """

    def __init__(self) -> None:
        super().__init__()
        self.observation_space = Box(-np.inf, np.inf, shape=(3,), dtype=np.float32)
        self.action_space = Discrete(2)

    def initial(self, rng: Any, params: None = None) -> _State:
        drawn: _State = rng.uniform(-0.5, 0.5, size=(3,))
        return drawn

    def transition(self, state: _State, action: Any, rng: Any, params: None = None) -> _State:
        x, v, t = state
        v = v + (0.1 if int(action) == 1 else -0.1)
        return np.array([x + v, v, t + 1.0])

    def observation(self, state: _State, rng: Any, params: None = None) -> NDArray[np.float32]:
        return np.asarray(state, dtype=np.float32)

    def reward(self, state: _State, action: Any, next_state: _State, rng: Any, params: None = None) -> float:
        x, _, _ = next_state
        return float(-abs(x))

    def terminal(self, state: _State, rng: Any, params: None = None) -> bool:
        x, _, _ = state
        return bool(abs(x) > 3.0)

    def state_info(self, state: _State, params: None = None) -> dict[str, Any]:
        return {}

    def transition_info(self, state: _State, action: Any, next_state: _State, params: None = None) -> dict[str, Any]:
        return {}
