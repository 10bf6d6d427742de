"""MountainCar: drive an under-powered car up a hill by rocking it back and forth (Moore, 1990).

Observation ``[position, velocity]`` (float32); actions 0/1/2 accelerate left / not at all / right. Every step
costs -1; the episode terminates when the car reaches ``position >= 0.5`` with ``velocity >= goal_velocity``.
Seeded trajectories are bit-identical to Gymnasium 1.x's ``MountainCarEnv``.
"""

from __future__ import annotations

import math
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference._framework import import_pygame, step_before_reset, validate_render_mode
from reference.envs._checks import DiscreteAction, discrete_action
from reference.envs.classic_control._hill import HillRenderer
from reference.envs.classic_control.utils import maybe_parse_reset_bounds
from reference.spaces.box import Box
from reference.spaces.discrete import Discrete

__all__ = ["MountainCarEnv"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Obs: TypeAlias = NDArray[np.float32]


class MountainCarEnv(HillRenderer, Env[_Obs, DiscreteAction]):
    """The discrete-action mountain-car task.

    Args:
        render_mode: None, ``"human"`` or ``"rgb_array"``.
        goal_velocity: The minimum velocity at the goal for the episode to terminate.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}
    _render_owner = "MountainCarEnv"
    _render_caption = "MountainCar"

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.5
        self.goal_velocity = goal_velocity
        self.force = 0.001
        self.gravity = 0.0025

        self.low = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = Discrete(3)
        self.observation_space = Box(self.low, self.high, dtype=np.float32)

        self.screen_width = 600
        self.screen_height = 400
        self._canvas = None
        self._state: tuple[float, float] | None = None

    @property
    def state(self) -> NDArray[np.float64] | None:
        """``[position, velocity]`` as a fresh float64 array (None before reset)."""
        return None if self._state is None else np.array(self._state, dtype=np.float64)

    @state.setter
    def state(self, value: Any) -> None:
        if value is None:
            self._state = None
            return
        arr = np.asarray(value, dtype=np.float64)
        if arr.shape != (2,):
            raise ValueError(f"MountainCarEnv state must have shape (2,), got shape {arr.shape}")
        self._state = (float(arr[0]), float(arr[1]))

    def step(self, action: DiscreteAction) -> tuple[_Obs, float, bool, bool, _Info]:
        """Accelerate and advance the car by one step.

        Args:
            action: 0 (left), 1 (coast) or 2 (right).

        Returns:
            ``(observation, -1.0, terminated, False, {})``.

        Raises:
            InvalidDiscreteAction: If the action is not in ``{0, 1, 2}``.
            StepBeforeReset: If the environment was never reset.
        """
        act = action if type(action) is int and 0 <= action < 3 else discrete_action("MountainCarEnv", action, 3)
        if self._state is None:
            raise step_before_reset("MountainCarEnv")
        position, velocity = self._state
        # Operation order matches Gymnasium's so the float64 state stays bit-identical.
        velocity += (act - 1) * self.force + math.cos(3 * position) * (-self.gravity)
        velocity = min(max(velocity, -self.max_speed), self.max_speed)
        position += velocity
        position = min(max(position, self.min_position), self.max_position)
        if position == self.min_position and velocity < 0:
            velocity = 0.0
        terminated = bool(position >= self.goal_position and velocity >= self.goal_velocity)
        self._state = (position, velocity)
        if self.render_mode == "human":
            self.render()
        return np.array(self._state, dtype=np.float32), -1.0, terminated, False, {}

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Obs, _Info]:
        """Place the car at rest at a uniform position in ``[low, high]`` (default ``[-0.6, -0.4]``).

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: May hold ``"low"`` and ``"high"`` to change the initial-position range.

        Returns:
            ``(observation, {})``.

        Raises:
            ValueError: If the bounds in ``options`` are not numbers or ``low > high``.
        """
        super().reset(seed=seed)
        low, high = maybe_parse_reset_bounds(options, -0.6, -0.4, owner="MountainCarEnv reset")
        self._state = (float(self.np_random.uniform(low=low, high=high)), 0.0)
        if self.render_mode == "human":
            self.render()
        return np.array(self._state, dtype=np.float32), {}

    def _render_state(self) -> float | None:
        return None if self._state is None else self._state[0]

    def get_keys_to_action(self) -> dict[tuple[int, ...], int]:
        """Map arrow keys to actions for :func:`reference.utils.play.play`.

        Gymnasium returns pygame 1's arrow codes (275/276), which pygame 2 no longer sends; these are pygame 2's
        ``K_LEFT``/``K_RIGHT``, so the mapping works in :func:`~reference.utils.play.play`.

        Returns:
            No key: coast; left arrow: push left; right arrow: push right; both: coast.
        """
        pg = import_pygame()
        left, right = int(pg.K_LEFT), int(pg.K_RIGHT)
        return {(): 1, (left,): 0, (right,): 2, tuple(sorted((left, right))): 1}
