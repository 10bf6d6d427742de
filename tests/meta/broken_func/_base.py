"""The correct functional env every broken one starts from.

``Drift`` is a noisy 1-D drift as pure functions of a ``[x, t]`` float64 state: the action (0, 1, 2) pushes left,
not at all, or right by ``params["push"]``, ``transition`` adds uniform noise from ``rng``, the state is terminal
once ``|x| > params["limit"]``, and the observation is ``[x, t]`` as float32 (``x`` clipped to the space). It renders
a small frame, and every function takes ``params`` (default: :attr:`default_params`).

It also takes batches (the batched FUNC checks): states ``(n, 2)``, one action per row, and a ``BatchedGenerator``
as ``rng`` (its ``uniform`` draws one value per row); a single state's results are Python/NumPy scalars.
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
        x = np.asarray(rng.uniform(-1.0, 1.0), dtype=np.float64)
        return np.stack([x, np.zeros_like(x)], axis=-1)

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        p = self._p(params)
        actions = np.asarray(action)
        if actions.shape != state.shape[:-1] or not np.isin(actions, (0, 1, 2)).all():
            raise ValueError(f"Drift action must be an element of {self.action_space} per state, got {action!r}")
        noise = rng.uniform(-p["noise"], p["noise"])
        x = state[..., 0] + (actions - 1) * p["push"] + noise
        return np.stack([x, state[..., 1] + 1.0], axis=-1)

    def observation(self, state: _State, rng: Any, params: DriftParams | None = None) -> NDArray[np.float32]:
        return np.stack([np.clip(state[..., 0], -5.0, 5.0), state[..., 1]], axis=-1).astype(np.float32)

    def reward(self, state: _State, action: Any, next_state: _State, rng: Any,
               params: DriftParams | None = None) -> Any:
        rewards = -np.abs(next_state[..., 0])
        return float(rewards) if rewards.ndim == 0 else rewards

    def terminal(self, state: _State, rng: Any, params: DriftParams | None = None) -> Any:
        return np.abs(state[..., 0]) > self._p(params)["limit"]

    def state_info(self, state: _State, params: DriftParams | None = None) -> dict[str, Any]:
        t = state[..., 1]
        return {"t": float(t) if t.ndim == 0 else t}

    def transition_info(self, state: _State, action: Any, next_state: _State,
                        params: DriftParams | None = None) -> dict[str, Any]:
        moved = next_state[..., 0] - state[..., 0]
        return {"moved": float(moved) if moved.ndim == 0 else moved}

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
