"""Pendulum: swing a frictionless pendulum up and keep it upright with a bounded torque.

Observation ``[cos(theta), sin(theta), theta_dot]`` (float32); the action is a ``(1,)`` float32 torque in
``[-2, 2]``. The reward is ``-(theta² + 0.1 theta_dot² + 0.001 torque²)`` with theta normalised to ``[-pi, pi)``;
episodes never terminate (``Pendulum-v1`` truncates at 200 steps).
Seeded trajectories are bit-identical to Gymnasium 1.x's ``PendulumEnv``.
"""

from __future__ import annotations

import math
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import summarise
from reference.envs._rendering import Canvas, CanvasRenderer
from reference.envs.classic_control.utils import verify_number_and_cast
from reference.error import InvalidAction
from reference.spaces.box import Box

__all__ = ["PendulumEnv", "angle_normalize"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Obs: TypeAlias = NDArray[np.float32]
_Action: TypeAlias = NDArray[np.floating[Any]]
# The torque keeps the action's dtype (float32 from the action space), and Gymnasium's cost and dynamics mix it
# with float64 state scalars; keeping NumPy scalar types reproduces its rounding exactly.
_Scalar: TypeAlias = "np.floating[Any]"
_Angle: TypeAlias = Any  # a float, NumPy float or float array; numpy's stubs lose the type through ``%``

DEFAULT_X = np.pi
DEFAULT_Y = 1.0


class _InvalidTorque(InvalidAction, ValueError):
    """The action has no first element to read the torque from."""


def angle_normalize(x: _Angle) -> _Angle:
    """Wrap an angle to ``[-pi, pi)``.

    Args:
        x: An angle in radians (scalar or array).

    Returns:
        The equivalent angle in ``[-pi, pi)``.
    """
    return ((x + np.pi) % (2 * np.pi)) - np.pi


class PendulumEnv(CanvasRenderer[float], Env[_Obs, _Action]):
    """The inverted-pendulum swing-up task.

    Args:
        render_mode: None, ``"human"`` or ``"rgb_array"``.
        g: The gravitational acceleration.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 30}
    _render_owner = "PendulumEnv"
    _render_caption = "Pendulum"

    def __init__(self, render_mode: str | None = None, g: float = 10.0) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        self.max_speed = 8
        self.max_torque = 2.0
        self.dt = 0.05
        self.g = g
        self.m = 1.0
        self.l = 1.0  # noqa: E741 - the pendulum length, named as in the equations

        high = np.array([1.0, 1.0, self.max_speed], dtype=np.float32)
        self.action_space = Box(low=-self.max_torque, high=self.max_torque, shape=(1,), dtype=np.float32)
        self.observation_space = Box(low=-high, high=high, dtype=np.float32)

        self.screen_dim = 500
        self._canvas = None
        #: ``[theta, theta_dot]`` in float64 (None before reset).
        self.state: NDArray[np.float64] | None = None
        #: The last applied (clipped) torque, drawn as an arrow; None right after reset.
        self.last_u: _Scalar | None = None

    def step(self, u: _Action) -> tuple[_Obs, float, bool, bool, _Info]:  # pyright: ignore[reportIncompatibleMethodOverride]
        """Apply the torque (clipped to ``[-2, 2]``) for :attr:`dt` seconds.

        Args:
            u: An array whose first element is the torque.

        Returns:
            ``(observation, reward, False, False, {})``.

        Raises:
            InvalidAction: If the action has no first element.
            StepBeforeReset: If the environment was never reset.
        """
        if self.state is None:
            raise step_before_reset("PendulumEnv")
        clipped = np.clip(u, -self.max_torque, self.max_torque)
        if clipped.ndim == 0 or clipped.shape[0] == 0:
            raise _InvalidTorque(f"PendulumEnv action must be an array of shape (1,), got {summarise(u)}")
        torque: _Scalar = clipped[0]
        th: _Scalar = self.state[0]
        thdot: _Scalar = self.state[1]
        g, m, length, dt = self.g, self.m, self.l, self.dt
        self.last_u = torque

        costs = angle_normalize(th) ** 2 + 0.1 * thdot**2 + 0.001 * (torque**2)
        newthdot = thdot + (3 * g / (2 * length) * np.sin(th) + 3.0 / (m * length**2) * torque) * dt
        newthdot = np.clip(newthdot, -self.max_speed, self.max_speed)
        newth = th + newthdot * dt
        self.state = np.array([newth, newthdot], dtype=np.float64)
        if self.render_mode == "human":
            self.render()
        return self._observation(self.state), float(-costs), False, False, {}

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Obs, _Info]:
        """Draw theta uniformly from ``[-x_init, x_init]`` and theta_dot from ``[-y_init, y_init]``.

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: May hold ``"x_init"`` (default pi) and ``"y_init"`` (default 1.0).

        Returns:
            ``(observation, {})``.

        Raises:
            ValueError: If an option is not a number.
        """
        super().reset(seed=seed)
        if options is None:
            high = np.array([DEFAULT_X, DEFAULT_Y])
        else:
            x = verify_number_and_cast(options.get("x_init", DEFAULT_X), owner="PendulumEnv reset", name="x_init")
            y = verify_number_and_cast(options.get("y_init", DEFAULT_Y), owner="PendulumEnv reset", name="y_init")
            high = np.array([x, y])
        self.state = self.np_random.uniform(low=-high, high=high)
        self.last_u = None
        if self.render_mode == "human":
            self.render()
        return self._observation(self.state), {}

    @staticmethod
    def _observation(state: NDArray[np.float64]) -> _Obs:
        theta, thetadot = state[0], state[1]
        return np.array([np.cos(theta), np.sin(theta), thetadot], dtype=np.float32)

    def _render_state(self) -> float | None:
        return None if self.state is None else float(self.state[0])

    def _canvas_size(self) -> tuple[int, int]:
        return self.screen_dim, self.screen_dim

    def _draw(self, canvas: Canvas, theta: float) -> None:
        surface = canvas.surface  # imports pygame, with a helpful error if it is missing
        from pygame import draw, gfxdraw

        dim = self.screen_dim
        scale = dim / (2.2 * 2)
        centre = dim // 2
        rod_len, rod_w = 1.0 * scale, 0.2 * scale
        red = (204, 77, 77)
        surface.fill((255, 255, 255))

        # theta = 0 points up and positive theta turns counter-clockwise on screen (screen y grows downwards).
        ux, uy = -math.sin(theta), -math.cos(theta)
        px, py = -uy * rod_w / 2, ux * rod_w / 2
        tip_x, tip_y = centre + ux * rod_len, centre + uy * rod_len
        rod = [
            (centre - px, centre - py),
            (tip_x - px, tip_y - py),
            (tip_x + px, tip_y + py),
            (centre + px, centre + py),
        ]
        gfxdraw.aapolygon(surface, rod, red)
        gfxdraw.filled_polygon(surface, rod, red)
        for cx, cy in ((centre, centre), (int(tip_x), int(tip_y))):
            gfxdraw.aacircle(surface, cx, cy, int(rod_w / 2), red)
            gfxdraw.filled_circle(surface, cx, cy, int(rod_w / 2), red)

        torque = 0.0 if self.last_u is None else float(self.last_u)
        if torque != 0.0:
            # An arc around the pivot, sized by |torque|, with an arrowhead in the turning direction
            # (positive torque turns counter-clockwise).
            radius = max(6.0, scale * abs(torque) / 4)
            rect = (centre - radius, centre - radius, 2 * radius, 2 * radius)
            gap = 0.6
            draw.arc(surface, (0, 0, 0), rect, gap, 2 * math.pi - gap, 3)
            end = 2 * math.pi - gap if torque > 0 else gap
            ex, ey = centre + radius * math.cos(end), centre - radius * math.sin(end)
            sign = 1.0 if torque > 0 else -1.0
            tx, ty = -math.sin(end) * sign, -math.cos(end) * sign  # unit tangent along the turn, screen coords
            rx, ry = math.cos(end), -math.sin(end)  # unit radial
            head = 8.0
            draw.polygon(
                surface,
                (0, 0, 0),
                [
                    (ex + tx * head, ey + ty * head),
                    (ex + rx * head / 1.5, ey + ry * head / 1.5),
                    (ex - rx * head / 1.5, ey - ry * head / 1.5),
                ],
            )
        gfxdraw.aacircle(surface, centre, centre, int(0.05 * scale), (0, 0, 0))
        gfxdraw.filled_circle(surface, centre, centre, int(0.05 * scale), (0, 0, 0))
