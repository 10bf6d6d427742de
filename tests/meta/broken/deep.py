"""Broken envs whose defect only shows deep: across episodes, after many steps, between instances or processes.

Each is a single-defect mutant of a base of :mod:`._shapes` (``Grid``: Dict observations; ``Control``: Box
continuous control with deterministic steps; ``Hop``: a Discrete chain with a random start), and each defect hides
from a shallow check: a buffer overwritten only at the next reset or a lap of a ring later, a frame that changes
after 100 steps, a ``*_list`` mode cleared by ``render`` but not by ``reset``, a ``render`` that shifts only the
*next* episode's start, randomness salted by the process's ``str`` hash, unseeded starts that ignore the seed,
a ``close`` that reaches other instances, and ``options={}`` mishandled.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from tests.meta.broken._shapes import Control, Grid, Hop

__all__ = [
    "ControlCloseDropsSharedCanvas",
    "ControlCloseDropsSharedCanvasSlowly",
    "ControlCloseResetsSharedDrag",
    "ControlEmptyOptionsRaise",
    "ControlFrameRing",
    "ControlListKeptAcrossResets",
    "ControlObservationRing",
    "ControlRenderDrawsRandomness",
    "ControlUnseededFromEpisodeCount",
    "ControlZoomsOutAfter100Steps",
    "GridCloseDropsSharedTable",
    "GridGoalBufferReused",
    "GridSaltedCellSet",
    "HopEmptyOptionsFixStart",
    "HopFixedUnseededStream",
    "HopResetInfoReused",
    "HopSaltedStart",
]

# --- ENV-017 / ENV-018: results changed long after they were returned --------------------------------------------


class GridGoalBufferReused(Grid):
    """ENV-017: every observation's ``goal`` is the env's own goal buffer, rewritten in place at the next reset
    (steps never touch it, so only a check that looks back past the whole episode sees it)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._buffer = np.zeros(2, dtype=np.int64)

    def _goal_array(self, goal: NDArray[np.int64]) -> NDArray[np.int64]:
        self._buffer[:] = goal
        return self._buffer


_RING = 24


class ControlObservationRing(Control):
    """ENV-017: observations are slots of a 24-slot ring buffer, overwritten a lap (24 results) later."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._ring = np.zeros((_RING, 3), dtype=np.float32)
        self._slot = 0

    def _obs(self) -> NDArray[np.float32]:
        slot: NDArray[np.float32] = self._ring[self._slot % _RING]
        slot[:] = super()._obs()
        self._slot += 1
        return slot


class HopResetInfoReused(Hop):
    """ENV-018: every reset returns the same info dict, updated in place at the next reset."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._episode_info: dict[str, Any] = {}

    def _reset_info(self, start: int) -> dict[str, Any]:
        self._episode_info["start"] = start
        return self._episode_info


# --- RENDER: frames across episodes and past 100 steps ---------------------------------------------------------------

_FRAME_RING = 32


class ControlFrameRing(Control):
    """RENDER-013: ``rgb_array`` frames are drawn into a ring of 32 buffers, so a frame changes 32 renders later."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._ring: list[NDArray[np.uint8]] = []
        self._renders = 0

    def render(self) -> Any:
        if self.render_mode != "rgb_array":
            return super().render()
        frame = self._draw()
        if len(self._ring) < _FRAME_RING:
            self._ring.append(frame)
            self._renders += 1
            return frame
        slot = self._ring[self._renders % _FRAME_RING]
        slot[:] = frame
        self._renders += 1
        return slot


class ControlZoomsOutAfter100Steps(Control):
    """RENDER-012: after 100 steps of its lifetime the ``rgb_array`` frame doubles its width ("zooms out")."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._lifetime = 0

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        self._lifetime += 1
        return super().step(action)

    def _draw(self) -> NDArray[np.uint8]:
        frame = super()._draw()
        return np.concatenate([frame, frame], axis=1) if self._lifetime > 100 else frame


class ControlListKeptAcrossResets(Control):
    """RENDER-011: ``rgb_array_list`` frames are cleared by ``render`` only: a reset keeps the last episode's."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        kept = self._frames
        result = super().reset(seed=seed, options=options)
        self._frames = kept + self._frames
        return result


class ControlRenderDrawsRandomness(Control):
    """RENDER-014: ``render`` jitters a pixel with the env's generator. Steps draw nothing, so the trajectory only
    changes at the next unseeded reset, whose start comes from the advanced generator."""

    def _draw(self) -> NDArray[np.uint8]:
        frame = super()._draw()
        frame[-1, -1, 2] = int(self.np_random.integers(256))
        return frame


# --- SEED-012: randomness salted by the process's str hash ----------------------------------------------------------


class HopSaltedStart(Hop):
    """SEED-012: each episode's start and slips come from a generator seeded by the env's own generator *and*
    ``hash("hop")``, which differs between processes (``PYTHONHASHSEED``); within one process all is reproducible."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._salted = np.random.default_rng(0)

    def _start(self, options: dict[str, Any] | None) -> int:
        self._salted = np.random.default_rng([int(self.np_random.integers(2**32)), hash("hop") & 0xFFFFFFFF])
        return int(self._salted.integers(1, 15))

    def _slips(self) -> np.random.Generator:
        return self._salted


_CELLS = {f"r{row}c{column}" for row in range(5) for column in range(5)}


class GridSaltedCellSet(Grid):
    """SEED-012: start and goal are cells picked by index from a set of cell names, whose order follows the str
    hash."""

    def _start(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        names = list(_CELLS)
        picked = [names[int(self.np_random.integers(len(names)))] for _ in range(2)]
        agent, goal = (np.array([int(name[1]), int(name[3])], dtype=np.int64) for name in picked)
        return agent, goal


# --- SEED-013: unseeded starts that do not depend on the seed ----------------------------------------------------


class HopFixedUnseededStream(Hop):
    """SEED-013: a seeded reset also restarts a second generator, with a constant, that the unseeded resets draw
    their starts from: they continue (SEED-004 holds) and replay (SEED-003 holds), but every seed gives the same."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._unseeded: np.random.Generator | None = None
        self._seeded_now = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        self._seeded_now = seed is not None
        if seed is not None:
            self._unseeded = np.random.default_rng(12345)
        return super().reset(seed=seed, options=options)

    def _start(self, options: dict[str, Any] | None) -> int:
        if self._seeded_now or self._unseeded is None:
            return super()._start(options)
        return int(self._unseeded.integers(1, 15))


class ControlUnseededFromEpisodeCount(Control):
    """SEED-013: once seeded, every unseeded reset reseeds the generator with the episode count."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._episodes = 0
        self._seeded = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        self._seeded = self._seeded or seed is not None
        self._episodes = 0 if seed is not None else self._episodes + 1
        if seed is None and self._seeded:
            self.np_random = np.random.default_rng(self._episodes)
        return super().reset(seed=seed, options=options)


# --- ENV-030 and SEED-009: close() reaching other instances ------------------------------------------------------


class GridCloseDropsSharedTable(Grid):
    """ENV-030: the move table is built once per class and ``close`` drops it, so other live instances' next
    ``step`` raises (a new instance builds it again)."""

    _table: ClassVar[dict[int, tuple[int, int]] | None] = None

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        if GridCloseDropsSharedTable._table is None:
            GridCloseDropsSharedTable._table = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if GridCloseDropsSharedTable._table is None:
            raise RuntimeError("GridCloseDropsSharedTable: the move table was released")
        return super().step(action)

    def close(self) -> None:
        GridCloseDropsSharedTable._table = None


class ControlCloseDropsSharedCanvas(Control):
    """ENV-030: frames are drawn on a canvas shared by the class, which ``close`` releases, so other live instances'
    next ``render`` raises (a new instance makes it again): a renderer's shared context freed by one instance."""

    _canvas: ClassVar[NDArray[np.uint8] | None] = None
    frame_seconds: ClassVar[float] = 0.0  # what a frame costs

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        if ControlCloseDropsSharedCanvas._canvas is None:
            ControlCloseDropsSharedCanvas._canvas = np.zeros((1, 1, 3), dtype=np.uint8)

    def _draw(self) -> NDArray[np.uint8]:
        if ControlCloseDropsSharedCanvas._canvas is None:
            raise RuntimeError("ControlCloseDropsSharedCanvas: the canvas was released")
        time.sleep(self.frame_seconds)
        return super()._draw()

    def close(self) -> None:
        ControlCloseDropsSharedCanvas._canvas = None


class ControlCloseDropsSharedCanvasSlowly(ControlCloseDropsSharedCanvas):
    """:class:`ControlCloseDropsSharedCanvas` with frames as costly as a software-drawn MuJoCo scene's (the quick
    profile's render budget is spent in ENV-030's first example, and a later example does not render)."""

    frame_seconds: ClassVar[float] = 0.4


class ControlCloseResetsSharedDrag(Control):
    """SEED-009: ``close`` "restores the default" of a class-level drag every instance steps with, so closing one
    instance changes the trajectories of the others (a new instance sets it back)."""

    _drag: ClassVar[float] = 0.9

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        ControlCloseResetsSharedDrag._drag = 0.9

    def _dynamics(self, force: float) -> None:
        if self._state is None:
            return
        velocity = ControlCloseResetsSharedDrag._drag * self._state[1] + 0.1 * force
        self._state = np.array([self._state[0] + velocity, velocity])

    def close(self) -> None:
        ControlCloseResetsSharedDrag._drag = 0.5


# --- ENV-031 / SEED-014: options={} --------------------------------------------------------------------------------


class ControlEmptyOptionsRaise(Control):
    """ENV-031: any options dict must name the spread: ``reset(options={})`` raises ``KeyError``."""

    def _options(self, options: dict[str, Any] | None) -> None:
        self._spread = 1.0 if options is None else float(options["spread"])


class HopEmptyOptionsFixStart(Hop):
    """SEED-014: an options dict without ``"start"`` starts every episode in cell 1, while ``None`` draws it."""

    def _start(self, options: dict[str, Any] | None) -> int:
        if options is not None:
            return int(options.get("start", 1))
        return super()._start(options)
