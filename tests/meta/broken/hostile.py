"""Targets that attack the suite itself: crashes, hangs in every kind of call, leaks, floods, odd finalizers.

Each is the correct ``Walk`` with one hostile behaviour; :data:`HOSTILE` says what the suite must make of it.
Nothing here may hang the suite, end it early, leave a process or thread behind, or make the report disagree with
pytest's own counts (``tests/meta/test_hostile.py``).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tests.meta.broken._base import Walk
from tests.meta.broken._spaces import Box, Discrete
from tests.meta.broken.env import Env011ArrayReward

__all__ = ["FLOOD_BYTES", "HOSTILE", "Hostile", "PID_DIR"]

PID_DIR = "CONFORMANCE_HOSTILE_PIDS"
"""Environment variable naming a directory where targets that start processes record their pids."""

_FOREVER = 3600.0
_PACKAGE = "tests.meta.broken.hostile"


def _record_pid(pid: int) -> None:
    directory = os.environ.get(PID_DIR)
    if directory:
        Path(directory, str(pid)).write_text("", encoding="utf-8")


def _second_step(env: Walk) -> bool:
    return env._steps >= 1  # noqa: SLF001 - the broken variants read the base's counter


# --- crashes ---------------------------------------------------------------------------------------------------


class AbortsOnStep(Walk):
    """``step`` aborts the process (SIGABRT, as a failed C assertion does) on its second call."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if _second_step(self):
            os.abort()
        return super().step(action)


class SegfaultsOnStep(Walk):
    """``step`` dereferences a null pointer (SIGSEGV) on its second call."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if _second_step(self):
            ctypes.string_at(0)
        return super().step(action)


class ExitsOnStep(Walk):
    """``step`` ends the process with ``os._exit(3)`` on its second call."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if _second_step(self):
            os._exit(3)
        return super().step(action)


class SysExitsOnStep(Walk):
    """``step`` calls ``sys.exit(3)`` on its second call (an exception, so pytest would otherwise stop)."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if _second_step(self):
            sys.exit(3)
        return super().step(action)


class SignalsOnStep(Walk):
    """``step`` sends SIGTERM to its own process on its second call."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if _second_step(self):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(_FOREVER)
        return super().step(action)


# --- hangs -------------------------------------------------------------------------------------------------------


class SleepsOnStep(Walk):
    """``step`` blocks (in C, uninterruptibly) on its second call (recording the pid of the process it blocks)."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if _second_step(self):
            _record_pid(os.getpid())
            time.sleep(_FOREVER)
        return super().step(action)


class StallsOnce(Walk):
    """``step`` stalls once in the whole run (in the first process to take a second step), as a process on a machine
    under heavy load can: the suite confirms a first hang in a fresh process, where it passes, so every item passes."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        directory = os.environ.get(PID_DIR)
        if directory and _second_step(self):
            try:
                Path(directory, "stalled").touch(exist_ok=False)  # only the first process to get here stalls
            except FileExistsError:
                pass
            else:
                _record_pid(os.getpid())
                time.sleep(_FOREVER)
        return super().step(action)


class SpinsOnStep(Walk):
    """``step`` busy-loops in Python on its second call."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        while _second_step(self):
            pass
        return super().step(action)


class SleepsInConstructor(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        time.sleep(_FOREVER)
        super().__init__(render_mode)


class RaisesInConstructor(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        raise RuntimeError("RaisesInConstructor cannot be built")


class SleepsInReset(Walk):
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        time.sleep(_FOREVER)
        return super().reset(seed=seed, options=options)


class SleepsInRender(Walk):
    """``render`` in ``rgb_array`` mode never returns (in ``human`` mode, on a headless machine, a hang would be
    put down to the missing display)."""

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            time.sleep(_FOREVER)
        return super().render()


class SpinsInReset(Walk):
    """``reset`` busy-loops in Python for ever: it uses its CPU, so a loaded machine is no excuse for it."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        while True:
            pass


class SpinsInRender(Walk):
    """``render`` in ``rgb_array`` mode busy-loops in Python for ever."""

    def render(self) -> Any:
        while self.render_mode == "rgb_array":
            pass
        return super().render()


class SlowOnHugeSeeds(Walk):
    """``reset(seed=...)`` with a seed of 2**32 or more takes a minute, then raises (a seed folded into 32 bits the
    slow way): a hang of that shape of call only, so the items that never make one are checked as usual."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        if seed is not None and seed >= 2**32:
            time.sleep(60.0)
            raise ValueError(f"SlowOnHugeSeeds seed must be below 2**32, got {seed}")
        return super().reset(seed=seed, options=options)


class StallsInHumanMode(Walk):
    """A construction with ``render_mode="human"`` never returns (a window that waits for a display): it ends only
    the items that construct in that mode."""

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode == "human":
            time.sleep(_FOREVER)
        super().__init__(render_mode)


class SleepsInClose(Walk):
    def close(self) -> None:
        time.sleep(_FOREVER)


class SleepingObservationSpace(Walk):
    """Reading ``observation_space`` never returns once the env has been reset."""

    @property
    def observation_space(self) -> Any:
        if self._state is not None:
            time.sleep(_FOREVER)
        return self._space

    @observation_space.setter
    def observation_space(self, value: Any) -> None:
        self._space = value


class _SleepingContains(Discrete):
    def contains(self, x: object) -> bool:
        time.sleep(_FOREVER)
        return True


class SleepsInContains(Walk):
    """``action_space.contains`` never returns (the suite asks it while it draws actions)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.action_space = _SleepingContains(3)

    def _push(self, action: Any) -> int:
        return int(np.asarray(action).reshape(-1).sum()) % 3 - 1


class _SleepingSample(Discrete):
    def sample(self) -> np.int64:
        time.sleep(_FOREVER)
        return super().sample()


class SleepsInSample(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.action_space = _SleepingSample(3)


class _SleepingEquality(Box):
    def __eq__(self, other: object) -> bool:
        time.sleep(_FOREVER)
        return True

    __hash__ = None


class SleepsInSpaceEquality(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.observation_space = _SleepingEquality(-10.0, 10.0, (2,))


# --- leaks -------------------------------------------------------------------------------------------------------


class StartsThread(Walk):
    """Starts a non-daemon thread that never ends (pytest would wait for it at exit)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        threading.Thread(target=time.sleep, args=(_FOREVER,), daemon=False).start()


class ForksChild(Walk):
    """Forks a child that sleeps forever, once in its process group and once in a session of its own."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        for escape in (False, True):
            pid = os.fork()
            if pid == 0:
                if escape:
                    os.setsid()
                _record_pid(os.getpid())
                time.sleep(_FOREVER)
                os._exit(0)


# --- memory ------------------------------------------------------------------------------------------------------


_GIB = 1 << 30


class _ByteImage:
    """A space of uint8 arrays of one shape, with scalar bounds (its own size stays small)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape
        self.dtype = np.dtype(np.uint8)
        self._rng = np.random.default_rng()

    @property
    def np_random(self) -> np.random.Generator:
        return self._rng

    def seed(self, seed: int | None = None) -> int:
        self._rng = np.random.default_rng(seed)
        return 0 if seed is None else seed

    def sample(self) -> Any:
        return np.full(self.shape, int(self._rng.integers(256)), dtype=np.uint8)

    def contains(self, x: object) -> bool:
        return isinstance(x, np.ndarray) and x.shape == self.shape and x.dtype == self.dtype

    def __contains__(self, x: object) -> bool:
        return self.contains(x)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ByteImage) and other.shape == self.shape

    __hash__ = None  # type: ignore[assignment]


class HugeObservation(Walk):
    """1 GiB observations, every byte written (so resident), a new one each time."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.observation_space = _ByteImage((_GIB,))

    def _observation(self) -> Any:
        return np.full((_GIB,), 1 + self._steps % 2, dtype=np.uint8)


class FourMiBObservation(Walk):
    """A correct env with 4 MiB observations (a new array each step): the suite must check it in bounded memory."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.observation_space = _ByteImage((4 << 20,))

    def _observation(self) -> Any:
        return np.full((4 << 20,), self._steps % 256, dtype=np.uint8)


class FloodsMemory(Walk):
    """Keeps 512 MiB more of resident memory on every step."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._hoard: list[Any] = []

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        self._hoard.append(np.ones(_GIB // 2, dtype=np.uint8))
        return super().step(action)


# --- output --------------------------------------------------------------------------------------------------------

FLOOD_BYTES = 100 << 20
"""What :class:`FloodsOutputOnStep` prints in its first step."""


class FloodsOutputOnStep(Env011ArrayReward):
    """Prints 100 MiB (stdout, and a line on stderr) in the first step of each instance, and breaks ENV-011 (a 0-d
    array reward), so that the captured output of a failing item is printed: the suite must cut it, not pass it on
    to the pytest process (which once grew to gigabytes and ended the run with an INTERNALERROR)."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._steps == 0:
            line = "x" * 1023 + "\n"
            for _ in range(FLOOD_BYTES // 1024):
                sys.stdout.write(line)
            sys.stdout.flush()
            sys.stderr.write("FloodsOutputOnStep: the last line on stderr\n")
        return super().step(action)


# --- odd but harmless, and odd and harmful -------------------------------------------------------------------------


class AbortsInHumanMode(Walk):
    """``reset`` in ``human`` mode aborts the process, as MuJoCo's window does on a machine with no display
    (glfw aborts): every other mode is fine, so the env is cheap and its items run in batches, where the crash comes
    after earlier items of the same process have handed over their results."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        if self.render_mode == "human":
            os.abort()
        return super().reset(seed=seed, options=options)


class AbortsInHumanModeNamingProcesses(AbortsInHumanMode):
    """:class:`AbortsInHumanMode` naming each process it is reset in (in ``PID_DIR``): what its items cost in
    processes, when a crash ends a batch before the batch's later items ran."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        _record_pid(os.getpid())
        return super().reset(seed=seed, options=options)


class RaisesInDel(Walk):
    """A finalizer that raises: noise pytest would report, breaking no rule."""

    def __del__(self) -> None:
        raise RuntimeError("RaisesInDel.__del__ fails")


class SpaceVanishesAfterReset(Walk):
    """``observation_space`` raises once the env has been reset (ENV-002: the spaces must stay what they were)."""

    @property
    def observation_space(self) -> Any:
        if self._state is not None:
            raise RuntimeError("observation_space is gone")
        return self._space

    @observation_space.setter
    def observation_space(self, value: Any) -> None:
        self._space = value


@dataclass(frozen=True)
class Hostile:
    """A hostile target and what the suite must report.

    Attributes:
        target: ``attr`` in this module.
        rule: The item that must fail with ``message`` (``""``: no particular one; then, with a ``message``, some
            item must fail with it, the first to meet the problem).
        message: Text the failing item's message contains.
        others: The outcomes every other item may have (a failure or error among them must mention ``message``
            too, or say the target hung earlier).
        run: Which suite run checks it: ``"main"``, ``"memory"`` (a run with a memory cap and few rules),
            ``"shapes"`` (a run of every rule that makes the call, and of those that do not), or ``"output"`` (a run
            of its own, tests/meta/test_hostile.py's flood test).
    """

    target: str
    rule: str
    message: str
    others: frozenset[str] = frozenset({"passed", "skipped"})
    run: str = "main"

    @property
    def spec(self) -> str:
        return f"{_PACKAGE}:{self.target}"


# A rule that meets a hang no rule owns fails; the items after it are not checked (errors) unless they pass.
_FAST_FAIL = frozenset({"passed", "skipped", "failed", "error"})
# Over the memory cap fails whichever rule's item was in progress (each item floods once it steps).
_OVER_CAP = frozenset({"passed", "skipped", "failed"})

HOSTILE: tuple[Hostile, ...] = (
    Hostile("AbortsOnStep", "ENV-016", "env.step() killed the process with SIGABRT"),
    Hostile("SegfaultsOnStep", "ENV-016", "env.step() killed the process with SIGSEGV"),
    Hostile("ExitsOnStep", "ENV-016", "env.step() ended the process with exit code 3"),
    Hostile("SysExitsOnStep", "ENV-016", "raised SystemExit: 3"),
    Hostile("SignalsOnStep", "ENV-016", "env.step() killed the process with SIGTERM"),
    Hostile("SleepsOnStep", "ENV-016", "the target hung: env.step() did not return within"),
    Hostile("StallsOnce", "", ""),
    Hostile("SpinsOnStep", "ENV-016", "the target hung: env.step() did not return within"),
    Hostile("SleepsInConstructor", "CONSTRUCT", "did not return within"),
    Hostile("RaisesInConstructor", "CONSTRUCT", "RuntimeError: RaisesInConstructor cannot be built"),
    Hostile("SleepsInReset", "ENV-004", "the target hung: env.reset() did not return within"),
    Hostile("SleepsInRender", "RENDER-004", "render() in mode 'rgb_array' did not return within"),
    Hostile("SpinsInReset", "ENV-004", "the target hung: env.reset() did not return within"),
    Hostile("SpinsInRender", "RENDER-004", "render() in mode 'rgb_array' did not return within"),
    # Per shape of call: only the items that make the call that hung end (SEED-007 alone draws seeds of 2**32 and
    # more; no display here, so a hang in human mode is skipped as the display's), every other item passes.
    Hostile("SlowOnHugeSeeds", "SEED-007", "the target hung: env.reset() did not return within", run="shapes"),
    Hostile("StallsInHumanMode", "", "", run="shapes"),
    Hostile("SleepsInClose", "ENV-020", "close() did not return within", _FAST_FAIL),
    Hostile("SleepingObservationSpace", "", "observation_space did not return within", _FAST_FAIL),
    Hostile("SleepsInContains", "", "contains() did not return within", _FAST_FAIL),
    Hostile("SleepsInSample", "SPACE-007", "sample() did not return within", _FAST_FAIL),
    Hostile("SleepsInSpaceEquality", "", "__eq__ did not return within", _FAST_FAIL),
    Hostile("StartsThread", "", ""),
    Hostile("ForksChild", "", ""),
    Hostile("HugeObservation", "", "", run="memory"),
    Hostile("FourMiBObservation", "", "", run="memory"),
    Hostile("FloodsMemory", "ENV-016", "over the memory cap", _OVER_CAP, run="memory"),
    Hostile("FloodsOutputOnStep", "ENV-011", "ENV-011", run="output"),
    Hostile("AbortsInHumanMode", "", ""),  # no display here: a crash in human mode is skipped (docs/guide/running.md)
    Hostile("RaisesInDel", "", ""),
    Hostile("SpaceVanishesAfterReset", "ENV-002", "env.observation_space cannot be read any more"),
)
"""Every hostile target (which item meets a hang first, when no rule owns the call, depends on the order)."""
