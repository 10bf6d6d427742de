"""Test environments and comparison helpers for the vector tests.

:class:`ShortEpisodes` ends its episodes after 1 to 4 steps (terminated or truncated at random), so autoreset paths
run constantly; its infos vary by sub-env and step (ints, arrays, nested dicts, keys that come and go), so the
``_key`` masks are exercised too. Its dynamics are written once in :class:`ShortEpisodesLogic` and mixed into a
reference ``Env`` here and into a ``gymnasium.Env`` in the Gymnasium differential test, so both libraries run the
same random-number calls.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from copy import deepcopy
from types import ModuleType
from typing import TYPE_CHECKING, Any, SupportsFloat, TypeAlias

import numpy as np

import reference.spaces as ref_spaces
from reference.core import Env

__all__ = [
    "Busy",
    "Crashing",
    "Echo",
    "Forking",
    "MarksClose",
    "Sleepy",
    "Unpicklable",
    "broken_factory",
    "ShortEpisodes",
    "ShortEpisodesLogic",
]

Value: TypeAlias = Any
InfoDict: TypeAlias = dict[str, Any]
Options: TypeAlias = dict[str, Any]


class ShortEpisodesLogic:
    """The dynamics, shared by the reference and Gymnasium variants (``spaces`` selects the library).

    Args:
        obs_kind: ``"dict"`` (Box + Discrete + MultiBinary in a Dict) or ``"box"`` (one float32 Box).
        max_length: The longest episode.
    """

    spaces: ModuleType = ref_spaces

    if TYPE_CHECKING:  # the Env it is mixed into provides it, as a property

        @property
        def np_random(self) -> np.random.Generator: ...
        @np_random.setter
        def np_random(self, value: np.random.Generator) -> None: ...

    def __init__(self, obs_kind: str = "dict", max_length: int = 4) -> None:
        sp = self.spaces
        self.obs_kind = obs_kind
        self.max_length = max_length
        box = sp.Box(-100.0, 100.0, shape=(2,), dtype=np.float32)
        if obs_kind == "dict":
            self.observation_space = sp.Dict({"pos": box, "t": sp.Discrete(8), "bits": sp.MultiBinary(3)})
        else:
            self.observation_space = box
        self.action_space = sp.Discrete(3)
        self._pos = np.zeros(2, dtype=np.float32)
        self._t = 0
        self._length = 1

    def _obs(self) -> Value:
        pos = self._pos.copy()
        if self.obs_kind != "dict":
            return pos
        bits = np.array([self._t % 2, self._length % 2, int(pos[0] > 0)], dtype=np.int8)
        return {"pos": pos, "t": np.int64(self._t), "bits": bits}

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[Value, InfoDict]:
        super().reset(seed=seed)  # type: ignore[misc]
        self._t = 0
        self._length = int(self.np_random.integers(1, self.max_length + 1))
        self._pos = self.np_random.uniform(-1.0, 1.0, size=2).astype(np.float32)
        info: InfoDict = {"length": self._length}
        if options:
            info["options"] = sorted(options)
        return self._obs(), info

    def step(self, action: Value) -> tuple[Value, SupportsFloat, bool, bool, InfoDict]:
        self._t += 1
        self._pos = (self._pos + np.float32(int(action) - 1) * np.float32(0.5)).astype(np.float32)
        reward = float(self.np_random.normal())
        done = self._t >= self._length
        terminated = done and bool(self.np_random.integers(2))
        truncated = done and not terminated
        info: InfoDict = {"t": self._t}
        if self._t % 2 == 0:
            info["even"] = np.array([self._t, -self._t], dtype=np.int64)
        if terminated:
            info["nested"] = {"why": "terminated", "t": self._t}
        return self._obs(), reward, terminated, truncated, info

    def render(self) -> Value:
        return None

    def close(self) -> None:
        pass


class ShortEpisodes(ShortEpisodesLogic, Env[Any, Any]):
    """:class:`ShortEpisodesLogic` on the reference ``Env``."""

    metadata = {"render_modes": [], "render_fps": 4}


class Crashing(ShortEpisodes):
    """Raises ``ValueError("boom at step N")`` on step ``crash_at`` of its first episode.

    Args:
        crash_at: The step number that raises.
    """

    def __init__(self, crash_at: int = 2) -> None:
        super().__init__(obs_kind="box", max_length=1000)
        self.crash_at = crash_at
        self.steps = 0

    def step(self, action: Value) -> tuple[Value, SupportsFloat, bool, bool, InfoDict]:
        self.steps += 1
        if self.steps == self.crash_at:
            raise ValueError(f"boom at step {self.steps}")
        return super().step(action)


class Echo(Env[Any, Any]):
    """Observations sampled from its own (seeded) observation space; reports each action it receives in its info.

    ``info["action"]`` and ``info["action_type"]`` let a test compare exactly what sub-envs were given. Episodes
    last three steps.

    Args:
        observation_space: Any space (copied, so sub-envs never share a generator).
        action_space: Any space (copied).
    """

    def __init__(self, observation_space: Any, action_space: Any) -> None:
        self.observation_space = deepcopy(observation_space)
        self.action_space = deepcopy(action_space)
        self._t = 0
        self.received: list[Value] = []

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[Value, InfoDict]:
        super().reset(seed=seed)
        self.observation_space.seed(int(self.np_random.integers(2**31)))
        self._t = 0
        return self.observation_space.sample(), {}

    def generator(self) -> Any:
        """Return something that cannot be pickled (a generator)."""
        return (x for x in range(3))

    def step(self, action: Value) -> tuple[Value, SupportsFloat, bool, bool, InfoDict]:
        self._t += 1
        self.received.append(action)
        info = {"action": action, "action_type": type(action).__name__}
        return self.observation_space.sample(), float(self._t), self._t >= 3, False, info


class Sleepy(ShortEpisodes):
    """Sleeps ``delay`` seconds in every step (a hung or slow sub-env).

    Args:
        delay: Seconds per step.
    """

    def __init__(self, delay: float) -> None:
        super().__init__(obs_kind="box", max_length=1000)
        self.delay = delay

    def step(self, action: Value) -> tuple[Value, SupportsFloat, bool, bool, InfoDict]:
        time.sleep(self.delay)
        return super().step(action)


class Busy(ShortEpisodes):
    """Never returns from ``step``: it spins in pure Python, holding a CPU (a sub-env stuck in a busy loop)."""

    def __init__(self) -> None:
        super().__init__(obs_kind="box")

    def step(self, action: Value) -> tuple[Value, SupportsFloat, bool, bool, InfoDict]:
        while True:
            pass


class MarksClose(Sleepy):
    """A :class:`Sleepy` that also sleeps in ``reset`` and ``nap()``; ``close()`` creates the file ``marker``.

    Args:
        delay: Seconds per step, reset and nap.
        marker: The file to create when closed (so the parent can tell close() ran in the worker).
    """

    def __init__(self, delay: float, marker: str) -> None:
        super().__init__(delay)
        self.marker = marker

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[Value, InfoDict]:
        time.sleep(self.delay)
        return super().reset(seed=seed, options=options)

    def nap(self) -> None:
        """Sleep ``delay`` seconds (a slow method for ``call``)."""
        time.sleep(self.delay)

    def close(self) -> None:
        if multiprocessing.parent_process() is not None:  # not the parent's throwaway instance
            with open(self.marker, "w"):
                pass
        super().close()


class Forking(ShortEpisodes):
    """Forks a grandchild that sleeps, holding a copy of every file descriptor of its worker (its pipe included).

    The grandchild's pid is ``grandchild``; tests kill it when done. Only instances built inside a worker
    process fork (the instance ``AsyncVectorEnv`` builds in the parent to read the spaces does not).
    """

    grandchild: int | None = None

    def __init__(self) -> None:
        super().__init__(obs_kind="box")
        if multiprocessing.parent_process() is None:
            return
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        self.grandchild = pid


class StubbornError(Exception):
    """An exception that pickles but cannot be unpickled (its constructor needs two arguments)."""

    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"stubborn {a} {b}")


class Unpicklable(ShortEpisodes):
    """Raises :class:`StubbornError` on its first step."""

    def step(self, action: Value) -> tuple[Value, SupportsFloat, bool, bool, InfoDict]:
        raise StubbornError(1, 2)


def broken_factory() -> ShortEpisodes:
    """A factory that fails."""
    raise RuntimeError("cannot build this sub-env")
