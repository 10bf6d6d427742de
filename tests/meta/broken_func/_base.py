"""The correct functional env every broken one starts from.

``Drift`` is a noisy 1-D drift as pure functions of a ``[x, t]`` float64 state: the action (0, 1, 2) pushes left,
not at all, or right by ``params["push"]``, ``transition`` adds noise from ``rng``, the state is terminal once
``|x| > params["limit"]``, and the observation is ``[x, t]`` as float32 (``x`` clipped to the space). It renders a
small frame, and every function takes ``params`` (default: :attr:`default_params`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from reference.functional import FuncEnv
from reference.spaces import Box, Discrete

__all__ = ["Drift", "DriftParams"]

DriftParams = dict[str, float]
_State = NDArray[np.float64]
_FRAME = (6, 8, 3)


class Drift(FuncEnv[_State, NDArray[np.float32], Any, Any, Any, Any, DriftParams]):
    """A correct functional env."""

    def __init__(self) -> None:
        super().__init__()
        low, high = np.array([-5.0, 0.0], dtype=np.float32), np.array([5.0, np.inf], dtype=np.float32)
        self.observation_space = Box(low, high, dtype=np.float32)
        self.action_space = Discrete(3)

    def get_default_params(self, **kwargs: Any) -> DriftParams:
        return {"push": 0.5, "noise": 0.1, "limit": 2.0, **kwargs}

    def _p(self, params: DriftParams | None) -> DriftParams:
        found = self.default_params if params is None else params
        if found is None:
            raise ValueError("Drift params must be a dict, got None")
        return found

    def initial(self, rng: Any, params: DriftParams | None = None) -> _State:
        return np.array([rng.uniform(-1.0, 1.0), 0.0])

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        p = self._p(params)
        if not self.action_space.contains(action):
            raise ValueError(f"Drift action must be an element of {self.action_space}, got {action!r}")
        x = state[0] + (int(action) - 1) * p["push"] + rng.normal(0.0, p["noise"])
        return np.array([x, state[1] + 1.0])

    def observation(self, state: _State, rng: Any, params: DriftParams | None = None) -> NDArray[np.float32]:
        return np.array([np.clip(state[0], -5.0, 5.0), state[1]], dtype=np.float32)

    def reward(self, state: _State, action: Any, next_state: _State, rng: Any,
               params: DriftParams | None = None) -> float:
        return float(-abs(next_state[0]))

    def terminal(self, state: _State, rng: Any, params: DriftParams | None = None) -> Any:
        return np.bool_(abs(state[0]) > self._p(params)["limit"])

    def state_info(self, state: _State, params: DriftParams | None = None) -> dict[str, Any]:
        return {"t": float(state[1])}

    def transition_info(self, state: _State, action: Any, next_state: _State,
                        params: DriftParams | None = None) -> dict[str, Any]:
        return {"moved": float(next_state[0] - state[0])}

    def render_init(self, params: DriftParams | None = None, **kwargs: object) -> dict[str, int]:
        return {"frames": 0}

    def render_image(self, state: _State, render_state: Any,
                     params: DriftParams | None = None) -> tuple[Any, NDArray[np.uint8]]:
        frame = np.zeros(_FRAME, dtype=np.uint8)
        column = int(np.clip((state[0] + 5.0) / 10.0 * (_FRAME[1] - 1), 0, _FRAME[1] - 1))
        frame[:, column] = 255
        return {"frames": render_state["frames"] + 1}, frame

    def render_close(self, render_state: Any, params: DriftParams | None = None) -> None:
        return None
