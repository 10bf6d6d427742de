"""Correct envs that do something unusual but legal which a check once (or nearly) read as a defect (issue 37).

Each is a control: it must pass every rule without a warning (:data:`tests.meta.broken.catalog.CORRECT`), and each
names the check it guards in its docstring.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference.error import ResetNeeded
from reference.spaces import Discrete
from tests.meta.broken._base import Walk
from tests.meta.broken._shapes import Control

__all__ = [
    "ContextualBandit",
    "ControlCameraAimedOnce",
    "DuckHoldsAnEnv",
    "HoldsAnEnv",
    "HopsReturnsHome",
    "MostlyOneStart",
    "WalkDefaultdictInfo",
]

_CONTEXTS = 5
_BANDIT_STEPS = 20


class ContextualBandit(Env[np.int64, np.int64]):
    """A contextual bandit: each observation is a fresh draw of a context from the env's generator, by ``reset`` and
    by ``step`` alike; the reward says whether the action matched the last context; drawing context 0 ends the
    episode, the twentieth step truncates it. Its terminal observation is, by design, what a reset from the state
    before that step would draw: ENV-024 once read that as "step reset the env by itself" (issue 37 item 1)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode is not None:
            raise ValueError(f"ContextualBandit render_mode must be None (it declares no mode), got {render_mode!r}")
        self.observation_space = Discrete(_CONTEXTS)
        self.action_space = Discrete(_CONTEXTS)
        self._context: int | None = None
        self._steps = 0

    def _draw(self) -> int:
        return int(self.np_random.integers(_CONTEXTS))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._context = self._draw()
        self._steps = 0
        return np.int64(self._context), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._context is None:
            raise ResetNeeded("ContextualBandit step needs a reset first; call reset()")
        reward = 1.0 if int(action) == self._context else 0.0
        self._context = self._draw()
        self._steps += 1
        terminated = self._context == 0
        return np.int64(self._context), reward, terminated, not terminated and self._steps >= _BANDIT_STEPS, {}


class ControlCameraAimedOnce(Control):
    """:class:`Control` whose renderer aims its camera once, at the position its first frame finds, and keeps it
    there across resets, as MuJoCo's free camera is aimed at the scene's median at the first render
    (InvertedPendulum-v5, HalfCheetah-v5): a frame is a function of the state *and* of where the first frame was
    drawn. SEED-009 once compared the frames of an instance whose first frame came from an unseeded (entropy-drawn)
    state with a fresh instance's, found them unequal, and ended not checked (issue 37 item 7)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._camera: float | None = None

    def _draw(self) -> NDArray[np.uint8]:
        frame = super()._draw()
        position = 0.0 if self._state is None else float(self._state[0])
        if self._camera is None:
            self._camera = position
        # The view is shifted by where the camera was aimed: a frame shows the position relative to it.
        return np.roll(frame, int(round(self._camera * 3)), axis=1)


class HoldsAnEnv(Env[Any, Any]):
    """A plain env (its ``unwrapped`` is itself) that keeps another env in an attribute named ``env`` (the model a
    planner rolls out, say), exposes that env's very spaces and plays its episodes. WRAP-006 once read the shared
    spaces as "``env.unwrapped`` still wraps another env" (issue 37 item 3): a wrapper's ``get_wrapper_attr`` searches
    the layers inside it, this env's finds its own attributes only."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode is not None:
            raise ValueError(f"HoldsAnEnv render_mode must be None (it declares no mode), got {render_mode!r}")
        self.env = Walk()
        self.observation_space = self.env.observation_space
        self.action_space = self.env.action_space
        self.horizon = 3

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        super().reset(seed=seed)
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        return self.env.step(action)


class DuckHoldsAnEnv:
    """:class:`HoldsAnEnv` written without a base class and without ``unwrapped``/``get_wrapper_attr`` (both
    optional for an env): once taken for a wrapper layer because it has ``.env``, it left six WRAP rules not checked
    ("env.unwrapped raised AttributeError ... reported by WRAP-006") though it wraps nothing (issue 37 item 3)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode is not None:
            raise ValueError(f"DuckHoldsAnEnv render_mode must be None (it declares no mode), got {render_mode!r}")
        self.render_mode = None
        self.env = Walk()
        self.observation_space = self.env.observation_space
        self.action_space = self.env.action_space

    @property
    def np_random(self) -> np.random.Generator:
        return self.env.np_random

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        return self.env.step(action)

    def render(self) -> None:
        return None

    def close(self) -> None:
        self.env.close()


class WalkDefaultdictInfo(Walk):
    """:class:`Walk` whose info holds a ``defaultdict`` (a fresh one each call, counting its features by name). The
    suite's stored copy once turned it into a plain ``dict``, and ENV-018 read the copy against the original as
    "info['feature_names']: type defaultdict != dict" (issue 37 item 5)."""

    def _info(self) -> Any:
        names: defaultdict[str, int] = defaultdict(int)
        names["x"] += 1
        names["velocity"] += self._steps
        return {"steps": self._steps, "feature_names": names}


_HOME = 3


class HopsReturnsHome(Env[np.int64, np.int64]):
    """Eight cells in a row; every episode starts at home (cell 3); hops left or right, slipping a tenth of the time;
    coming home again ends the episode (as do cells 0 and 7), the twelfth step truncates it. Its terminal observation
    on coming home is the observation every episode starts with: ENV-024 once read that as "step reset the env by
    itself" (issue 37 item 1). A start the generator does not decide cannot tell an end at home from a reset."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode is not None:
            raise ValueError(f"HopsReturnsHome render_mode must be None (it declares no mode), got {render_mode!r}")
        self.observation_space = Discrete(8)
        self.action_space = Discrete(2)
        self._cell: int | None = None
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._cell, self._steps = _HOME, 0
        return np.int64(self._cell), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._cell is None:
            raise ResetNeeded("HopsReturnsHome step needs a reset first; call reset()")
        move = 1 if int(action) == 1 else -1
        if self.np_random.random() < 0.1:
            move = -move
        self._cell += move
        self._steps += 1
        terminated = self._cell in (0, 7, _HOME)
        truncated = not terminated and self._steps >= 12
        return np.int64(self._cell), float(self._cell == _HOME), terminated, truncated, {}


class MostlyOneStart(Walk):
    """:class:`Walk` that starts at the origin nine times in ten and elsewhere otherwise (drawn from its generator,
    seeded from entropy when fresh). Two fresh instances start alike most of the time: SEED-006 once took a start
    that varied among five seeds for random enough, and warned when eight fresh instances agreed (half the time on
    this env; issue 37, the equality audit)."""

    def _initial_state(self) -> NDArray[np.float64]:
        if self.np_random.random() < 0.9:
            return np.zeros(2)
        return super()._initial_state()
