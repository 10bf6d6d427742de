"""A duck-typed env with no base class, shared by the positive and negative typing cases."""

from __future__ import annotations

from typing import SupportsFloat

import numpy as np

from gymspec._typing import InfoDict, Options, RenderFrame


class DuckSpace:
    """A two-element space written from scratch."""

    shape: tuple[int, ...] | None = ()
    dtype: np.dtype[np.int64] | None = np.dtype(np.int64)

    def __init__(self) -> None:
        self.np_random = np.random.default_rng(0)

    def seed(self, seed: int | None = None) -> int | None:
        self.np_random = np.random.default_rng(seed)
        return seed

    def sample(self) -> int:
        return int(self.np_random.integers(2))

    def contains(self, x: object) -> bool:
        return x in (0, 1)

    def __contains__(self, x: object) -> bool:
        return self.contains(x)


class DuckEnv:
    """An env with the right signatures and no base class."""

    metadata: InfoDict = {"render_modes": []}
    render_mode: str | None = None

    def __init__(self) -> None:
        self.action_space = DuckSpace()
        self.observation_space = DuckSpace()

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}

    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:
        return action, 1.0, False, False, {}

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        return None

    def close(self) -> None:
        return None
