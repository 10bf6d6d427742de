"""Envs, spaces and vector envs written from scratch the way users write them: checked by mypy and pyright.

Each class below differs from the protocol in a way the rules allow and at least one checker used to reject:
``metadata`` as a ``ClassVar``, flags computed with NumPy and converted with ``bool(...)``, a ``list`` of uint8
frames, parameter names other than the protocol's, a ``render_init`` with its own keyword options and ``params``
without a ``None`` default. (Flags typed ``numpy.bool_`` are rejected by design: see docs/guide/typing.md and
``negative/cases.py``.)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, SupportsFloat, TypeVar

import numpy as np
from numpy.typing import NDArray

import gymspec
from gymspec import InfoDict, Options

T = TypeVar("T")
ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")
Frame = NDArray[np.uint8]
Batch = NDArray[np.int64]


class RenamedSpace(Generic[T]):
    """A finite space whose parameters are named ``value`` and ``item`` (the protocol's are positional-only)."""

    shape: tuple[int, ...] | None = None
    dtype: np.dtype[Any] | None = None

    def __init__(self, *elements: T) -> None:
        self.elements = elements
        self.np_random = np.random.default_rng()

    def seed(self, value: int | None = None) -> list[int]:
        self.np_random = np.random.default_rng(value)
        return [] if value is None else [value]

    def sample(self) -> T:
        return self.elements[int(self.np_random.integers(len(self.elements)))]

    def contains(self, item: object) -> bool:
        return any(item is element or item == element for element in self.elements)

    def __contains__(self, item: object) -> bool:
        return self.contains(item)


class RuffStyleEnv:
    """``metadata`` as a ``ClassVar`` (ruff's RUF012), NumPy flags made ``bool``, list frames, an action named ``a``."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array_list"], "render_fps": 4}
    render_mode: str | None = "rgb_array_list"

    def __init__(self) -> None:
        self.observation_space = RenamedSpace(0, 1)
        self.action_space = RenamedSpace(0, 1)
        self._frames: list[Frame] = []

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        self._frames = [np.zeros((2, 2, 3), dtype=np.uint8)]
        return 0, {}

    def step(self, a: int) -> tuple[int, float, bool, bool, InfoDict]:
        self._frames.append(np.zeros((2, 2, 3), dtype=np.uint8))
        return a, 1.0, bool(np.equal(a, 1)), False, {}

    def render(self) -> list[Frame]:
        frames, self._frames = self._frames, []
        return frames

    def close(self) -> None:
        self._frames = []


class AnsiEnv:
    """Renders one ``str`` frame per call; ``metadata`` is an instance attribute, flags are plain ``bool``."""

    render_mode: str | None = "ansi"

    def __init__(self) -> None:
        self.metadata = {"render_modes": ["ansi"], "render_fps": 4}
        self.observation_space = RenamedSpace(0)
        self.action_space = RenamedSpace(0, 1)

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}

    def step(self, action: int) -> tuple[int, int, bool, bool, InfoDict]:
        return 0, 0, False, False, {}

    def render(self) -> str:
        return "."

    def close(self) -> None:
        return None


class ArrayVectorEnv:
    """A vector env whose ``step`` parameter is named ``action`` and whose ``render`` returns a list."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": gymspec.AutoresetMode.NEXT_STEP}
    num_envs = 2
    render_mode: str | None = None

    def __init__(self) -> None:
        self.observation_space = RenamedSpace(np.zeros(2, dtype=np.int64))
        self.action_space = RenamedSpace(np.zeros(2, dtype=np.int64))
        self.single_observation_space = RenamedSpace(0)
        self.single_action_space = RenamedSpace(0)

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[Batch, InfoDict]:
        return np.zeros(2, dtype=np.int64), {}

    def step(self, action: Batch) -> tuple[Batch, NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], InfoDict]:
        done = np.zeros(2, dtype=np.bool_)
        return action, np.zeros(2), done, done, {}

    def render(self) -> list[Frame] | None:
        return None

    def close(self) -> None:
        return None


@dataclass(frozen=True)
class WalkParams:
    """A functional env's params."""

    drift: float = 0.0


_State = NDArray[np.float64]


class ParamsDefaultFuncEnv:
    """``params`` defaults to a params object (not ``None``); ``render_init`` has its own keyword options."""

    observation_space = RenamedSpace(np.zeros(1))
    action_space = RenamedSpace(0, 1)

    def initial(self, rng: np.random.Generator, params: WalkParams = WalkParams()) -> _State:
        return np.zeros(1)

    def transition(
        self, state: _State, action: int, rng: np.random.Generator, params: WalkParams = WalkParams()
    ) -> _State:
        return state + action + params.drift

    def observation(self, state: _State, rng: object = None, params: WalkParams = WalkParams()) -> _State:
        return state

    def reward(
        self, state: _State, action: int, next_state: _State, rng: object = None, params: WalkParams = WalkParams()
    ) -> float:
        return 0.0

    def terminal(self, state: _State, rng: object = None, params: WalkParams = WalkParams()) -> bool:
        return False

    def state_info(self, state: _State, params: WalkParams = WalkParams()) -> InfoDict:
        return {}

    def transition_info(
        self, state: _State, action: int, next_state: _State, params: WalkParams = WalkParams()
    ) -> InfoDict:
        return {}

    def transform(self, func: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        return None

    def render_init(self, params: WalkParams = WalkParams(), screen_width: int = 600) -> list[Frame]:
        return []

    def render_image(
        self, state: _State, render_state: list[Frame], params: WalkParams = WalkParams()
    ) -> tuple[list[Frame], Frame]:
        return render_state, np.zeros((2, 2, 3), dtype=np.uint8)

    def render_close(self, render_state: list[Frame], params: WalkParams = WalkParams()) -> None:
        return None


def first_observation(env: gymspec.Env[ObsT, ActT]) -> ObsT:
    return env.reset(seed=0)[0]


def rollout(env: gymspec.Env[gymspec.Value, int], steps: int) -> float:
    env.reset(seed=0)
    total = 0.0
    for _ in range(steps):
        _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        total += float(reward)
        if terminated or truncated:
            env.reset()
    return total


def user_classes_satisfy_the_protocols() -> None:
    space: gymspec.Space[int] = RenamedSpace()
    env: gymspec.Env[int, int] = RuffStyleEnv()
    ansi: gymspec.Env[int, int] = AnsiEnv()
    narrower_actions: gymspec.Env[int, bool] = RuffStyleEnv()  # accepts int, so accepts bool (contravariance)
    wider_observations: gymspec.Env[SupportsFloat, int] = RuffStyleEnv()  # int observations are SupportsFloat
    vector: gymspec.VectorEnv[Batch, Batch] = ArrayVectorEnv()
    func: gymspec.FuncEnv[_State, _State, int, float, bool, list[Frame], WalkParams] = ParamsDefaultFuncEnv()
    obs: int = first_observation(RuffStyleEnv())
    total: float = rollout(RuffStyleEnv(), 3)
    del space, env, ansi, narrower_actions, wider_observations, vector, func, obs, total
