"""A small stochastic, batch-capable ``FuncEnv`` that draws from ``rng`` in every function.

Its randomness makes the random-stream scheme of the adapters observable: any difference in which generator a
function receives, or in the order functions are called, changes the trajectory.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

from gymspec import RNG, InfoDict
from reference.functional import FuncEnv
from reference.spaces import Box, Discrete

__all__ = ["NoisyWalk", "WalkParams"]

_State: TypeAlias = NDArray[np.float64]
_Obs: TypeAlias = NDArray[np.float32]
_Action: TypeAlias = Any  # an int, or an int array with one action per state
_Reward: TypeAlias = Any  # a float, or one float per state
_Terminal: TypeAlias = Any  # a bool, or one bool per state


class WalkParams:
    """The walk's only parameter: how far one action moves the walker."""

    def __init__(self, step: float = 0.2) -> None:
        self.step = step


class NoisyWalk(FuncEnv[_State, _Obs, _Action, _Reward, _Terminal, None, WalkParams]):
    """A walker on the plane pushed left/stay/right, with noisy moves, observations and rewards.

    Episodes end when ``|x| > 1`` (typically after a handful of steps), so rollouts cross many resets.
    """

    def __init__(self) -> None:
        super().__init__()
        self.observation_space = Box(-np.inf, np.inf, shape=(2,), dtype=np.float32)
        self.action_space = Discrete(3)

    def get_default_params(self, **kwargs: Any) -> WalkParams:
        return WalkParams(**kwargs)

    def _params(self, params: WalkParams | None) -> WalkParams:
        p = self.default_params if params is None else params
        if p is None:
            raise TypeError("NoisyWalk params must be WalkParams, got None")
        return p

    def initial(self, rng: RNG, params: WalkParams | None = None) -> _State:
        state: _State = rng.uniform(-0.5, 0.5, size=(2,))
        return state

    def transition(self, state: _State, action: _Action, rng: RNG, params: WalkParams | None = None) -> _State:
        move = (np.asarray(action, dtype=np.float64)[..., None] - 1.0) * self._params(params).step
        noise: _State = rng.uniform(-0.05, 0.05, size=(2,))
        return state + move + noise

    def observation(self, state: _State, rng: RNG, params: WalkParams | None = None) -> _Obs:
        noise: _State = rng.uniform(-0.01, 0.01, size=(2,))
        return (state + noise).astype(np.float32)

    def reward(
        self, state: _State, action: _Action, next_state: _State, rng: RNG, params: WalkParams | None = None
    ) -> _Reward:
        return -np.abs(next_state).sum(axis=-1) + rng.random()

    def terminal(self, state: _State, rng: RNG, params: WalkParams | None = None) -> _Terminal:
        return np.abs(state[..., 0]) > 1.0

    def state_info(self, state: _State, params: WalkParams | None = None) -> InfoDict:
        return {"norm": np.linalg.norm(state, axis=-1)}

    def transition_info(
        self, state: _State, action: _Action, next_state: _State, params: WalkParams | None = None
    ) -> InfoDict:
        return {"moved": np.asarray(action) != 1, "nested": {"x": next_state[..., 0]}}
