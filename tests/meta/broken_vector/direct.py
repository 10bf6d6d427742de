"""Vector envs written directly (no ``env_fns``, as Gymnasium's ``CartPoleVectorEnv``): a correct base in two
autoreset modes and one class per broken rule that every vector env must keep (issue 26, item 2).

:class:`Slide` runs ``num_envs`` cars on a line (``x' = x + 0.4 a``, actions ``0, 1, 2`` push left, not at all,
right) with a random start in ``[-0.5, 0.5]``, terminating when ``|x| > 1`` and truncating after 6 steps. All
sub-envs draw from **one** shared generator, advanced correctly: that is legal (``CartPoleVectorEnv`` does the same),
so the base doubles as the control with a shared generator.
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
    "Slide",
    "SlideIdenticalRows",
    "SlideReseedsUnseeded",
    "SlideSameStep",
    "SlideUnseededAlike",
]

_MAX_STEPS = 6


class Slide(VectorEnv[Any, Any, Any]):
    """A correct vector env written directly, with one generator shared by its sub-envs.

    Args:
        num_envs: The number of sub-envs.
    """

    mode = AutoresetMode.NEXT_STEP

    def __init__(self, num_envs: int) -> None:
        self.num_envs = num_envs
        self.metadata = {"render_modes": [], "autoreset_mode": self.mode}
        self.single_observation_space = Box(-2.0, 2.0, (2,), np.float32)
        self.single_action_space = Discrete(3)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rng = np.random.default_rng()
        self._x = np.zeros(num_envs)
        self._t = np.zeros(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=bool)

    def _obs(self) -> NDArray[np.float32]:
        return np.stack([np.clip(self._x, -2.0, 2.0), self._t / 10.0], axis=1).astype(np.float32)

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)

    def _starts(self, count: int) -> NDArray[np.float64]:
        return self._rng.uniform(-0.5, 0.5, size=count)

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError(f"{type(self).__name__} is closed; make a new one")

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        self._check_open()
        self._seed(seed)
        self._x = self._starts(self.num_envs)
        self._t[:] = 0
        self._ended[:] = False
        return self._obs(), {}

    def _advance(self, actions: Any) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
        moves = 0.4 * (np.asarray(actions, dtype=np.float64).reshape(self.num_envs) - 1.0)
        self._x = np.clip(self._x + moves, -2.0, 2.0)
        self._t += 1
        terminated = np.abs(self._x) > 1.0
        truncated = ~terminated & (self._t >= _MAX_STEPS)
        return -np.abs(self._x), terminated, truncated

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        self._check_open()
        resetting = self._ended.copy()
        rewards, terminated, truncated = self._advance(actions)
        if resetting.any():
            self._x[resetting] = self._starts(int(resetting.sum()))
            self._t[resetting] = 0
            rewards[resetting] = 0.0
            terminated[resetting] = False
            truncated[resetting] = False
        self._ended = terminated | truncated
        return self._obs(), rewards, terminated, truncated, {}


class SlideSameStep(Slide):
    """The same, under ``"SameStep"``: final observations and infos in ``info``, the new start returned."""

    mode = AutoresetMode.SAME_STEP

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        self._check_open()
        rewards, terminated, truncated = self._advance(actions)
        ended = terminated | truncated
        final = self._obs()
        info: dict[str, Any] = {}
        if ended.any():
            self._x[ended] = self._starts(int(ended.sum()))
            self._t[ended] = 0
            values = np.empty(self.num_envs, dtype=object)
            for i in np.flatnonzero(ended):
                values[i] = final[i].copy()
            info = {"final_obs": values, "_final_obs": ended.copy(), "final_info": {}, "_final_info": ended.copy()}
        return self._obs(), rewards, terminated, truncated, info


class SlideReseedsUnseeded(Slide):
    """An unseeded ``reset()`` re-seeds the shared generator from entropy instead of continuing it (VEC-021)."""

    def _seed(self, seed: int | None) -> None:
        self._rng = np.random.default_rng(seed)


class SlideIdenticalRows(Slide):
    """Draws one start and gives it to every sub-env: copies of one stream, not independent sub-envs (VEC-022)."""

    def _starts(self, count: int) -> NDArray[np.float64]:
        return np.full(count, self._rng.uniform(-0.5, 0.5))


class SlideUnseededAlike(Slide):
    """A reset without a seed gives every sub-env one start (a single draw): seeded resets draw each sub-env's own
    (VEC-024; issue 37 item 11)."""

    def reset(self, *, seed: Any = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        obs, info = super().reset(seed=seed, options=options)
        if seed is None:
            self._x[:] = self._x[0]  # VEC-024: one stream copied to every sub-env
            obs = self._obs()
        return obs, info
