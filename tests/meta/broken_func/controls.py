"""Correct functional envs with unusual-but-legal behaviour that the FUNC rules must pass."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from reference.functional import FuncEnv
from reference.spaces import Box, Discrete
from tests.meta.broken_func._base import Drift, DriftParams

__all__ = ["CoinSlips", "SingleStates"]

_State = NDArray[np.float64]


class SingleStates(FuncEnv[_State, NDArray[np.float32], Any, Any, Any, Any, None]):
    """A NumPy FuncEnv for single states only: it unpacks its ``[x, v, t]`` state (``x, v, t = state``).

    On a batch of 3 rows the unpacking runs and mixes rows, on a batch of 2 it raises: such an env does not take
    batches, so the batched checks (FUNC-008/009/014) must not apply to it rather than report its garbage.
    """

    def __init__(self) -> None:
        super().__init__()
        self.observation_space = Box(-np.inf, np.inf, shape=(3,), dtype=np.float32)
        self.action_space = Discrete(2)

    def initial(self, rng: Any, params: None = None) -> _State:
        drawn: _State = rng.uniform(-0.5, 0.5, size=(3,))
        return drawn

    def transition(self, state: _State, action: Any, rng: Any, params: None = None) -> _State:
        x, v, t = state
        v = v + (0.1 if int(action) == 1 else -0.1)
        return np.array([x + v, v, t + 1.0])

    def observation(self, state: _State, rng: Any, params: None = None) -> NDArray[np.float32]:
        return np.asarray(state, dtype=np.float32)

    def reward(self, state: _State, action: Any, next_state: _State, rng: Any, params: None = None) -> float:
        x, _, _ = next_state
        return float(-abs(x))

    def terminal(self, state: _State, rng: Any, params: None = None) -> bool:
        x, _, _ = state
        return bool(abs(x) > 3.0)

    def state_info(self, state: _State, params: None = None) -> dict[str, Any]:
        return {}

    def transition_info(self, state: _State, action: Any, next_state: _State, params: None = None) -> dict[str, Any]:
        return {}


class CoinSlips(Drift):
    """:class:`Drift` whose only randomness in ``transition`` is a coin (a slip of 0.1 or none), drawn from a
    generator it derives from ``rng`` for each row (legal: the randomness still comes from ``rng``). Two calls give
    equal results half the time: FUNC-004 (a generator built, results equal for two rngs) and FUNC-013 (equal for
    two calls with one generator) once concluded a defect from two equal results (issue 37, the equality audit)."""

    def transition(self, state: Any, action: Any, rng: Any, params: DriftParams | None = None) -> Any:
        p = self._p(params)
        actions = np.asarray(action)
        if actions.shape != state.shape[:-1] or not np.isin(actions, (0, 1, 2)).all():
            raise ValueError(f"CoinSlips action must be an element of {self.action_space} per state, got {action!r}")
        # One uniform per row from rng, each seeding a coin: the rows stay independent (FUNC-014).
        seeds = np.asarray(rng.uniform(0.0, 1.0)) * 2**31
        coins = np.vectorize(lambda seed: np.random.default_rng(int(seed)).integers(2))(seeds)
        x = state[..., 0] + (actions - 1) * p["push"] + 0.1 * coins
        return np.stack([x, state[..., 1] + 1.0], axis=-1)
