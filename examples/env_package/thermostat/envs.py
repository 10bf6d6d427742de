"""``ThermostatEnv``: keep a room at its target temperature by cooling, idling or heating.

The room drifts towards the outside temperature and takes noise each step; the reward is minus the distance to the
target. Episodes never terminate and are truncated after :data:`STEPS` steps.

One known deviation is accepted in ``conformance-baseline.json``, with its reason: ``step`` before the first
``reset`` starts from the target temperature instead of raising (ENV-019, a SHOULD rule).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import reference as gym
from reference.spaces import Box, Discrete

__all__ = ["STEPS", "ThermostatEnv"]

STEPS = 50
_CELL = 4  # pixels per degree in rgb_array frames

Observation = NDArray[np.float32]


class ThermostatEnv(gym.Env[Observation, np.int64]):
    """A room with a heater and a cooler.

    Args:
        target: The temperature to keep, in degrees Celsius.
        render_mode: ``None``, ``"ansi"`` or ``"rgb_array"``.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, target: float = 21.0, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"ThermostatEnv render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")
        self.target = float(target)
        self.render_mode = render_mode
        self.observation_space = Box(-10.0, 50.0, shape=(1,), dtype=np.float32)
        self.action_space = Discrete(3)
        # A room before the first reset is at the target: step() works then (the accepted ENV-019 finding).
        self._temperature = self.target
        self._steps = 0

    def _observation(self) -> Observation:
        return np.array([self._temperature], dtype=np.float32)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._temperature = float(self.np_random.uniform(10.0, 30.0))
        self._steps = 0
        return self._observation(), {}

    def step(self, action: np.int64) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        push = (int(action) - 1) * 1.5  # 0 cools, 1 idles, 2 heats
        drift = 0.1 * (5.0 - self._temperature)
        noise = float(self.np_random.normal(0.0, 0.2))
        self._temperature = float(np.clip(self._temperature + push + drift + noise, -10.0, 50.0))
        self._steps += 1
        reward = -abs(self._temperature - self.target)
        return self._observation(), reward, False, self._steps >= STEPS, {}

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return f"{self._temperature:5.1f} C (target {self.target:.1f} C)\n"
        if self.render_mode == "rgb_array":
            frame = np.full((24, 60 * _CELL, 3), 255, dtype=np.uint8)
            column = int(np.clip(self._temperature + 10.0, 0.0, 59.0)) * _CELL
            frame[:, column : column + _CELL] = (200, 40, 40)
            goal = int(np.clip(self.target + 10.0, 0.0, 59.0)) * _CELL
            frame[:4, goal : goal + _CELL] = (40, 40, 200)
            return frame
        return None
