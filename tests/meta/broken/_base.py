"""The correct env every broken variant starts from, and a correct duck-typed wrapper.

``Walk`` is a noisy 1-D walk: the action (0, 1, 2) pushes left, not at all, or right, noise comes from the env's own
generator, the episode terminates when ``|position| >= 4`` and truncates after 30 steps. It declares every render
mode the RENDER rules know, so one class exercises all of them. It passes the whole suite with no warning.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from gymspec.errors import InvalidAction, ResetNeeded, UnsupportedMode
from tests.meta.broken._spaces import Box, Discrete

__all__ = ["Walk", "WalkWrapper", "wrapped"]

_FRAME_SHAPE = (6, 8)


class Walk:
    """A correct, duck-typed env (no base class)."""

    metadata: dict[Any, Any] = {
        "render_modes": ["human", "rgb_array", "ansi", "depth_array", "rgb_array_list"],
        "render_fps": 30,
    }
    spec = None

    def __init__(self, render_mode: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = self.metadata["render_modes"]
            raise UnsupportedMode(f"Walk render_mode must be one of {modes}, got {render_mode!r}")
        self.render_mode = render_mode
        self.action_space: Any = Discrete(3)
        self.observation_space: Any = Box(-10.0, 10.0, (2,))
        self._np_random: np.random.Generator | None = None
        self.np_random_seed: int | None = None
        self._state: NDArray[np.float64] | None = None
        self._steps = 0
        self._frames: list[NDArray[np.uint8]] = []
        self.closed = False

    # --- seeding ---------------------------------------------------------------------------------------------

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    @property
    def unwrapped(self) -> Walk:
        return self

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            self.np_random_seed = seed

    # --- dynamics (the hooks broken variants override) --------------------------------------------------------

    def _initial_state(self) -> NDArray[np.float64]:
        return self.np_random.uniform(-1.0, 1.0, size=2)

    def _noise(self) -> float:
        return float(self.np_random.normal(0.0, 0.1))

    def _observation(self) -> Any:
        state = np.zeros(2) if self._state is None else self._state
        return np.clip(state, -10.0, 10.0).astype(np.float32)

    def _info(self) -> Any:
        return {"steps": self._steps}

    def _push(self, action: Any) -> int:
        if not self.action_space.contains(action):
            raise InvalidAction(f"Walk action must be an element of {self.action_space!r}, got {action!r}")
        return int(np.asarray(action).reshape(-1).sum()) % 3 - 1

    # --- the API -------------------------------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        self._seed(seed)
        self._state = self._initial_state()
        self._steps = 0
        self._frames = []  # a "*_list" mode collects the frames since the latest reset (RENDER-011)
        self._record_frame()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._state is None:
            raise ResetNeeded("Walk.step called before reset")
        push = self._push(action)
        noise = self._noise()
        self._state = np.array([self._state[0] + 0.5 * push + noise, 0.5 * push + noise])
        self._steps += 1
        terminated = bool(abs(self._state[0]) >= 4.0)
        truncated = self._steps >= 30
        self._record_frame()
        return self._observation(), float(-abs(self._state[0])), terminated, truncated, self._info()

    # --- rendering ---------------------------------------------------------------------------------------------

    def _rgb(self) -> NDArray[np.uint8]:
        frame = np.zeros((*_FRAME_SHAPE, 3), dtype=np.uint8)
        position = 0.0 if self._state is None else float(self._state[0])
        column = int(np.clip((position + 4.0) / 8.0 * (_FRAME_SHAPE[1] - 1), 0, _FRAME_SHAPE[1] - 1))
        frame[:, column, :] = 255
        frame[0, 0, 0] = self._steps % 256  # every step draws a different frame
        return frame

    def _record_frame(self) -> None:
        if self.render_mode == "rgb_array_list":
            self._frames.append(self._rgb())

    def render(self) -> Any:
        mode = self.render_mode
        if mode is None or mode == "human":
            return None
        if mode == "rgb_array":
            return self._rgb()
        if mode == "ansi":
            return f"position {0.0 if self._state is None else self._state[0]:+.2f}\n"
        if mode == "depth_array":
            return self._rgb()[:, :, 0].astype(np.float32)
        frames, self._frames = self._frames, []
        return frames

    def close(self) -> None:
        self.closed = True


class WalkWrapper:
    """A correct duck-typed wrapper that forwards everything (no attribute magic)."""

    def __init__(self, env: Any) -> None:
        self.env = env

    @property
    def _inner(self) -> Any:
        """Where calls are forwarded (``env``; a broken wrapper may forward elsewhere)."""
        return self.env

    @property
    def action_space(self) -> Any:
        return self._inner.action_space

    @property
    def observation_space(self) -> Any:
        return self._inner.observation_space

    @property
    def metadata(self) -> Any:
        return self._inner.metadata

    @property
    def render_mode(self) -> str | None:
        mode: str | None = self._inner.render_mode
        return mode

    @property
    def spec(self) -> Any:
        return self._inner.spec

    @property
    def unwrapped(self) -> Any:
        return self._inner.unwrapped

    @property
    def np_random(self) -> np.random.Generator:
        rng: np.random.Generator = self._inner.np_random
        return rng

    @property
    def np_random_seed(self) -> int | None:
        seed: int | None = self._inner.np_random_seed
        return seed

    def get_wrapper_attr(self, name: str) -> Any:
        if hasattr(self, name):
            return getattr(self, name)
        inner = getattr(self._inner, "get_wrapper_attr", None)
        return inner(name) if inner is not None else getattr(self._inner, name)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        result: tuple[Any, Any] = self._inner.reset(seed=seed, options=options)
        return result

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        result: tuple[Any, Any, Any, Any, Any] = self._inner.step(action)
        return result

    def render(self) -> Any:
        return self._inner.render()

    def close(self) -> None:
        self._inner.close()


def wrapped(**kwargs: Any) -> WalkWrapper:
    """A ``Walk`` inside a ``WalkWrapper`` (a correct wrapped target)."""
    return WalkWrapper(Walk(**kwargs))
