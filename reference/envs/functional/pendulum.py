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
from reference.envs.functional._common import check_option_names, params_from, states
from reference.envs.functional._drawing import draw_pendulum, frame_of
from reference.envs.functional._scalar_math import scalar_square
from reference.error import InvalidAction
from reference.functional import FuncEnv, FunctionalEnv, FunctionalVectorEnv
from reference.spaces import Box
from reference.utils.ezpickle import EzPickle

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
_Options: TypeAlias = dict[str, Any]
_Param: TypeAlias = Any
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


class PendulumFunctional(FuncEnv[_State, _Obs, _Action, _Reward, _Terminal, Canvas, PendulumParams]):
    """Pendulum as pure functions; see the module docstring.

    Args:
        options: :class:`PendulumParams` field values that become the default params.

    Raises:
        TypeError: If an option names no :class:`PendulumParams` field.
    """

    def __init__(self, options: _Options | None = None) -> None:
        check_option_names(type(self).__name__, options, PendulumParams)
        super().__init__(options)
        p = self._params(None)
        high = np.array([1.0, 1.0, p.max_speed], dtype=np.float32)
        self.observation_space = Box(low=-high, high=high, dtype=np.float32)
        self.action_space = Box(low=-p.max_torque, high=p.max_torque, shape=(1,), dtype=np.float32)

    def get_default_params(self, **kwargs: _Param) -> PendulumParams:
        """The params built from the constructor's options, with ``kwargs`` overriding fields.

        Args:
            **kwargs: :class:`PendulumParams` field values.

        Returns:
            A new :class:`PendulumParams`.
        """
        return params_from(self, PendulumParams, kwargs)

    def _params(self, params: PendulumParams | None) -> PendulumParams:
        p = self.default_params if params is None else params
        if not isinstance(p, PendulumParams):
            raise TypeError(f"PendulumFunctional params must be a PendulumParams, got {p!r}")
        return p

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
        p = self._params(params)
        unknown = sorted(set(kwargs) - {"screen_dim"})
        if unknown:
            raise TypeError(f"PendulumFunctional render_init kwargs must be screen_dim, got {unknown}")
        dim = kwargs.get("screen_dim", p.screen_dim)
        if not isinstance(dim, int):
            raise TypeError(f"PendulumFunctional render_init screen_dim must be an int, got {dim!r}")
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
        arr = states("PendulumFunctional", state, 2)
        if arr.shape != (2,):
            raise ValueError(f"PendulumFunctional render_image state must have shape (2,), got shape {arr.shape}")
        draw_pendulum(render_state, float(arr[0]))
        return render_state, frame_of(render_state, "PendulumFunctional")

    def render_close(self, render_state: Canvas, params: PendulumParams | None = None) -> None:
        """Drop the canvas.

        Args:
            render_state: The canvas.
            params: Unused.
        """
        render_state.close()


class PendulumFunctionalEnv(FunctionalEnv[_State, _Obs, _Action, Canvas, PendulumParams], EzPickle):
    """Functional Pendulum as an ``Env`` (entry point of ``phys2d/Pendulum-v0``).

    Args:
        render_mode: ``None`` or ``"rgb_array"``.
        **kwargs: :class:`PendulumParams` field values (e.g. ``g=9.81``).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(self, render_mode: str | None = None, **kwargs: _Param) -> None:
        EzPickle.__init__(self, render_mode=render_mode, **kwargs)
        FunctionalEnv.__init__(self, PendulumFunctional(dict(kwargs)), metadata=self.metadata, render_mode=render_mode)


class PendulumFunctionalVectorEnv(FunctionalVectorEnv[_State, _Obs, _Action, Canvas, PendulumParams], EzPickle):
    """Functional Pendulum, ``num_envs`` pendulums stepped by one batched call (vector entry point).

    Args:
        num_envs: The number of sub-environments.
        render_mode: ``None`` or ``"rgb_array"``.
        max_episode_steps: Truncate episodes after this many steps (0: never).
        **kwargs: :class:`PendulumParams` field values.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(
        self, num_envs: int, render_mode: str | None = None, max_episode_steps: int = 200, **kwargs: _Param
    ) -> None:
        EzPickle.__init__(
            self, num_envs=num_envs, render_mode=render_mode, max_episode_steps=max_episode_steps, **kwargs
        )
        FunctionalVectorEnv.__init__(
            self,
            PendulumFunctional(dict(kwargs)),
            num_envs,
            max_episode_steps=max_episode_steps,
            metadata=self.metadata,
            render_mode=render_mode,
        )
