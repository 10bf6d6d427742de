"""Envs that each break one rule about what an episode end means, what construction leaves alone, what a space
read returns, what ``step`` does with its argument and what a wrapper passes in (issue 26, items 3 and 4).

Three correct bases of different shapes, each short-episoded so that the quick profile sees several ends:

* :class:`Grid`: a 3x3 gridworld with a ``Dict`` observation (position and step count), a fixed start, a goal and a
  pit (both terminal) and no own step limit;
* :class:`Drive`: continuous control with ``Box`` observations and actions, a random start and deterministic
  dynamics, terminating when the car leaves ``[-1, 1]``;
* :class:`Hops`: ``Discrete`` observations with a random start among eight cells, terminating on the two end cells.

Each broken class changes one thing, named in its docstring. The controls at the end are unusual but legal and must
pass every rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from reference.core import Env, Wrapper
from reference.error import ResetNeeded
from reference.registration import EnvSpec
from reference.spaces import Box, Dict, Discrete

__all__ = [
    "Drive",
    "DriveAutoresets",
    "DriveHalvesAction",
    "DriveLimitAsTermination",
    "DriveSpacesAnew",
    "DriveTerminatedAtLimit",
    "Grid",
    "GridLimitAsTermination",
    "GridMetadataInConstructor",
    "GridSpacesAnew",
    "Hops",
    "HopsAutoresets",
    "HopsBothFlagsAtEveryEnd",
    "HopsBothFlagsAtTerminal",
    "HopsCountsInstancesInMetadata",
    "HopsTruncatesAndTerminatesApart",
    "wrap_009_drops_options",
    "wrap_009_drops_seed",
]

_MOVES = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]])


def _no_render(render_mode: str | None) -> None:
    if render_mode is not None:
        raise ValueError(f"render_mode must be None (the env declares no render mode), got {render_mode!r}")


def _started(env: Any) -> None:
    if not getattr(env, "_reset_done", False):
        raise ResetNeeded(f"{type(env).__name__} step needs a reset first; call reset()")


class Grid(Env[dict[str, Any], np.int64]):
    """A 3x3 gridworld: start at (0, 0), goal at (2, 2), pit at (0, 2); observation ``{"pos", "steps"}``."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        _no_render(render_mode)
        self.observation_space = Dict({"pos": Box(0, 2, (2,), np.int64), "steps": Discrete(1000)})
        self.action_space = Discrete(4)
        self._pos = np.zeros(2, dtype=np.int64)
        self._steps = 0

    def _obs(self) -> dict[str, Any]:
        return {"pos": self._pos.copy(), "steps": np.int64(self._steps)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._reset_done = True
        self._pos = np.zeros(2, dtype=np.int64)
        self._steps = 0
        return self._obs(), {}

    def _ends(self) -> tuple[bool, bool]:
        """``(terminated, truncated)`` after a move."""
        return self._cell() in ((2, 2), (0, 2)), False

    def _cell(self) -> tuple[int, int]:
        return int(self._pos[0]), int(self._pos[1])

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        _started(self)
        self._pos = np.clip(self._pos + _MOVES[int(action)], 0, 2)
        self._steps += 1
        terminated, truncated = self._ends()
        reward = 1.0 if self._cell() == (2, 2) else (-1.0 if terminated else 0.0)
        return self._obs(), reward, terminated, truncated, {}


class Drive(Env[NDArray[np.float32], NDArray[np.float32]]):
    """A car on a line: ``x' = x + 0.3 a``; random start in ``[-0.5, 0.5]``; terminates when ``|x| > 1``."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        _no_render(render_mode)
        self.observation_space = Box(-2.0, 2.0, (2,), np.float32)
        self.action_space = Box(-1.0, 1.0, (1,), np.float32)
        self._x = 0.0
        self._t = 0

    def _obs(self) -> NDArray[np.float32]:
        return np.array([self._x, self._t / 100.0], dtype=np.float32)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._reset_done = True
        low = -0.5 if options is None else float(options.get("low", -0.5))
        self._x = float(self.np_random.uniform(low, 0.5))
        self._t = 0
        return self._obs(), {}

    def _move(self, action: Any) -> float:
        return 0.3 * float(np.asarray(action).reshape(-1)[0])

    def _ends(self) -> tuple[bool, bool]:
        return abs(self._x) > 1.0, False

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        _started(self)
        self._x = float(np.clip(self._x + self._move(action), -2.0, 2.0))
        self._t += 1
        terminated, truncated = self._ends()
        return self._obs(), -abs(self._x), terminated, truncated, {}


class Hops(Env[np.int64, np.int64]):
    """Eight cells in a row; random start among cells 1..6; action 0/1 hops left/right; cells 0 and 7 end it."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        _no_render(render_mode)
        self.observation_space = Discrete(8)
        self.action_space = Discrete(2)
        self._cell = 1

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._reset_done = True
        self._cell = int(self.np_random.integers(1, 7))
        return np.int64(self._cell), {}

    def _ends(self) -> tuple[bool, bool]:
        return self._cell in (0, 7), False

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        _started(self)
        self._cell += 1 if int(action) == 1 else -1
        terminated, truncated = self._ends()
        return np.int64(self._cell), float(self._cell == 7), terminated, truncated, {}


# --- ENV-022 / ENV-023: the flags' meanings ---------------------------------------------------------------------

_LIMIT = 6


_LIMITED = EnvSpec("conformance_meta/Limited-v0", entry_point=None, max_episode_steps=_LIMIT)


class _Limited(Env[Any, Any]):
    """Declares a step limit of :data:`_LIMIT` in its spec, as a class constructed directly may."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)  # type: ignore[call-arg]  # the next class on the MRO: a base env
        self.spec = _LIMITED


class GridLimitAsTermination(_Limited, Grid):
    """Declares ``spec.max_episode_steps`` and ends there with ``terminated`` (``truncated`` false): the time limit
    reported as a terminal state (ENV-022)."""

    def _ends(self) -> tuple[bool, bool]:
        terminated, _ = super()._ends()
        return terminated or self._steps >= _LIMIT, False


class DriveLimitAsTermination(_Limited, Drive):
    """As :class:`GridLimitAsTermination`, for continuous control (ENV-022)."""

    def _move(self, action: Any) -> float:
        return 0.05 * float(np.asarray(action).reshape(-1)[0])  # slow: episodes reach the limit

    def _ends(self) -> tuple[bool, bool]:
        terminated, _ = super()._ends()
        return terminated or self._t >= _LIMIT, False


class DriveTerminatedAtLimit(_Limited, Drive):
    """Ends at the declared limit with both flags true, every time (what ``TimeLimit`` makes of an env that reports
    its own time limit as termination): truncation passes, the flags' meanings do not (ENV-023)."""

    def _move(self, action: Any) -> float:
        return 0.05 * float(np.asarray(action).reshape(-1)[0])

    def _ends(self) -> tuple[bool, bool]:
        terminated, _ = super()._ends()
        at_limit = self._t >= _LIMIT
        return terminated or at_limit, at_limit


class HopsBothFlagsAtTerminal(Hops):
    """Reports ``truncated`` along with ``terminated`` on every terminal step: the flags always equal (ENV-023)."""

    def _ends(self) -> tuple[bool, bool]:
        terminated, _ = super()._ends()
        return terminated, terminated


class _CountingHops(Hops):
    """:class:`Hops` that counts the steps of its episode (``_steps``), for ends of its own."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        self._steps = 0
        return super().reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._steps += 1
        return super().step(action)


class HopsBothFlagsAtEveryEnd(_CountingHops):
    """Declares no step limit and rarely reaches an end cell, but times out after four steps by itself, and reports
    every end, time-out or end cell, with both flags true (gymnax's ``done`` in both): the flags carry one meaning
    (ENV-023; issue 37 item 9). Its episodes are short so that a rollout sees several ends."""

    def _ends(self) -> tuple[bool, bool]:
        terminated, _ = super()._ends()
        done = terminated or self._steps >= 4
        return done, done


class HopsTruncatesAndTerminatesApart(_CountingHops):
    """Control: a declared limit of 3 steps, reported as truncation, and terminal cells reported as termination;
    an episode may end either way, and a terminal cell on the limit's step sets both (legal)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.spec = EnvSpec("conformance_meta/HopsLimited-v0", entry_point=None, max_episode_steps=3)

    def _ends(self) -> tuple[bool, bool]:
        terminated, _ = super()._ends()
        return terminated, self._steps >= 3


# --- ENV-024: no reset inside step ------------------------------------------------------------------------------


class DriveAutoresets(Drive):
    """Resets itself on the terminating step and returns the fresh start, a random one drawn from the env's generator,
    as the terminal observation (ENV-024). Only a start the generator draws tells a reset from an end: an env with a
    fixed start may end where every episode starts (tests/meta/broken/odd.py HopsReturnsHome)."""

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().step(action)
        if terminated:
            obs, _ = self.reset()
        return obs, reward, terminated, truncated, info


class HopsAutoresets(Hops):
    """As :class:`DriveAutoresets`, for a ``Discrete`` observation with a random start (ENV-024)."""

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = super().step(action)
        if terminated:
            obs, _ = self.reset()
        return obs, reward, terminated, truncated, info


# --- ENV-025: class-level metadata ------------------------------------------------------------------------------


class GridMetadataInConstructor(Grid):
    """Writes ``render_fps`` into the class-level ``metadata`` in its constructor (ENV-025)."""

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.metadata["render_fps"] = 4


class HopsCountsInstancesInMetadata(Hops):
    """Appends to a list in the class-level ``metadata`` on every construction (ENV-025)."""

    metadata: dict[str, Any] = {"render_modes": [], "instances": []}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.metadata["instances"].append(len(self.metadata["instances"]))


# --- ENV-026: spaces built on every read ------------------------------------------------------------------------


class DriveSpacesAnew(Drive):
    """Builds ``action_space`` anew on every read, so ``env.action_space.seed(0)`` seeds nothing (ENV-026)."""

    @property  # type: ignore[override]
    def action_space(self) -> Box:  # pyright: ignore[reportIncompatibleVariableOverride]
        return Box(-1.0, 1.0, (1,), np.float32)

    @action_space.setter
    def action_space(self, value: Any) -> None:
        pass  # the base constructor's assignment is dropped: the property is the space


class GridSpacesAnew(Grid):
    """Builds the ``Dict`` ``observation_space`` anew on every read (ENV-026)."""

    @property  # type: ignore[override]
    def observation_space(self) -> Dict:  # pyright: ignore[reportIncompatibleVariableOverride]
        return Dict({"pos": Box(0, 2, (2,), np.int64), "steps": Discrete(1000)})

    @observation_space.setter
    def observation_space(self, value: Any) -> None:
        pass


# --- ENV-027: the action argument -------------------------------------------------------------------------------


class DriveHalvesAction(Drive):
    """Scales the caller's action array in place before using it (ENV-027)."""

    def _move(self, action: Any) -> float:
        if isinstance(action, np.ndarray) and action.flags.writeable:
            action *= 0.5
        return 0.6 * float(np.asarray(action).reshape(-1)[0])


# --- WRAP-009: what a wrapper passes in -------------------------------------------------------------------------


class _DropsSeed(Wrapper[Any, Any, Any, Any]):
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        return self.env.reset(options=options)


class _DropsOptions(Wrapper[Any, Any, Any, Any]):
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        return self.env.reset(seed=seed)


def wrap_009_drops_seed(render_mode: str | None = None) -> Any:
    """A wrapper over :class:`Grid` (fixed start: the lost seed changes no trajectory) that drops ``seed``."""
    return _DropsSeed(Grid(render_mode))


def wrap_009_drops_options(render_mode: str | None = None) -> Any:
    """A wrapper over :class:`Drive` that drops ``options`` (Drive reads ``options["low"]``)."""
    return _DropsOptions(Drive(render_mode))
