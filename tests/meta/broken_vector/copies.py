"""Vector envs written directly (no ``env_fns``) that seed their sub-envs as copies, ``s + i`` (issue 26, item 2).

:class:`Lanes` runs ``num_envs`` carts with a hidden velocity: ``v' = 0.8 v + 0.3 (a - 1) + noise``, ``x' = x + v``
(actions ``0, 1, 2`` push left, not at all, right), observed as ``(x, t / 10)``, starting at a random ``x`` in
``[-0.5, 0.5]`` with ``v = 0``, terminating when ``|x| > 1.5`` and truncating after 8 steps. Sub-env ``i`` has a
generator of its own, seeded ``s + i`` by ``reset(seed=s)``, for its start and its noise, so its ``num_envs=1``
construction reset with ``s + i`` is an exact model of it: the suite's copies (:mod:`conformance._kit.own_model`)
predict it. It takes an ``autoreset_mode`` and supports ``reset_mask`` in every mode.

The broken classes break it where only a comparison with the copies sees it: noise drawn from one generator shared
by the sub-envs (VEC-023), a partial reset that clears the other sub-envs' hidden velocity (AUTORESET-009), sub-envs
that wait on the step another one resets (AUTORESET-004), and, seen structurally, a ``final_obs`` that is the next
episode's first observation (AUTORESET-002).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from gymspec import AutoresetMode
from reference.error import ClosedEnvironmentError
from reference.spaces import Box, Discrete
from reference.vector import VectorEnv
from reference.vector.utils import batch_space

__all__ = [
    "Lanes",
    "LanesDisabled",
    "LanesOthersWait",
    "LanesPartialClearsOthers",
    "LanesRestartsOnAutoreset",
    "LanesSameStep",
    "LanesSharedNoise",
    "LanesSharedSlips",
]

_MAX_STEPS = 8
_LIMIT = 1.5


class Lanes(VectorEnv[Any, Any, Any]):
    """A correct vector env written directly whose sub-envs are seeded as copies (``s + i``), under ``"NextStep"``.

    Args:
        num_envs: The number of sub-envs.
    """

    mode = AutoresetMode.NEXT_STEP

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs
        self.metadata = {"render_modes": [], "autoreset_mode": self.mode}
        self.single_observation_space = Box(-5.0, 5.0, (2,), np.float32)
        self.single_action_space = Discrete(3)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rngs = [np.random.default_rng() for _ in range(num_envs)]
        self._x = np.zeros(num_envs)
        self._v = np.zeros(num_envs)
        self._t = np.zeros(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=bool)

    def _obs(self) -> NDArray[np.float32]:
        return np.stack([np.clip(self._x, -5.0, 5.0), self._t / 10.0], axis=1).astype(np.float32)

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(f"{type(self).__name__} is closed; make a new one")

    def _start(self, i: int) -> None:
        self._x[i] = self._rngs[i].uniform(-0.5, 0.5)
        self._v[i] = 0.0
        self._t[i] = 0
        self._ended[i] = False

    def _noise(self, rows: NDArray[np.bool_]) -> NDArray[np.float64]:
        noise = np.zeros(self.num_envs)
        for i in np.flatnonzero(rows):
            noise[i] = self._rngs[i].normal(0.0, 0.05)
        return noise

    def _clear(self, mask: NDArray[np.bool_]) -> None:
        """What a partial reset does besides starting the masked sub-envs anew: nothing."""

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        self._check_open()
        if isinstance(seed, (int, np.integer)):
            self._rngs = [np.random.default_rng(int(seed) + i) for i in range(self.num_envs)]
        elif seed is not None:
            if len(seed) != self.num_envs:
                raise ValueError(f"Lanes seed must be a list of {self.num_envs} seeds, got {len(seed)}")
            self._rngs = [np.random.default_rng(s) if s is not None else rng for s, rng in zip(seed, self._rngs)]
        mask = (options or {}).get("reset_mask")
        if mask is None:
            rows = np.ones(self.num_envs, dtype=bool)
        else:
            if not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (self.num_envs,)):
                raise ValueError(f"Lanes reset_mask must be a bool array of shape ({self.num_envs},), got {mask!r}")
            rows = mask.copy()
            self._clear(rows)
        for i in np.flatnonzero(rows):
            self._start(int(i))
        return self._obs(), {}

    def _advance(self, actions: Any, moving: NDArray[np.bool_]) -> tuple[Any, Any, Any]:
        pushes = 0.3 * (np.asarray(actions, dtype=np.float64).reshape(self.num_envs) - 1.0)
        noise = self._noise(moving)
        self._v = np.where(moving, 0.8 * self._v + pushes + noise, self._v)
        self._x = np.where(moving, self._x + self._v, self._x)
        self._t = np.where(moving, self._t + 1, self._t)
        terminated = moving & (np.abs(self._x) > _LIMIT)
        truncated = moving & ~terminated & (self._t >= _MAX_STEPS)
        return np.where(moving, -np.abs(self._x), 0.0), terminated, truncated

    def _moving(self, resetting: NDArray[np.bool_]) -> NDArray[np.bool_]:
        return ~resetting

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        self._check_open()
        resetting = self._ended.copy() if self.mode is AutoresetMode.NEXT_STEP else np.zeros(self.num_envs, bool)
        for i in np.flatnonzero(resetting):
            self._start(int(i))
        rewards, terminated, truncated = self._advance(actions, self._moving(resetting))
        ended = terminated | truncated
        self._ended = ended.copy()
        info: dict[str, Any] = {}
        if self.mode is AutoresetMode.SAME_STEP and ended.any():
            final = self._obs()
            for i in np.flatnonzero(ended):
                self._start(int(i))
            info = self._final(final, ended)
        return self._obs(), rewards, terminated, truncated, info

    def _final(self, final: NDArray[np.float32], ended: NDArray[np.bool_]) -> dict[str, Any]:
        values = np.empty(self.num_envs, dtype=object)
        for i in np.flatnonzero(ended):
            values[i] = final[i].copy()
        return {"final_obs": values, "_final_obs": ended.copy(), "final_info": {}, "_final_info": ended.copy()}


class LanesSameStep(Lanes):
    """The same, under ``"SameStep"``."""

    mode = AutoresetMode.SAME_STEP


class LanesDisabled(Lanes):
    """The same, under ``"Disabled"`` (the caller resets ended sub-envs with ``reset_mask``)."""

    mode = AutoresetMode.DISABLED


class LanesSharedNoise(Lanes):
    """Draws every sub-env's noise from sub-env 0's generator: the sub-envs share one stream (VEC-023)."""

    def _noise(self, rows: NDArray[np.bool_]) -> NDArray[np.float64]:
        noise = np.zeros(self.num_envs)
        for i in np.flatnonzero(rows):
            noise[i] = self._rngs[0].normal(0.0, 0.05)
        return noise


class LanesSharedSlips(Lanes):
    """Every sub-env slips (a push of 0.4) a fifth of the time, drawn from sub-env 0's generator: one slip stream
    shared by all. A sub-env's first steps often agree with its copy's (no slip on either), so it looked proven to
    draw its own randomness, and later slips were reported as AUTORESET-002/004 (VEC-023; issue 37 item 13)."""

    def _noise(self, rows: NDArray[np.bool_]) -> NDArray[np.float64]:
        noise = np.zeros(self.num_envs)
        for i in np.flatnonzero(rows):
            noise[i] = 0.4 if self._rngs[0].random() < 0.2 else 0.0
        return noise


class LanesPartialClearsOthers(LanesDisabled):
    """A partial reset clears every sub-env's hidden velocity, not only the masked ones' (AUTORESET-009)."""

    def _clear(self, mask: NDArray[np.bool_]) -> None:
        self._v[:] = 0.0


class LanesOthersWait(Lanes):
    """On a step where a sub-env resets, the others do not move (AUTORESET-004)."""

    def _moving(self, resetting: NDArray[np.bool_]) -> NDArray[np.bool_]:
        return ~resetting if not resetting.any() else np.zeros(self.num_envs, dtype=bool)


class LanesRestartsOnAutoreset(Lanes):
    """Re-creates a sub-env's generator from the seed of its last reset whenever it starts an episode, its own
    autoresets included: every episode of a sub-env starts where its first did. Its num_envs=1 copies do the same, so
    every exact check agrees with it; only the starts show it (VEC-021; issue 37 item 11)."""

    def __init__(self, num_envs: int) -> None:
        super().__init__(num_envs)
        self._seeds: list[int | None] = [None] * num_envs

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        if isinstance(seed, (int, np.integer)):
            self._seeds = [int(seed) + i for i in range(self.num_envs)]
        return super().reset(seed=seed, options=options)

    def _start(self, i: int) -> None:
        if self._seeds[i] is not None:
            self._rngs[i] = np.random.default_rng(self._seeds[i])  # VEC-021: the generator restarts
        super()._start(i)
