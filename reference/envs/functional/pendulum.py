"""Functional Pendulum: the swing-up task as pure NumPy functions of a ``[theta, theta_dot]`` state.

Every function accepts one state of shape ``(2,)`` or a batch of shape ``(..., 2)`` (with actions of shape
``(..., 1)``). The arithmetic reproduces the class-based
:class:`~reference.envs.classic_control.pendulum.PendulumEnv` bit for bit: the same float32/float64 promotions
(the torque keeps the action's dtype) and the same libm rounding of its scalar squares (see
:func:`~reference.envs.functional._scalar_math.scalar_square`). The frame shows the rod only: the last applied
torque, which the class-based env draws, is not part of the state.

Registered as ``phys2d/Pendulum-v0`` (200 steps).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

from gymspec import RNG
from reference.envs._checks import summarise
from reference.envs._rendering import Canvas
from reference.envs.functional._base import ParamsFuncEnv, ParamsFunctionalEnv, ParamsFunctionalVectorEnv
from reference.envs.functional._common import states
from reference.envs.functional._drawing import draw_pendulum, frame_of
from reference.envs.functional._scalar_math import scalar_square
from reference.error import InvalidAction
from reference.spaces import Box

__all__ = [
    "InvalidPendulumAction",
    "PendulumFunctional",
    "PendulumFunctionalEnv",
    "PendulumFunctionalVectorEnv",
    "PendulumParams",
]

_State: TypeAlias = NDArray[np.float64]
_Obs: TypeAlias = NDArray[np.float32]
_Action: TypeAlias = NDArray[np.floating[Any]]
_Reward: TypeAlias = "np.float64 | NDArray[np.float64]"
_Terminal: TypeAlias = "np.bool_ | NDArray[np.bool_]"
_Floats: TypeAlias = NDArray[Any]


@dataclasses.dataclass(frozen=True)
class PendulumParams:
    """The physical constants, initial-state bounds and display size (defaults: the classic task)."""

    max_speed: float = 8.0
    max_torque: float = 2.0
    dt: float = 0.05
    g: float = 10.0
    m: float = 1.0
    l: float = 1.0  # noqa: E741 - the pendulum length, named as in the equations
    high_x: float = math.pi  # theta starts uniform in [-high_x, high_x]
    high_y: float = 1.0  # theta_dot starts uniform in [-high_y, high_y]
    screen_dim: int = 500

    def __post_init__(self) -> None:
        for name in ("max_speed", "max_torque"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"PendulumParams {name} must be >= 0, got {getattr(self, name)!r}")
        if isinstance(self.screen_dim, bool) or not isinstance(self.screen_dim, int) or self.screen_dim <= 0:
            raise ValueError(f"PendulumParams screen_dim must be a positive int, got {self.screen_dim!r}")


class InvalidPendulumAction(InvalidAction, ValueError):
    """An action without a torque: not a real array whose last axis holds at least one value per state."""


def _torques(action: object, max_torque: float, batch_shape: tuple[int, ...]) -> _Floats:
    """The first action component of every state, clipped to ``[-max_torque, max_torque]`` (dtype kept)."""
    arr = np.asarray(action)
    if arr.dtype.kind not in "fiu" or arr.shape[:-1] != batch_shape or arr.ndim != len(batch_shape) + 1:
        raise InvalidPendulumAction(
            f"PendulumFunctional action must be a real array of shape {(*batch_shape, 1)}, got {summarise(action)}"
        )
    if arr.shape[-1] == 0:
        raise InvalidPendulumAction(f"PendulumFunctional action must hold a torque, got {summarise(action)}")
    torque: _Floats = np.clip(arr, -max_torque, max_torque)[..., 0]
    return torque


def angle_normalize(x: _Floats) -> _Floats:
    """Wrap angles to ``[-pi, pi)``.

    Args:
        x: Angles in radians.

    Returns:
        The equivalent angles.
    """
    return ((x + np.pi) % (2 * np.pi)) - np.pi


class PendulumFunctional(ParamsFuncEnv[_State, _Obs, _Action, _Reward, _Terminal, PendulumParams]):
    """Pendulum as pure functions; see the module docstring.

    Constructed like :class:`~reference.envs.functional._base.ParamsFuncEnv`: ``options`` are
    :class:`PendulumParams` field values that become the default params.
    """

    params_cls = PendulumParams
    state_width = 2

    def _spaces(self, params: PendulumParams) -> tuple[Box, Box]:
        high = np.array([1.0, 1.0, params.max_speed], dtype=np.float32)
        torque = params.max_torque
        return Box(low=-high, high=high, dtype=np.float32), Box(low=-torque, high=torque, shape=(1,), dtype=np.float32)

    def initial(self, rng: RNG, params: PendulumParams | None = None) -> _State:
        """Draw theta from ``[-high_x, high_x]`` and theta_dot from ``[-high_y, high_y]``, as ``reset`` does.

        Args:
            rng: A ``Generator`` (one state) or a ``BatchedGenerator`` (one state per row).
            params: The params (default: :attr:`default_params`).

        Returns:
            A float64 state of shape ``(2,)``, or ``(len(rng), 2)``.
        """
        p = self._params(params)
        high = np.array([p.high_x, p.high_y])
        drawn: _State = rng.uniform(low=-high, high=high)
        return drawn

    def transition(
        self, state: _State, action: _Action, rng: object = None, params: PendulumParams | None = None
    ) -> _State:
        """Apply the clipped torque for ``dt`` seconds.

        Args:
            state: A state ``(2,)`` or a batch ``(..., 2)`` (not modified).
            action: The torque(s), shape ``(1,)`` or ``(..., 1)``.
            rng: Unused (the dynamics are deterministic).
            params: The params (default: :attr:`default_params`).

        Returns:
            The new state(s), float64.

        Raises:
            InvalidPendulumAction: If the action shape does not match the batch.
            ValueError: If the state does not have shape ``(..., 2)``.
        """
        p = self._params(params)
        arr = states("PendulumFunctional", state, 2)
        torque = _torques(action, p.max_torque, arr.shape[:-1])
        th, thdot = arr[..., 0], arr[..., 1]
        # PendulumEnv.step's expression; `3.0 / (...) * torque` stays in the torque's dtype, as with scalars.
        newthdot = thdot + (3 * p.g / (2 * p.l) * np.sin(th) + 3.0 / (p.m * p.l**2) * torque) * p.dt
        newthdot = np.clip(newthdot, -p.max_speed, p.max_speed)
        new = np.empty(arr.shape, dtype=np.float64)
        np.multiply(newthdot, p.dt, out=new[..., 0])
        new[..., 0] += th
        new[..., 1] = newthdot
        return new

    def observation(self, state: _State, rng: object = None, params: PendulumParams | None = None) -> _Obs:
        """``[cos(theta), sin(theta), theta_dot]`` in float32.

        Args:
            state: A state or a batch of states.
            rng: Unused.
            params: Unused.

        Returns:
            A float32 array of shape ``(..., 3)``.
        """
        arr = states("PendulumFunctional", state, 2)
        theta = arr[..., 0]
        obs = np.empty((*arr.shape[:-1], 3), dtype=np.float32)
        obs[..., 0] = np.cos(theta)
        obs[..., 1] = np.sin(theta)
        obs[..., 2] = arr[..., 1]
        return obs

    def terminal(self, state: _State, rng: object = None, params: PendulumParams | None = None) -> _Terminal:
        """Never terminal (episodes end by truncation).

        Args:
            state: A state or a batch of states.
            rng: Unused.
            params: Unused.

        Returns:
            ``numpy.False_``, or an all-false bool array for a batch.
        """
        done = np.zeros(states("PendulumFunctional", state, 2).shape[:-1], dtype=np.bool_)
        return done if done.ndim else done[()]

    def reward(
        self,
        state: _State,
        action: _Action,
        next_state: _State,
        rng: object = None,
        params: PendulumParams | None = None,
    ) -> _Reward:
        """``-(angle² + 0.1 theta_dot² + 0.001 torque²)`` for the state *before* the step.

        Args:
            state: The state(s) before the step.
            action: The torque(s) applied.
            next_state: Unused.
            rng: Unused.
            params: The params (default: :attr:`default_params`).

        Returns:
            A float64 scalar, or one reward per state.
        """
        p = self._params(params)
        arr = states("PendulumFunctional", state, 2)
        torque = _torques(action, p.max_torque, arr.shape[:-1])
        th, thdot = arr[..., 0], arr[..., 1]
        costs = scalar_square(angle_normalize(th)) + 0.1 * scalar_square(thdot) + 0.001 * scalar_square(torque)
        rewards = np.negative(costs, dtype=np.float64)
        return rewards if rewards.ndim else rewards[()]

    def render_init(self, params: PendulumParams | None = None, **kwargs: object) -> Canvas:
        """Create an offscreen square canvas (no window, no SDL subsystem).

        Args:
            params: The params (default: :attr:`default_params`); ``screen_dim`` sets the size.
            **kwargs: ``screen_dim`` overrides the params' size.

        Returns:
            The canvas.

        Raises:
            TypeError: If another keyword is given, or the size is not an int.
        """
        (dim,) = self._render_sizes(kwargs, {"screen_dim": self._params(params).screen_dim})
        return Canvas(mode="rgb_array", size=(dim, dim), fps=30, caption="Pendulum")

    def render_image(
        self, state: _State, render_state: Canvas, params: PendulumParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """Draw one state.

        Args:
            state: One state of shape ``(2,)``.
            render_state: The canvas from :meth:`render_init`.
            params: Unused.

        Returns:
            ``(render_state, frame)``, the frame a fresh ``(dim, dim, 3)`` uint8 array.

        Raises:
            ValueError: If ``state`` is a batch.
        """
        draw_pendulum(render_state, float(self._one_state(state)[0]))
        return render_state, frame_of(render_state, "PendulumFunctional")


class PendulumFunctionalEnv(ParamsFunctionalEnv[_State, _Obs, _Action, PendulumParams]):
    """Functional Pendulum as an ``Env`` (entry point of ``phys2d/Pendulum-v0``).

    Constructed like :class:`~reference.envs.functional._base.ParamsFunctionalEnv`; the keyword arguments are
    :class:`PendulumParams` field values (e.g. ``g=9.81``).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}
    func_env_cls = PendulumFunctional


class PendulumFunctionalVectorEnv(ParamsFunctionalVectorEnv[_State, _Obs, _Action, PendulumParams]):
    """Functional Pendulum, ``num_envs`` pendulums stepped by one batched call (vector entry point).

    Constructed like :class:`~reference.envs.functional._base.ParamsFunctionalVectorEnv`; the keyword arguments
    after ``max_episode_steps`` are :class:`PendulumParams` field values.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}
    func_env_cls = PendulumFunctional
