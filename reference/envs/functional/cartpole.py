"""Functional CartPole: the classic cart-pole as pure NumPy functions of a ``[x, x_dot, theta, theta_dot]`` state.

Every function accepts one state of shape ``(4,)`` or a batch of shape ``(..., 4)`` (with one action per state),
so :class:`~reference.functional.FunctionalVectorEnv` steps thousands of carts with one call. The arithmetic is
the class-based :class:`~reference.envs.classic_control.cartpole.CartPoleEnv`'s, operation for operation in
float64, so for equal seeds and actions the two produce bit-identical observations, rewards and terminations
(Gymnasium's own jax version differs: its ``polemass_length`` is ``masspole + length`` and its reward looks at
the state *before* the step).

Registered as ``phys2d/CartPole-v0`` (200 steps) and ``phys2d/CartPole-v1`` (500 steps).
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
from reference.envs.functional._drawing import draw_cartpole, frame_of
from reference.error import InvalidAction
from reference.spaces import Box, Discrete

__all__ = [
    "CartPoleFunctional",
    "CartPoleFunctionalEnv",
    "CartPoleFunctionalVectorEnv",
    "CartPoleParams",
    "InvalidCartPoleAction",
]

_State: TypeAlias = NDArray[np.float64]
_Obs: TypeAlias = NDArray[np.float32]
_Action: TypeAlias = "int | np.integer[Any] | NDArray[np.integer[Any]]"
_Reward: TypeAlias = "np.float64 | NDArray[np.float64]"
_Terminal: TypeAlias = "np.bool_ | NDArray[np.bool_]"

_INTEGRATORS = ("euler", "semi-implicit")


@dataclasses.dataclass(frozen=True)
class CartPoleParams:
    """The physical constants and display size (defaults: the classic task).

    ``total_mass`` and ``polemass_length`` are derived, so changing a mass or the length keeps them consistent.
    """

    gravity: float = 9.8
    masscart: float = 1.0
    masspole: float = 0.1
    length: float = 0.5  # half the pole length
    force_mag: float = 10.0
    tau: float = 0.02  # seconds per step
    kinematics_integrator: str = "euler"
    theta_threshold_radians: float = 12 * 2 * math.pi / 360
    x_threshold: float = 2.4
    x_init: float = 0.05  # initial state variables are uniform in [-x_init, x_init]
    sutton_barto_reward: bool = False
    screen_width: int = 600
    screen_height: int = 400

    def __post_init__(self) -> None:
        if self.kinematics_integrator not in _INTEGRATORS:
            raise ValueError(
                f"CartPoleParams kinematics_integrator must be one of {list(_INTEGRATORS)}, "
                f"got {self.kinematics_integrator!r}"
            )
        if not self.x_init >= 0:
            raise ValueError(f"CartPoleParams x_init must be >= 0, got {self.x_init!r}")
        for name in ("screen_width", "screen_height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"CartPoleParams {name} must be a positive int, got {value!r}")

    @property
    def total_mass(self) -> float:
        """``masspole + masscart``."""
        return self.masspole + self.masscart

    @property
    def polemass_length(self) -> float:
        """``masspole * length``."""
        return self.masspole * self.length


class InvalidCartPoleAction(InvalidAction, ValueError):
    """An action (or action batch) that is not 0/1 with one entry per state."""


def _forces(action: object, force_mag: float, batch_shape: tuple[int, ...]) -> NDArray[np.float64]:
    """``+force_mag`` where the action is 1 and ``-force_mag`` where it is 0, validating the action."""
    arr = np.asarray(action)
    if arr.dtype == np.bool_ and isinstance(action, bool):
        arr = arr.astype(np.int64)  # a Python bool is an int, as Discrete accepts it
    if arr.dtype.kind not in "iu" or arr.shape != batch_shape:
        raise InvalidCartPoleAction(
            f"CartPoleFunctional action must be an integer 0 or 1 per state (shape {batch_shape}), "
            f"got {summarise(action)}"
        )
    # One table lookup both maps 0/1 to -force/+force and rejects indices above 1; negatives need their own check.
    table = np.array([-force_mag, force_mag])
    try:
        if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
            raise IndexError
        force: NDArray[np.float64] = np.take(table, arr, mode="raise")
    except IndexError:
        raise InvalidCartPoleAction(f"CartPoleFunctional action must be 0 or 1, got {summarise(action)}") from None
    return force


class CartPoleFunctional(ParamsFuncEnv[_State, _Obs, _Action, _Reward, _Terminal, CartPoleParams]):
    """CartPole as pure functions; see the module docstring.

    Constructed like :class:`~reference.envs.functional._base.ParamsFuncEnv`: ``options`` are
    :class:`CartPoleParams` field values that become the default params.
    """

    params_cls = CartPoleParams
    state_width = 4

    def _spaces(self, params: CartPoleParams) -> tuple[Box, Discrete]:
        x_high, theta_high = params.x_threshold * 2, params.theta_threshold_radians * 2
        high = np.array([x_high, np.inf, theta_high, np.inf], dtype=np.float32)
        return Box(-high, high, dtype=np.float32), Discrete(2)

    def initial(self, rng: RNG, params: CartPoleParams | None = None) -> _State:
        """Draw the four variables uniformly from ``[-x_init, x_init]``, as ``CartPoleEnv.reset`` does.

        Args:
            rng: A ``Generator`` (one state) or a ``BatchedGenerator`` (one state per row).
            params: The params (default: :attr:`default_params`).

        Returns:
            A float64 state of shape ``(4,)``, or ``(len(rng), 4)``.
        """
        p = self._params(params)
        drawn: _State = rng.uniform(low=-p.x_init, high=p.x_init, size=(4,))
        return drawn

    def transition(
        self, state: _State, action: _Action, rng: object = None, params: CartPoleParams | None = None
    ) -> _State:
        """Push the cart (action 1: right, 0: left) and integrate one ``tau`` step.

        Args:
            state: A state ``(4,)`` or a batch ``(..., 4)`` (not modified).
            action: 0 or 1, or an integer array with the batch's shape.
            rng: Unused (the dynamics are deterministic).
            params: The params (default: :attr:`default_params`).

        Returns:
            The new state(s), float64, same shape as ``state``.

        Raises:
            InvalidCartPoleAction: If an action is not 0 or 1, or the action shape does not match the batch.
            ValueError: If the state does not have shape ``(..., 4)``.
        """
        p = self._params(params)
        arr = states("CartPoleFunctional", state, 4)
        force = _forces(action, p.force_mag, arr.shape[:-1]).reshape(-1)
        flat = arr.reshape(-1, 4)
        x, x_dot, theta, theta_dot = flat.T
        total_mass, polemass_length = p.total_mass, p.polemass_length
        costheta = np.cos(theta)
        sintheta = np.sin(theta)

        # The rates of change [x_dot, xacc, theta_dot, thetaacc], column-major so each is contiguous; the
        # accelerations are computed straight into their columns.
        rates = np.empty(flat.shape, dtype=np.float64, order="F")
        rates[:, 0::2] = flat[:, 1::2]
        xacc, thetaacc = rates[:, 1], rates[:, 3]

        # CartPoleEnv.step's float64 operations in the same order, in place on fresh temporaries (a * b and
        # b * a round identically, as do a + b and b + a).
        temp = theta_dot * theta_dot  # (force + polemass_length * theta_dot² * sin) / total_mass
        temp *= polemass_length
        temp *= sintheta
        temp += force
        temp /= total_mass
        np.multiply(sintheta, p.gravity, out=thetaacc)  # (g sin - cos temp) / (length (4/3 - masspole cos² / M))
        thetaacc -= np.multiply(costheta, temp, out=force)
        denom = costheta * costheta
        denom *= p.masspole
        denom /= total_mass
        np.subtract(4.0 / 3.0, denom, out=denom)
        denom *= p.length
        thetaacc /= denom
        np.multiply(thetaacc, polemass_length, out=xacc)  # temp - polemass_length * thetaacc * cos / total_mass
        xacc *= costheta
        xacc /= total_mass
        np.subtract(temp, xacc, out=xacc)

        tau = p.tau
        # Column-major too, so the next step's variables are contiguous.
        new = np.empty(flat.shape, dtype=np.float64, order="F")
        if p.kinematics_integrator == "euler":
            np.multiply(rates, tau, out=new)  # every variable at once: value + tau * rate
            new += flat
        else:  # semi-implicit Euler: velocities first, positions from the new velocities
            new_x, new_x_dot, new_theta, new_theta_dot = new.T
            _advance(new_x_dot, x_dot, xacc, tau)
            _advance(new_x, x, new_x_dot, tau)
            _advance(new_theta_dot, theta_dot, thetaacc, tau)
            _advance(new_theta, theta, new_theta_dot, tau)
        return new.reshape(arr.shape)

    def observation(self, state: _State, rng: object = None, params: CartPoleParams | None = None) -> _Obs:
        """The state rounded to float32 (a new array).

        Args:
            state: A state or a batch of states.
            rng: Unused.
            params: Unused.

        Returns:
            A float32 array of the state's shape.
        """
        return states("CartPoleFunctional", state, 4).astype(np.float32)

    def terminal(self, state: _State, rng: object = None, params: CartPoleParams | None = None) -> _Terminal:
        """Whether the pole fell past ``theta_threshold_radians`` or the cart left ``[-x_threshold, x_threshold]``.

        Args:
            state: A state or a batch of states.
            rng: Unused.
            params: The params (default: :attr:`default_params`).

        Returns:
            A ``numpy.bool_`` for one state, a bool array for a batch.
        """
        p = self._params(params)
        arr = states("CartPoleFunctional", state, 4)
        # |v| > t is exactly (v < -t or v > t): negation is exact, and NaN compares false either way.
        limits = np.array([p.x_threshold, p.theta_threshold_radians])
        done: _Terminal = (np.abs(arr[..., 0::2]) > limits).any(axis=-1)
        return done

    def reward(
        self,
        state: _State,
        action: _Action,
        next_state: _State,
        rng: object = None,
        params: CartPoleParams | None = None,
    ) -> _Reward:
        """1.0 per step; with ``sutton_barto_reward``, -1.0 on reaching a terminal state and 0.0 otherwise.

        Args:
            state: The state(s) before the step.
            action: The action(s) taken.
            next_state: The state(s) after the step.
            rng: Unused.
            params: The params (default: :attr:`default_params`).

        Returns:
            A float64 scalar, or one reward per state.
        """
        p = self._params(params)
        batch_shape = states("CartPoleFunctional", next_state, 4).shape[:-1]
        if p.sutton_barto_reward:
            rewards = np.where(np.asarray(self.terminal(next_state, rng, p)), -1.0, 0.0)
        else:
            rewards = np.ones(batch_shape, dtype=np.float64)
        return rewards if rewards.ndim else rewards[()]

    def render_init(self, params: CartPoleParams | None = None, **kwargs: object) -> Canvas:
        """Create an offscreen canvas (no window, no SDL subsystem).

        Args:
            params: The params (default: :attr:`default_params`); ``screen_width``/``screen_height`` set the size.
            **kwargs: ``screen_width`` and ``screen_height`` override the params' size.

        Returns:
            The canvas.

        Raises:
            TypeError: If another keyword is given, or a size is not an int.
        """
        p = self._params(params)
        width, height = self._render_sizes(kwargs, {"screen_width": p.screen_width, "screen_height": p.screen_height})
        return Canvas(mode="rgb_array", size=(width, height), fps=50, caption="CartPole")

    def render_image(
        self, state: _State, render_state: Canvas, params: CartPoleParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """Draw one state.

        Args:
            state: One state of shape ``(4,)``.
            render_state: The canvas from :meth:`render_init`.
            params: The params (default: :attr:`default_params`).

        Returns:
            ``(render_state, frame)``, the frame a fresh ``(height, width, 3)`` uint8 array.

        Raises:
            ValueError: If ``state`` is a batch.
        """
        p = self._params(params)
        arr = self._one_state(state)
        draw_cartpole(render_state, float(arr[0]), float(arr[2]), x_threshold=p.x_threshold, length=p.length)
        return render_state, frame_of(render_state, "CartPoleFunctional")


def _advance(out: NDArray[np.float64], value: NDArray[np.float64], rate: NDArray[np.float64], tau: float) -> None:
    """``out = value + tau * rate`` (the Euler update) without temporaries."""
    np.multiply(rate, tau, out=out)
    out += value


class CartPoleFunctionalEnv(ParamsFunctionalEnv[_State, _Obs, _Action, CartPoleParams]):
    """Functional CartPole as an ``Env`` (entry point of ``phys2d/CartPole-v0``/``-v1``).

    Constructed like :class:`~reference.envs.functional._base.ParamsFunctionalEnv`; the keyword arguments are
    :class:`CartPoleParams` field values (e.g. ``sutton_barto_reward=True``).
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50}
    func_env_cls = CartPoleFunctional


class CartPoleFunctionalVectorEnv(ParamsFunctionalVectorEnv[_State, _Obs, _Action, CartPoleParams]):
    """Functional CartPole, ``num_envs`` carts stepped by one batched call (vector entry point of the phys2d ids).

    Constructed like :class:`~reference.envs.functional._base.ParamsFunctionalVectorEnv`; the keyword arguments
    after ``max_episode_steps`` are :class:`CartPoleParams` field values.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 50}
    func_env_cls = CartPoleFunctional
