"""CartPole: balance a pole hinged on a cart by pushing the cart left or right (Barto, Sutton & Anderson, 1983).

Observation ``[x, x_dot, theta, theta_dot]`` (float32); action 0 pushes left, 1 pushes right, with a fixed force.
An episode terminates when ``|theta| > 12°`` or ``|x| > 2.4``; ``CartPole-v0``/``-v1`` truncate at 200/500 steps.
Seeded trajectories are bit-identical to Gymnasium 1.x's ``CartPoleEnv``.
"""

from __future__ import annotations

import math
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from reference import logger
from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import DiscreteAction, discrete_action
from reference.envs._rendering import Canvas, CanvasRenderer
from reference.envs.classic_control.utils import maybe_parse_reset_bounds
from reference.envs.functional.cartpole import CartPoleFunctionalVectorEnv
from reference.spaces.box import Box
from reference.spaces.discrete import Discrete

__all__ = ["CartPoleEnv", "CartPoleVectorEnv"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Obs: TypeAlias = NDArray[np.float32]
_State: TypeAlias = tuple[float, float, float, float]


class CartPoleEnv(CanvasRenderer[_State], Env[_Obs, DiscreteAction]):
    """The cart-pole balancing task.

    The physical constants are public attributes (as in Gymnasium) and are read on every step, so they can be
    changed on a live environment. The state is kept as four Python floats; :attr:`state` exposes it as a
    float64 array.

    Args:
        sutton_barto_reward: Use Sutton & Barto's reward (0 per step, -1 on termination) instead of +1 per step.
        render_mode: None, ``"human"`` or ``"rgb_array"``.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 50}
    _render_owner = "CartPoleEnv"
    _render_caption = "CartPole"

    def __init__(self, sutton_barto_reward: bool = False, render_mode: str | None = None) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        self._sutton_barto_reward = bool(sutton_barto_reward)
        self.gravity = 9.8
        self.masscart = 1.0
        self.masspole = 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5  # half the pole length
        self.polemass_length = self.masspole * self.length
        self.force_mag = 10.0
        self.tau = 0.02  # seconds per step
        self.kinematics_integrator = "euler"
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4

        high = np.array(
            [self.x_threshold * 2, np.inf, self.theta_threshold_radians * 2, np.inf],
            dtype=np.float32,
        )
        self.action_space = Discrete(2)
        self.observation_space = Box(-high, high, dtype=np.float32)

        self.screen_width = 600
        self.screen_height = 400
        self._canvas = None
        self._state: _State | None = None
        self.steps_beyond_terminated: int | None = None

    @property
    def state(self) -> NDArray[np.float64] | None:
        """The physical state ``[x, x_dot, theta, theta_dot]`` as a fresh float64 array (None before reset)."""
        return None if self._state is None else np.array(self._state, dtype=np.float64)

    @state.setter
    def state(self, value: ArrayLike | None) -> None:
        if value is None:
            self._state = None
            return
        arr = np.asarray(value, dtype=np.float64)
        if arr.shape != (4,):
            raise ValueError(f"CartPoleEnv state must have shape (4,), got shape {arr.shape}")
        self._state = (float(arr[0]), float(arr[1]), float(arr[2]), float(arr[3]))

    def step(self, action: DiscreteAction) -> tuple[_Obs, float, bool, bool, _Info]:
        """Push the cart and advance the simulation by :attr:`tau` seconds.

        Args:
            action: 0 (push left) or 1 (push right).

        Returns:
            ``(observation, reward, terminated, False, {})``.

        Raises:
            InvalidDiscreteAction: If the action is not 0 or 1.
            StepBeforeReset: If the environment was never reset.
        """
        # The exact-type test keeps the common case (a plain int) to two comparisons.
        act = action if type(action) is int and 0 <= action <= 1 else discrete_action("CartPoleEnv", action, 2)
        state = self._state
        if state is None:
            raise step_before_reset("CartPoleEnv")
        x, x_dot, theta, theta_dot = state

        # Same operation order as Gymnasium so float64 results (and hence the float32 observations) match bit for
        # bit; math.sin/cos agree with NumPy's float64 scalar ufuncs on the platforms we test.
        force = self.force_mag if act == 1 else -self.force_mag
        costheta = math.cos(theta)
        sintheta = math.sin(theta)
        total_mass = self.total_mass
        polemass_length = self.polemass_length
        temp = (force + polemass_length * (theta_dot * theta_dot) * sintheta) / total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * (costheta * costheta) / total_mass)
        )
        xacc = temp - polemass_length * thetaacc * costheta / total_mass

        tau = self.tau
        if self.kinematics_integrator == "euler":
            x = x + tau * x_dot
            x_dot = x_dot + tau * xacc
            theta = theta + tau * theta_dot
            theta_dot = theta_dot + tau * thetaacc
        else:  # semi-implicit Euler
            x_dot = x_dot + tau * xacc
            x = x + tau * x_dot
            theta_dot = theta_dot + tau * thetaacc
            theta = theta + tau * theta_dot
        self._state = (x, x_dot, theta, theta_dot)

        x_threshold = self.x_threshold
        theta_threshold = self.theta_threshold_radians
        terminated = x < -x_threshold or x > x_threshold or theta < -theta_threshold or theta > theta_threshold

        if not terminated:
            reward = 0.0 if self._sutton_barto_reward else 1.0
        elif self.steps_beyond_terminated is None:
            self.steps_beyond_terminated = 0
            reward = -1.0 if self._sutton_barto_reward else 1.0
        else:
            if self.steps_beyond_terminated == 0:
                logger.warn(
                    "CartPoleEnv step() was called after the episode terminated; call reset() once terminated=True "
                    "is returned, as further steps are undefined behaviour",
                    stacklevel=2,
                )
            self.steps_beyond_terminated += 1
            reward = -1.0 if self._sutton_barto_reward else 0.0

        if self.render_mode == "human":
            self.render()
        return np.array((x, x_dot, theta, theta_dot), dtype=np.float32), reward, terminated, False, {}

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Obs, _Info]:
        """Draw the four state variables uniformly from ``[low, high]`` (default ``[-0.05, 0.05]``).

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: May hold ``"low"`` and ``"high"`` to change the initial-state range.

        Returns:
            ``(observation, {})``.

        Raises:
            ValueError: If the bounds in ``options`` are not numbers or ``low > high``.
        """
        super().reset(seed=seed)
        low, high = maybe_parse_reset_bounds(options, -0.05, 0.05, owner="CartPoleEnv reset")
        drawn = self.np_random.uniform(low=low, high=high, size=(4,))
        self._state = (float(drawn[0]), float(drawn[1]), float(drawn[2]), float(drawn[3]))
        self.steps_beyond_terminated = None
        if self.render_mode == "human":
            self.render()
        return drawn.astype(np.float32), {}

    def _render_state(self) -> _State | None:
        return self._state

    def _canvas_size(self) -> tuple[int, int]:
        return self.screen_width, self.screen_height

    def _draw(self, canvas: Canvas, state: _State) -> None:
        surface = canvas.surface  # imports pygame, with a helpful error if it is missing
        from pygame import gfxdraw

        width, height = self.screen_width, self.screen_height
        scale = width / (self.x_threshold * 2)
        pole_len = scale * (2 * self.length)
        cart_w, cart_h, pole_w = 50.0, 30.0, 10.0
        ground_y = height - 100  # screen row of the cart top, y measured downwards
        cart_x = state[0] * scale + width / 2.0
        axle_y = ground_y - cart_h / 4.0

        surface.fill((255, 255, 255))
        gfxdraw.hline(surface, 0, width, ground_y, (0, 0, 0))
        cart = [
            (cart_x - cart_w / 2, ground_y + cart_h / 2),
            (cart_x - cart_w / 2, ground_y - cart_h / 2),
            (cart_x + cart_w / 2, ground_y - cart_h / 2),
            (cart_x + cart_w / 2, ground_y + cart_h / 2),
        ]
        gfxdraw.aapolygon(surface, cart, (0, 0, 0))
        gfxdraw.filled_polygon(surface, cart, (0, 0, 0))

        # The pole rotates about the axle; theta > 0 leans right, and screen y grows downwards.
        theta = state[2]
        ux, uy = math.sin(theta), -math.cos(theta)  # along the pole
        px, py = -uy, ux  # across the pole
        half = pole_w / 2
        base_x, base_y = cart_x - ux * half, axle_y - uy * half
        tip_x, tip_y = cart_x + ux * (pole_len - half), axle_y + uy * (pole_len - half)
        pole = [
            (base_x - px * half, base_y - py * half),
            (tip_x - px * half, tip_y - py * half),
            (tip_x + px * half, tip_y + py * half),
            (base_x + px * half, base_y + py * half),
        ]
        gfxdraw.aapolygon(surface, pole, (202, 152, 101))
        gfxdraw.filled_polygon(surface, pole, (202, 152, 101))
        gfxdraw.aacircle(surface, int(cart_x), int(axle_y), int(half), (129, 132, 203))
        gfxdraw.filled_circle(surface, int(cart_x), int(axle_y), int(half), (129, 132, 203))


class CartPoleVectorEnv(CartPoleFunctionalVectorEnv):
    """``num_envs`` carts stepped as one NumPy batch: the vector entry point of ``CartPole-v0``/``-v1``.

    Gymnasium's name and constructor for its hand-vectorised CartPole; the dynamics are the functional
    CartPole's (:class:`~reference.envs.functional.cartpole.CartPoleFunctionalVectorEnv`), which match
    :class:`CartPoleEnv` step for step. Renders ``rgb_array`` frames, one per sub-environment.

    Args:
        num_envs: The number of carts.
        max_episode_steps: Truncate episodes after this many steps.
        render_mode: ``None`` or ``"rgb_array"``.
        sutton_barto_reward: Use Sutton & Barto's reward (0 per step, -1 on termination).

    Example:
        >>> envs = CartPoleVectorEnv(num_envs=3)
        >>> obs, info = envs.reset(seed=0)
        >>> obs.shape, envs.single_action_space
        ((3, 4), Discrete(2))
        >>> envs.close()
    """

    def __init__(
        self,
        num_envs: int = 1,
        max_episode_steps: int = 500,
        render_mode: str | None = None,
        sutton_barto_reward: bool = False,
    ) -> None:
        super().__init__(
            num_envs,
            render_mode=render_mode,
            max_episode_steps=max_episode_steps,
            sutton_barto_reward=sutton_barto_reward,
        )
