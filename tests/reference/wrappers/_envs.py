"""Small deterministic environments for wrapper tests (no physics, no pygame)."""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference.spaces import Box, Dict, Discrete, Tuple

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Array: TypeAlias = NDArray[np.float32]
_Value: TypeAlias = Any


class BoxEnv(Env[_Array, _Array]):
    """Observation = the last action padded to 3 floats; reward = sum of the action; ends after ``length`` steps.

    Args:
        length: Steps until ``terminated``.
        render_mode: ``None`` or ``"rgb_array"`` (an 6x8 frame whose pixels encode the step count).
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(self, length: int = 5, render_mode: str | None = None) -> None:
        self.observation_space = Box(-1.0, 1.0, shape=(3,), dtype=np.float32)
        self.action_space = Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
        self.length = length
        self.render_mode = render_mode
        self.t = 0
        self.closed = 0

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Array, _Info]:
        super().reset(seed=seed)
        self.t = 0
        return np.zeros(3, dtype=np.float32), {"reset": True}

    def step(self, action: _Array) -> tuple[_Array, SupportsFloat, bool, bool, _Info]:
        self.t += 1
        act = np.clip(np.asarray(action, dtype=np.float32), -1.0, 1.0)
        obs = np.array([act[0], act[1], self.t / self.length], dtype=np.float32)
        return obs, float(np.sum(act)), self.t >= self.length, False, {"t": self.t}

    def render(self) -> NDArray[np.uint8] | None:
        if self.render_mode is None:
            return None
        return np.full((6, 8, 3), self.t % 256, dtype=np.uint8)

    def close(self) -> None:
        self.closed += 1


class DiscreteEnv(Env[_Value, _Value]):
    """Observation = the step count (mod 5); reward = the action; ends after ``length`` steps."""

    def __init__(self, length: int = 4) -> None:
        self.observation_space = Discrete(5)
        self.action_space = Discrete(3)
        self.length = length
        self.t = 0

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Value, _Info]:
        super().reset(seed=seed)
        self.t = 0
        return 0, {}

    def step(self, action: _Value) -> tuple[_Value, SupportsFloat, bool, bool, _Info]:
        self.t += 1
        return self.t % 5, float(action), self.t >= self.length, False, {}


class DictEnv(Env[dict[str, Any], _Value]):
    """Dict observations ``{"pos": Box(2), "count": Discrete(10)}``."""

    def __init__(self) -> None:
        self.observation_space = Dict({"pos": Box(-5.0, 5.0, shape=(2,), dtype=np.float32), "count": Discrete(10)})
        self.action_space = Discrete(2)
        self.t = 0

    def _obs(self) -> dict[str, Any]:
        return {"count": self.t % 10, "pos": np.array([self.t, -self.t], dtype=np.float32) / 10}

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[dict[str, Any], _Info]:
        super().reset(seed=seed)
        self.t = 0
        return self._obs(), {}

    def step(self, action: _Value) -> tuple[dict[str, Any], SupportsFloat, bool, bool, _Info]:
        self.t += 1
        return self._obs(), 1.0, False, False, {}


class TupleEnv(Env[tuple[Any, ...], _Value]):
    """Tuple observations ``(Discrete(4), Box(1), Discrete(2))``."""

    def __init__(self) -> None:
        self.observation_space = Tuple((Discrete(4), Box(0.0, 10.0, shape=(1,), dtype=np.float32), Discrete(2)))
        self.action_space = Discrete(2)
        self.t = 0

    def _obs(self) -> tuple[Any, ...]:
        return (self.t % 4, np.array([self.t], dtype=np.float32), self.t % 2)

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[tuple[Any, ...], _Info]:
        super().reset(seed=seed)
        self.t = 0
        return self._obs(), {}

    def step(self, action: _Value) -> tuple[tuple[Any, ...], SupportsFloat, bool, bool, _Info]:
        self.t += 1
        return self._obs(), 0.0, False, False, {}


class ScriptedEnv(Env[_Value, _Value]):
    """Returns whatever the test scripts: ``results[i]`` is returned by the ``i``-th ``step``.

    Used to feed the passive checker misbehaving data. ``reset_result`` is returned by every ``reset``.
    """

    metadata: dict[str, Any] = {"render_modes": ["rgb_array", "ansi"], "render_fps": 4}

    def __init__(
        self,
        results: list[Any],
        reset_result: Any = None,
        observation_space: Any = None,
        render_mode: str | None = None,
        frames: list[Any] | None = None,
    ) -> None:
        self.observation_space = observation_space if observation_space is not None else Box(-1.0, 1.0, (2,), np.float32)
        self.action_space = Discrete(2)
        self.results = list(results)
        self.reset_result = reset_result if reset_result is not None else (np.zeros(2, np.float32), {})
        self.render_mode = render_mode
        self.frames = list(frames or [])
        self.calls = 0

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> Any:
        super().reset(seed=seed)
        return self.reset_result

    def step(self, action: _Value) -> Any:
        result = self.results[self.calls % len(self.results)]
        self.calls += 1
        return result

    def render(self) -> Any:
        return self.frames.pop(0) if self.frames else None


def good_step(obs: _Value = None) -> tuple[Any, ...]:
    """A well-formed ScriptedEnv step result (fresh arrays each call)."""
    return (np.zeros(2, np.float32) if obs is None else obs, 0.0, False, False, {})
