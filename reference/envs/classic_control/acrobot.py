"""Acrobot: swing the tip of an under-actuated two-link pendulum above a line by torquing the middle joint.

Observation ``[cos θ1, sin θ1, cos θ2, sin θ2, θ1_dot, θ2_dot]`` (float32); actions 0/1/2 apply a torque of
-1/0/+1 on the joint between the links. Every step costs -1 until the tip rises one link length above the pivot.
The dynamics ("book" version of Sutton & Barto) are integrated with one classic Runge-Kutta-4 step of ``dt``.
Seeded trajectories are bit-identical to Gymnasium 1.x's ``AcrobotEnv``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from reference._narrowing import is_tuple
from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import DiscreteAction, discrete_action
from reference.envs._rendering import Canvas, CanvasRenderer
from reference.envs.classic_control.utils import maybe_parse_reset_bounds
from reference.spaces.box import Box
from reference.spaces.discrete import Discrete

__all__ = ["AcrobotEnv", "bound", "rk4", "wrap"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Obs: TypeAlias = NDArray[np.float32]
_Vector: TypeAlias = tuple[float, ...]

pi = math.pi


def wrap(x: float, m: float, M: float) -> float:  # noqa: N803 - conventional interval names
    """Shift ``x`` by whole periods ``M - m`` into ``[m, M]``.

    Args:
        x: The value to wrap.
        m: The lower end of the interval.
        M: The upper end of the interval.

    Returns:
        The wrapped value.
    """
    diff = M - m
    while x > M:
        x = x - diff
    while x < m:
        x = x + diff
    return x


def bound(x: float, m: float | tuple[float, float], M: float | None = None) -> float:  # noqa: N803
    """Clamp ``x`` to ``[m, M]``.

    Args:
        x: The value to clamp.
        m: The lower bound, or the pair ``(lower, upper)`` when ``M`` is omitted.
        M: The upper bound.

    Returns:
        The clamped value.
    """
    if M is None:
        if not is_tuple(m):
            raise TypeError(f"bound m must be a (lower, upper) pair when M is omitted, got {m!r}")
        m, M = m  # pyright: ignore[reportConstantRedefinition]  # Gymnasium's parameter names
    elif is_tuple(m):
        raise TypeError(f"bound m must be a number when M is given, got {m!r}")
    return min(max(x, m), M)


def _rk4_step(derivs: Callable[[_Vector], _Vector], y0: _Vector, dt: float) -> _Vector:
    """Advance ``y' = derivs(y)`` by one classic fourth-order Runge-Kutta step.

    The element-wise operation order is the one Gymnasium's array-based integrator uses, so results agree to the
    last bit.

    Args:
        derivs: The time-invariant derivative function, mapping a state tuple to a tuple of the same length.
        y0: The state at the start of the step.
        dt: The step length.

    Returns:
        The state after ``dt``.
    """
    half = dt / 2.0
    k1 = derivs(y0)
    k2 = derivs(tuple(y + half * k for y, k in zip(y0, k1)))
    k3 = derivs(tuple(y + half * k for y, k in zip(y0, k2)))
    k4 = derivs(tuple(y + dt * k for y, k in zip(y0, k3)))
    sixth = dt / 6.0
    return tuple(y + sixth * (a + 2 * b + 2 * c + d) for y, a, b, c, d in zip(y0, k1, k2, k3, k4))


def rk4(derivs: Callable[[NDArray[np.float64]], ArrayLike], y0: ArrayLike, t: ArrayLike) -> NDArray[np.float64]:
    """Integrate ``y' = derivs(y)`` with classic fourth-order Runge-Kutta over the sample times ``t``.

    Gymnasium's public integrator, with its Acrobot-specific result: the *final* state, cut to its first four
    entries (the Acrobot state without the appended action). :class:`AcrobotEnv` takes one step of it with the
    same arithmetic.

    Args:
        derivs: The time-invariant derivative, mapping a state array to its derivative (any array-like).
        y0: The initial state, a 1-D sequence.
        t: The sample times; ``t[0]`` is the time of ``y0``.

    Returns:
        The state at ``t[-1]``, first four entries.

    Example:
        >>> rk4(lambda y: -y, [1.0, 2.0], [0.0, 0.1]).round(6).tolist()
        [0.904838, 1.809675]
    """
    times = np.asarray(t, dtype=np.float64)
    start = np.asarray(y0, dtype=np.float64)
    out = np.zeros((len(times),) + start.shape, dtype=np.float64)
    out[0] = start
    for i in range(len(times) - 1):
        dt = times[i + 1] - times[i]
        y = out[i]
        k1 = np.asarray(derivs(y))
        k2 = np.asarray(derivs(y + dt / 2.0 * k1))
        k3 = np.asarray(derivs(y + dt / 2.0 * k2))
        k4 = np.asarray(derivs(y + dt * k3))
        out[i + 1] = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
    final: NDArray[np.float64] = out[-1][:4]
    return final


class AcrobotEnv(CanvasRenderer[tuple[float, float]], Env[_Obs, DiscreteAction]):
    """The acrobot swing-up task.

    The model constants are class attributes, as in Gymnasium; ``torque_noise_max > 0`` adds uniform noise to
    the torque (drawn from :attr:`np_random`) and ``book_or_nips = "nips"`` selects the NIPS-paper dynamics.

    Args:
        render_mode: None, ``"human"`` or ``"rgb_array"``.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 15}
    _render_owner = "AcrobotEnv"
    _render_caption = "Acrobot"

    dt = 0.2
    LINK_LENGTH_1 = 1.0
    LINK_LENGTH_2 = 1.0
    LINK_MASS_1 = 1.0
    LINK_MASS_2 = 1.0
    LINK_COM_POS_1 = 0.5
    LINK_COM_POS_2 = 0.5
    LINK_MOI = 1.0
    MAX_VEL_1 = 4 * pi
    MAX_VEL_2 = 9 * pi
    AVAIL_TORQUE = [-1.0, 0.0, +1]
    torque_noise_max = 0.0
    SCREEN_DIM = 500
    book_or_nips = "book"
    actions_num = 3

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        high = np.array([1.0, 1.0, 1.0, 1.0, self.MAX_VEL_1, self.MAX_VEL_2], dtype=np.float32)
        self.observation_space = Box(low=-high, high=high, dtype=np.float32)
        self.action_space = Discrete(3)
        self._canvas = None
        #: ``[θ1, θ2, θ1_dot, θ2_dot]``: float32 right after reset, float64 after a step (as in Gymnasium).
        self.state: NDArray[np.floating[Any]] | None = None

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Obs, _Info]:
        """Draw the four state variables uniformly from ``[low, high]`` (default ``[-0.1, 0.1]``).

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: May hold ``"low"`` and ``"high"`` to change the initial-state range.

        Returns:
            ``(observation, {})``.

        Raises:
            ValueError: If the bounds in ``options`` are not numbers or ``low > high``.
        """
        super().reset(seed=seed)
        low, high = maybe_parse_reset_bounds(options, -0.1, 0.1, owner="AcrobotEnv reset")
        self.state = self.np_random.uniform(low=low, high=high, size=(4,)).astype(np.float32)
        if self.render_mode == "human":
            self.render()
        return self._observation(self.state), {}

    def step(self, a: DiscreteAction) -> tuple[_Obs, float, bool, bool, _Info]:  # pyright: ignore[reportIncompatibleMethodOverride]
        """Apply the chosen torque for :attr:`dt` seconds.

        Args:
            a: 0 (torque -1), 1 (no torque) or 2 (torque +1).

        Returns:
            ``(observation, reward, terminated, False, {})`` with reward -1.0, or 0.0 on termination.

        Raises:
            InvalidDiscreteAction: If the action is not in ``{0, 1, 2}``.
            StepBeforeReset: If the environment was never reset.
        """
        act = a if type(a) is int and 0 <= a < 3 else discrete_action("AcrobotEnv", a, 3)
        if self.state is None:
            raise step_before_reset("AcrobotEnv")
        torque = float(self.AVAIL_TORQUE[act])
        if self.torque_noise_max > 0:
            torque += self.np_random.uniform(-self.torque_noise_max, self.torque_noise_max)
        s = self.state
        # float() widens a float32 post-reset state exactly, as Gymnasium's float64 integrator does.
        y0 = (float(s[0]), float(s[1]), float(s[2]), float(s[3]), torque)
        t1, t2, v1, v2, _ = _rk4_step(self._dsdt, y0, self.dt)
        t1 = wrap(t1, -pi, pi)
        t2 = wrap(t2, -pi, pi)
        v1 = bound(v1, -self.MAX_VEL_1, self.MAX_VEL_1)
        v2 = bound(v2, -self.MAX_VEL_2, self.MAX_VEL_2)
        self.state = np.array([t1, t2, v1, v2], dtype=np.float64)
        terminated = -math.cos(t1) - math.cos(t2 + t1) > 1.0
        if self.render_mode == "human":
            self.render()
        return self._observation(self.state), (0.0 if terminated else -1.0), terminated, False, {}

    @staticmethod
    def _observation(s: NDArray[np.floating[Any]]) -> _Obs:
        # NumPy's cos/sin on the state's own dtype: right after reset the state is float32 and Gymnasium evaluates
        # the float32 ufuncs, which round differently from float64 math.cos.
        return np.array([np.cos(s[0]), np.sin(s[0]), np.cos(s[1]), np.sin(s[1]), s[2], s[3]], dtype=np.float32)

    def _dsdt(self, y: _Vector) -> _Vector:
        m1, m2 = self.LINK_MASS_1, self.LINK_MASS_2
        l1 = self.LINK_LENGTH_1
        lc1, lc2 = self.LINK_COM_POS_1, self.LINK_COM_POS_2
        i1 = i2 = self.LINK_MOI
        g = 9.8
        theta1, theta2, dtheta1, dtheta2, a = y
        cos2, sin2 = math.cos(theta2), math.sin(theta2)
        # Each expression keeps Gymnasium's association order; changing it changes the last bits.
        d1 = m1 * lc1**2 + m2 * (l1**2 + lc2**2 + 2 * l1 * lc2 * cos2) + i1 + i2
        d2 = m2 * (lc2**2 + l1 * lc2 * cos2) + i2
        phi2 = m2 * lc2 * g * math.cos(theta1 + theta2 - pi / 2.0)
        phi1 = (
            -m2 * l1 * lc2 * dtheta2**2 * sin2
            - 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * sin2
            + (m1 * lc1 + m2 * l1) * g * math.cos(theta1 - pi / 2)
            + phi2
        )
        if self.book_or_nips == "nips":
            ddtheta2 = (a + d2 / d1 * phi1 - phi2) / (m2 * lc2**2 + i2 - d2**2 / d1)
        else:
            ddtheta2 = (a + d2 / d1 * phi1 - m2 * l1 * lc2 * dtheta1**2 * sin2 - phi2) / (
                m2 * lc2**2 + i2 - d2**2 / d1
            )
        ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
        return dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0

    def _render_state(self) -> tuple[float, float] | None:
        return None if self.state is None else (float(self.state[0]), float(self.state[1]))

    def _canvas_size(self) -> tuple[int, int]:
        return self.SCREEN_DIM, self.SCREEN_DIM

    def _draw(self, canvas: Canvas, state: tuple[float, float]) -> None:
        theta1, theta2 = state
        surface = canvas.surface  # imports pygame, with a helpful error if it is missing
        from pygame import draw, gfxdraw

        dim = self.SCREEN_DIM
        scale = dim / ((self.LINK_LENGTH_1 + self.LINK_LENGTH_2 + 0.2) * 2)
        centre = dim / 2
        surface.fill((255, 255, 255))
        goal_y = centre - 1 * scale  # one link length above the pivot; screen y grows downwards
        draw.line(surface, (0, 0, 0), (centre - 2.2 * scale, goal_y), (centre + 2.2 * scale, goal_y))

        # θ = 0 hangs straight down; angles grow counter-clockwise.
        joints = [(centre, centre)]
        angles = [theta1, theta1 + theta2]
        lengths = [self.LINK_LENGTH_1 * scale, self.LINK_LENGTH_2 * scale]
        for angle, length in zip(angles, lengths):
            x, y = joints[-1]
            joints.append((x + length * math.sin(angle), y + length * math.cos(angle)))
        half_w = 0.1 * scale
        for (x0, y0), (x1, y1) in zip(joints, joints[1:]):
            length = math.hypot(x1 - x0, y1 - y0)
            nx, ny = -(y1 - y0) / length * half_w, (x1 - x0) / length * half_w
            link = [(x0 - nx, y0 - ny), (x1 - nx, y1 - ny), (x1 + nx, y1 + ny), (x0 + nx, y0 + ny)]
            gfxdraw.aapolygon(surface, link, (0, 204, 204))
            gfxdraw.filled_polygon(surface, link, (0, 204, 204))
            gfxdraw.aacircle(surface, int(x0), int(y0), int(half_w), (204, 204, 0))
            gfxdraw.filled_circle(surface, int(x0), int(y0), int(half_w), (204, 204, 0))
