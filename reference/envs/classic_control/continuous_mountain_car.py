"""MountainCarContinuous: the mountain-car task with a continuous engine force in ``[-1, 1]``.

Observation ``[position, velocity]`` (float32); the action is a ``(1,)`` float32 force. Reaching ``position >= 0.45``
with ``velocity >= goal_velocity`` terminates with +100; every step costs ``0.1 * force**2``.
Seeded trajectories are bit-identical to Gymnasium 1.x's ``Continuous_MountainCarEnv``.
"""

from __future__ import annotations

import math
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import summarise
from reference.envs.classic_control._hill import HillRenderer
from reference.envs.classic_control.utils import maybe_parse_reset_bounds
from reference.error import InvalidAction
from reference.spaces.box import Box

__all__ = ["Continuous_MountainCarEnv"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Obs: TypeAlias = NDArray[np.float32]
_Action: TypeAlias = NDArray[np.floating[Any]]
# Gymnasium's arithmetic here mixes NumPy float32/float64 scalars with Python floats, and the result types (hence
# the rounding) depend on the action's dtype; the step keeps those scalar types instead of forcing Python floats.
_Scalar: TypeAlias = "float | np.floating[Any]"  # Python and NumPy floats alternate, as in Gymnasium


class _InvalidForce(InvalidAction, ValueError):
    """The action has no first element to read the force from."""


class Continuous_MountainCarEnv(HillRenderer, Env[_Obs, _Action]):  # noqa: N801 - Gymnasium's class name
    """The continuous-action mountain-car task.

    Args:
        render_mode: None, ``"human"`` or ``"rgb_array"``.
        goal_velocity: The minimum velocity at the goal for the episode to terminate.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}
    _render_owner = "Continuous_MountainCarEnv"
    _render_caption = "MountainCarContinuous"

    def __init__(self, render_mode: str | None = None, goal_velocity: float = 0) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        self.min_action = -1.0
        self.max_action = 1.0
        self.min_position = -1.2
        self.max_position = 0.6
        self.max_speed = 0.07
        self.goal_position = 0.45
        self.goal_velocity = goal_velocity
        self.power = 0.0015

        self.low_state = np.array([self.min_position, -self.max_speed], dtype=np.float32)
        self.high_state = np.array([self.max_position, self.max_speed], dtype=np.float32)
        self.action_space = Box(low=self.min_action, high=self.max_action, shape=(1,), dtype=np.float32)
        self.observation_space = Box(low=self.low_state, high=self.high_state, dtype=np.float32)

        self.screen_width = 600
        self.screen_height = 400
        self._canvas = None
        #: ``[position, velocity]``: float64 right after reset, float32 after a step (as in Gymnasium).
        self.state: NDArray[np.floating[Any]] | None = None

    def step(self, action: _Action) -> tuple[_Obs, float, bool, bool, _Info]:
        """Apply the engine force (clipped to ``[-1, 1]``) and advance the car by one step.

        Args:
            action: An array whose first element is the force.

        Returns:
            ``(observation, reward, terminated, False, {})``.

        Raises:
            InvalidAction: If the action has no first element.
            StepBeforeReset: If the environment was never reset.
        """
        if self.state is None:
            raise step_before_reset("Continuous_MountainCarEnv")
        try:
            requested: _Scalar = action[0]
        except (TypeError, IndexError) as exc:
            raise _InvalidForce(
                f"Continuous_MountainCarEnv action must be an array of shape (1,), got {summarise(action)}"
            ) from exc
        position: _Scalar = self.state[0]
        velocity: _Scalar = self.state[1]
        force = min(max(requested, self.min_action), self.max_action)
        velocity = velocity + (force * self.power - 0.0025 * math.cos(3 * position))
        if velocity > self.max_speed:
            velocity = self.max_speed
        if velocity < -self.max_speed:
            velocity = -self.max_speed
        position = position + velocity
        if position > self.max_position:
            position = self.max_position
        if position < self.min_position:
            position = self.min_position
        if position == self.min_position and velocity < 0:
            velocity = 0
        terminated = bool(position >= self.goal_position and velocity >= self.goal_velocity)
        reward = (100.0 if terminated else 0.0) - math.pow(requested, 2) * 0.1
        self.state = np.array([position, velocity], dtype=np.float32)
        if self.render_mode == "human":
            self.render()
        return self.state.copy(), reward, terminated, False, {}

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
        low, high = maybe_parse_reset_bounds(options, -0.6, -0.4, owner="Continuous_MountainCarEnv reset")
        self.state = np.array([self.np_random.uniform(low=low, high=high), 0.0], dtype=np.float64)
        if self.render_mode == "human":
            self.render()
        return self.state.astype(np.float32), {}

    def _render_state(self) -> float | None:
        return None if self.state is None else float(self.state[0])
