"""Three correct envs of other shapes than ``Walk``, the bases of the deep-exploration mutants (:mod:`.deep`).

Each passes the whole suite without a warning, and each does something unusual but legal that a too-eager check
would flag, so they are controls as well as bases:

* :class:`Grid` — a 5x5 gridworld with a ``Dict`` observation (agent, goal, and a read-only ``walls`` array that
  is the *same* object in every observation) and an info holding one cached immutable tuple (the layout) in every
  result: sharing what cannot change is not aliasing (ENV-017/018).
* :class:`Control` — continuous control with a ``Box`` observation and action, *deterministic* steps (randomness
  only in the start), tiny ``rgb_array`` frames and an ``rgb_array_list`` mode, and ``options`` (``{"spread":
  x}``) where ``{}`` means the defaults.
* :class:`Hop` — a ``Discrete`` chain with a random start and slips, whose start is shifted by ``hash()`` of a
  tuple of ints (not salted per process, unlike a ``str``'s: SEED-012 must not flag it).
* :class:`FixedGrid` — :class:`Grid` with a fixed start and goal (SEED-013 exempts it: equal continuations say
  nothing when every episode starts alike).
* :class:`Pair` — two agents in one env, as multi-agent packages shape it: a ``Tuple`` of two ``Box`` observations
  (one per agent, so a result holds a tuple of arrays that no check may compare with ``==``) and a ``Tuple`` of two
  ``Discrete`` actions, with one team reward.
* :class:`Zoo` — every space type of ``reference.spaces`` at once: a ``Dict`` observation holding a ``Graph`` (whose
  samples are named tuples), ``Text``, both kinds of ``Sequence``, ``OneOf``, ``MultiDiscrete``, ``MultiBinary``, a
  scalar and an integer ``Box`` and a ``Discrete`` with a start, and a ``Tuple`` action of five kinds. Its
  observations are drawn from a private copy of its space, seeded by ``reset``, so sampling ``observation_space``
  changes nothing.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gymspec.errors import ResetNeeded, UnsupportedMode
from reference.core import Env
from reference.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
)

__all__ = ["Control", "FixedGrid", "Grid", "Hop", "Pair", "Zoo"]

_SIZE = 5
_WALLS = np.zeros((_SIZE, _SIZE), dtype=np.int8)
_WALLS.flags.writeable = False  # shared by every observation: nobody can change it
_LAYOUT = (("size", _SIZE), ("walls", 0))
_MOVES = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _checked_mode(cls: type, render_mode: str | None, modes: list[str]) -> str | None:
    if render_mode is not None and render_mode not in modes:
        raise UnsupportedMode(f"{cls.__name__} render_mode must be one of {modes}, got {render_mode!r}")
    return render_mode


class Grid(Env[Any, Any]):
    """Reach the goal on a 5x5 grid; 4 moves; truncated after 40 steps."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}
    _steps_limit = 40

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = _checked_mode(type(self), render_mode, self.metadata["render_modes"])
        cell = Box(0, _SIZE - 1, (2,), dtype=np.int64)
        self.observation_space = Dict({"agent": cell, "goal": Box(0, _SIZE - 1, (2,), dtype=np.int64),
                                       "walls": Box(0, 1, (_SIZE, _SIZE), dtype=np.int8)})
        self.action_space = Discrete(4)
        self._agent: NDArray[np.int64] | None = None
        self._goal = np.zeros(2, dtype=np.int64)
        self._steps = 0

    def _start(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        agent = self.np_random.integers(0, _SIZE, size=2)
        goal = self.np_random.integers(0, _SIZE, size=2)
        return agent, goal

    def _goal_array(self, goal: NDArray[np.int64]) -> NDArray[np.int64]:
        return np.array(goal, dtype=np.int64)

    def _obs(self) -> dict[str, Any]:
        agent = np.zeros(2, dtype=np.int64) if self._agent is None else self._agent
        return {"agent": agent.copy(), "goal": self._goal_array(self._goal), "walls": _WALLS}

    def _info(self) -> dict[str, Any]:
        return {"layout": _LAYOUT, "steps": self._steps}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        super().reset(seed=seed)
        agent, goal = self._start()
        self._agent, self._goal = agent.astype(np.int64), goal.astype(np.int64)
        self._steps = 0
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._agent is None:
            raise ResetNeeded(f"{type(self).__name__}.step called before reset")
        if self.np_random.random() < 0.2:  # a slip: a random move instead
            action = int(self.np_random.integers(4))
        move = np.array(_MOVES[int(action)], dtype=np.int64)
        self._agent = np.clip(self._agent + move, 0, _SIZE - 1)
        self._steps += 1
        terminated = bool((self._agent == self._goal).all())
        truncated = self._steps >= self._steps_limit
        return self._obs(), 1.0 if terminated else -0.1, terminated, truncated, self._info()

    def render(self) -> Any:
        if self.render_mode != "ansi":
            return None
        agent = (0, 0) if self._agent is None else tuple(self._agent)
        return f"agent {agent} goal {tuple(self._goal)}\n"


class FixedGrid(Grid):
    """:class:`Grid` from a fixed start to a fixed goal (the slips stay random)."""

    def _start(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        return np.array([0, 0], dtype=np.int64), np.array([_SIZE - 1, _SIZE - 1], dtype=np.int64)


_FRAME = (6, 10)


class Control(Env[Any, Any]):
    """Steer a damped point to the origin: ``[position, velocity, spread]``; truncated after 60 steps."""

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "rgb_array_list"], "render_fps": 30}
    _steps_limit = 60

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = _checked_mode(type(self), render_mode, self.metadata["render_modes"])
        self.observation_space = Box(-10.0, 10.0, (3,), dtype=np.float32)
        self.action_space = Box(-1.0, 1.0, (1,), dtype=np.float32)
        self._state: NDArray[np.float64] | None = None
        self._spread = 1.0
        self._steps = 0
        self._frames: list[NDArray[np.uint8]] = []

    def _options(self, options: dict[str, Any] | None) -> None:
        self._spread = float((options or {}).get("spread", 1.0))

    def _initial(self) -> NDArray[np.float64]:
        return np.array([self.np_random.uniform(-self._spread, self._spread), 0.0])

    def _obs(self) -> NDArray[np.float32]:
        state = np.zeros(2) if self._state is None else self._state
        values = np.array([state[0], state[1], self._spread], dtype=np.float64)
        return np.asarray(np.clip(values, -10.0, 10.0), dtype=np.float32)

    def _dynamics(self, force: float) -> None:
        if self._state is None:
            return
        velocity = 0.9 * self._state[1] + 0.1 * force
        self._state = np.array([self._state[0] + velocity, velocity])

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        super().reset(seed=seed)
        self._options(options)
        self._state = self._initial()
        self._steps = 0
        self._frames = []
        self._collect()
        return self._obs(), {}

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._state is None:
            raise ResetNeeded(f"{type(self).__name__}.step called before reset")
        self._dynamics(float(np.asarray(action, dtype=np.float64).reshape(-1)[0]))
        self._steps += 1
        self._collect()
        position = float(self._state[0]) if self._state is not None else 0.0
        terminated = abs(position) >= 8.0
        return self._obs(), -abs(position), terminated, self._steps >= self._steps_limit, {}

    def _draw(self) -> NDArray[np.uint8]:
        frame = np.zeros((*_FRAME, 3), dtype=np.uint8)
        position = 0.0 if self._state is None else float(self._state[0])
        column = int(np.clip((position + 4.0) / 8.0 * (_FRAME[1] - 1), 0, _FRAME[1] - 1))
        frame[:, column, 1] = 255
        frame[0, 0, 0] = self._steps % 256
        return frame

    def _collect(self) -> None:
        if self.render_mode == "rgb_array_list":
            self._frames.append(self._draw())

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            return self._draw()
        if self.render_mode == "rgb_array_list":
            frames, self._frames = self._frames, []
            return frames
        return None


_HOP_N = 16
_HOP_OFFSET = hash((7, 11)) % _HOP_N  # ints hash alike in every process


class Hop(Env[Any, Any]):
    """A chain of 16 cells: move left or right (slipping 10% of the time); the ends terminate; 25 steps."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}
    _steps_limit = 25

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = _checked_mode(type(self), render_mode, self.metadata["render_modes"])
        self.observation_space = Discrete(_HOP_N)
        self.action_space = Discrete(2)
        self._cell: int | None = None
        self._steps = 0

    def _start(self, options: dict[str, Any] | None) -> int:
        return (int(self.np_random.integers(1, _HOP_N - 1)) + _HOP_OFFSET) % (_HOP_N - 2) + 1

    def _slips(self) -> np.random.Generator:
        return self.np_random

    def _reset_info(self, start: int) -> dict[str, Any]:
        return {"start": start}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        super().reset(seed=seed)
        self._cell = self._start(options)
        self._steps = 0
        return self._cell, self._reset_info(self._cell)

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._cell is None:
            raise ResetNeeded(f"{type(self).__name__}.step called before reset")
        move = 1 if int(action) == 1 else -1
        if self._slips().random() < 0.1:
            move = -move
        self._cell = int(np.clip(self._cell + move, 0, _HOP_N - 1))
        self._steps += 1
        terminated = self._cell in (0, _HOP_N - 1)
        return self._cell, 1.0 if self._cell == _HOP_N - 1 else 0.0, terminated, self._steps >= self._steps_limit, {
            "steps": self._steps}

    def render(self) -> Any:
        if self.render_mode != "ansi":
            return None
        return f"cell {self._cell}\n"


class Pair(Env[Any, Any]):
    """Two agents on a line of 8 cells, each seeing its own and the other's position; they terminate on meeting."""

    metadata: dict[str, Any] = {"render_modes": []}
    _steps_limit = 30

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = _checked_mode(type(self), render_mode, self.metadata["render_modes"])
        agent = Box(0.0, 7.0, (2,), dtype=np.float32)
        self.observation_space = Tuple((agent, agent))
        self.action_space = Tuple((Discrete(3), Discrete(3)))
        self._cells: NDArray[np.int64] | None = None
        self._steps = 0

    def _obs(self, cells: NDArray[np.int64]) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        mine = cells.astype(np.float32)
        return mine.copy(), mine[::-1].copy()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        super().reset(seed=seed)
        self._cells = self.np_random.choice(8, size=2, replace=False).astype(np.int64)
        self._steps = 0
        return self._obs(self._cells), {}

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._cells is None:
            raise ResetNeeded(f"{type(self).__name__}.step called before reset")
        moves = np.array([int(action[0]) - 1, int(action[1]) - 1], dtype=np.int64)
        self._cells = np.clip(self._cells + moves, 0, 7)
        self._steps += 1
        met = bool(self._cells[0] == self._cells[1])
        return self._obs(self._cells), 1.0 if met else -0.1, met, self._steps >= self._steps_limit, {}


class Zoo(Env[Any, Any]):
    """Observations of every space type, drawn from a private copy of the space; truncated after 20 steps."""

    metadata: dict[str, Any] = {"render_modes": []}
    _steps_limit = 20

    def __init__(self, render_mode: str | None = None) -> None:
        self.render_mode = _checked_mode(type(self), render_mode, self.metadata["render_modes"])
        box = Box(-1.0, 1.0, (2,), dtype=np.float32)
        self.observation_space = Dict({
            "graph": Graph(node_space=box, edge_space=Discrete(3)),
            "text": Text(5),
            "sequence": Sequence(Discrete(3)),
            "stacked": Sequence(box, stack=True),
            "one_of": OneOf((Discrete(3), box)),
            "multi_discrete": MultiDiscrete([[2, 3], [4, 5]]),
            "multi_binary": MultiBinary([2, 3]),
            "scalar": Box(-1.0, 1.0, (), dtype=np.float32),
            "counts": Box(0, 5, (3,), dtype=np.int64),
            "shifted": Discrete(4, start=-2),
        })
        self.action_space = Tuple((Discrete(4, start=-2), MultiDiscrete([2, 3]), MultiBinary(2),
                                   Box(0, 5, (2,), dtype=np.int64), OneOf((Discrete(2), box))))
        self._draw: Space[Any] | None = None
        self._steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        super().reset(seed=seed)
        self._draw = copy.deepcopy(self.observation_space)
        self._draw.seed(int(self.np_random.integers(2**31)))
        self._steps = 0
        return self._draw.sample(), {}

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._draw is None:
            raise ResetNeeded(f"{type(self).__name__}.step called before reset")
        if not self.action_space.contains(action):
            raise ValueError(f"Zoo action must be an element of {self.action_space}, got {action!r}")
        self._steps += 1
        terminated = bool(self.np_random.random() < 0.05)
        return self._draw.sample(), float(self.np_random.normal()), terminated, self._steps >= self._steps_limit, {}
