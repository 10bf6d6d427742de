"""Functional envs that each break one FUNC rule (everything else is ``Drift``'s correct behaviour)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

from tests.meta.broken_func._base import Drift, DriftParams, _State

__all__ = [
    "Func001ObservationSpaceWithoutSeed",
    "Func002TransitionMutatesState",
    "Func003HiddenCounter",
    "Func004GlobalNoise",
    "Func004PrivateGenerator",
    "Func004ReadsGlobalState",
    "Func005DefaultsDisagree",
    "Func006InitialOutside",
    "Func007TransitionLeavesSpace",
    "Func008ArrayReward",
    "Func009IntTerminal",
    "Func010ListInfo",
    "Func011TerminalNotTransformed",
    "Func012FloatFrame",
    "Func013CopiedNoise",
    "Func014MixedRows",
    "FuncBatch008RewardShape",
    "FuncBatch009PythonBool",
]


class _NoSeed:
    """A Box look-alike without ``seed``/``np_random``: it does not satisfy the Space protocol."""

    def __init__(self, box: Any) -> None:
        self._box = box
        self.shape, self.dtype = box.shape, box.dtype
        self.low, self.high = box.low, box.high

    def contains(self, x: Any) -> bool:
        return bool(self._box.contains(x))

    def __contains__(self, x: Any) -> bool:
        return bool(self._box.contains(x))

    def sample(self) -> Any:
        return self._box.sample()


class Func001ObservationSpaceWithoutSeed(Drift):
    """``observation_space`` has no ``seed`` or ``np_random``."""

    def __init__(self) -> None:
        super().__init__()
        self.observation_space = _NoSeed(self.observation_space)  # type: ignore[assignment]  # the breakage


class Func002TransitionMutatesState(Drift):
    """``transition`` advances the time component of the state it receives in place."""

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        new = super().transition(state, action, rng, params)
        state[..., 1] += 1.0
        return new


class Func003HiddenCounter(Drift):
    """``reward`` depends on how often it was called before (hidden state)."""

    def __init__(self) -> None:
        super().__init__()
        self._calls = 0

    def reward(self, state: _State, action: Any, next_state: _State, rng: Any,
               params: DriftParams | None = None) -> Any:
        self._calls += 1
        return super().reward(state, action, next_state, rng, params) + 1e-3 * self._calls


class Func004GlobalNoise(Drift):
    """``transition`` draws its noise from NumPy's global generator instead of ``rng``."""

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        return super().transition(state, action, np.random, params)


class Func004ReadsGlobalState(Drift):
    """``transition`` adds an offset read from NumPy's global generator state, which it leaves as it was (so only
    two runs under different global seeds show it)."""

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        moved = super().transition(state, action, rng, params)
        offset = float(int(np.random.get_state(legacy=False)["state"]["key"][0]) % 97) * 1e-3
        return np.stack([moved[..., 0] + offset, moved[..., 1]], axis=-1)


class Func004PrivateGenerator(Drift):
    """``initial`` ignores its ``rng`` and draws from a private generator with a fixed seed (the same start always)."""

    def initial(self, rng: Any, params: DriftParams | None = None) -> _State:
        return super().initial(np.random.default_rng(1234), params)


class Func005DefaultsDisagree(Drift):
    """The functions' own fallback params differ from ``default_params`` (so ``params=None`` is another env)."""

    def _p(self, params: DriftParams | None) -> DriftParams:
        return {"push": 0.9, "noise": 0.1, "limit": 2.0} if params is None else params


class Func006InitialOutside(Drift):
    """``initial`` starts the clock at -1, below the observation space's lower bound for ``t``."""

    def initial(self, rng: Any, params: DriftParams | None = None) -> _State:
        state = super().initial(rng, params)
        state[..., 1] = -1.0
        return state


class Func007TransitionLeavesSpace(Drift):
    """``observation`` is not clipped, and action 2 pushes ten times harder, so ``x`` leaves ``[-5, 5]``."""

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        new = super().transition(state, action, rng, params)
        new[..., 0] += np.where(np.asarray(action) == 2, 6.0, 0.0)
        return new

    def observation(self, state: _State, rng: Any, params: DriftParams | None = None) -> Any:
        return np.asarray(state, dtype=np.float32)


class Func008ArrayReward(Drift):
    """``reward`` returns an array of shape ``(1,)``."""

    def reward(self, state: _State, action: Any, next_state: _State, rng: Any,
               params: DriftParams | None = None) -> Any:
        return np.array([super().reward(state, action, next_state, rng, params)])


class Func009IntTerminal(Drift):
    """``terminal`` returns an int (0 or 1; an int array for a batch)."""

    def terminal(self, state: _State, rng: Any, params: DriftParams | None = None) -> Any:
        flags = super().terminal(state, rng, params)
        return int(flags) if flags.ndim == 0 else flags.astype(int)


class Func010ListInfo(Drift):
    """``transition_info`` returns a list of pairs."""

    def transition_info(self, state: _State, action: Any, next_state: _State,
                        params: DriftParams | None = None) -> Any:
        return list(super().transition_info(state, action, next_state, params).items())


class Func011TerminalNotTransformed(Drift):
    """``transform`` skips ``terminal`` (a batching transform would then see one flag for a whole batch)."""

    def transform(self, func: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        for name in ("initial", "transition", "observation", "reward", "state_info", "transition_info"):
            setattr(self, name, func(getattr(self, name)))


class Func012FloatFrame(Drift):
    """``render_image`` returns a float frame."""

    def render_image(self, state: _State, render_state: Any, params: DriftParams | None = None) -> Any:
        render_state, frame = super().render_image(state, render_state, params)
        return render_state, frame.astype(np.float32) / 255.0


class Func013CopiedNoise(Drift):
    """``transition`` draws its noise from a copy of ``rng``: every step of an episode gets the same noise."""

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        return super().transition(state, action, copy.deepcopy(rng), params)


class Func014MixedRows(Drift):
    """``transition`` pulls each row towards the batch's mean position (nothing for one state: it is its own mean)."""

    def transition(self, state: _State, action: Any, rng: Any, params: DriftParams | None = None) -> _State:
        new = super().transition(state, action, rng, params)
        x = new[..., 0]
        new[..., 0] = x + 0.5 * (np.mean(x) - x)
        return new


class FuncBatch008RewardShape(Drift):
    """``reward`` of a batch has shape ``(n, 1)``, a column, instead of one reward per state ``(n,)``."""

    def reward(self, state: _State, action: Any, next_state: _State, rng: Any,
               params: DriftParams | None = None) -> Any:
        rewards = super().reward(state, action, next_state, rng, params)
        return rewards if isinstance(rewards, float) else rewards[:, None]


class FuncBatch009PythonBool(Drift):
    """``terminal`` returns one Python ``bool`` (whether any state is terminal), right for one state only."""

    def terminal(self, state: _State, rng: Any, params: DriftParams | None = None) -> Any:
        return bool(np.any(super().terminal(state, rng, params)))
