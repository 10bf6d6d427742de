"""Run the same vector-wrapper stack over our ``SyncVectorEnv`` and Gymnasium's and compare every output.

Both sides get sub-envs with the same dynamics and random-number calls (:class:`ShortEpisodesLogic` from the vector
tests, :class:`BoxEpisodesLogic` here, or each library's CartPole/Pendulum), the same seeds and the same operations,
so observations, rewards, flags and infos (``episode``/``_episode`` included) must be identical. A wrapper stack is
described once as ``build(lib, envs)`` where ``lib`` names the library's spaces and wrappers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, SupportsFloat, TypeAlias

import numpy as np
import pytest
from hypothesis import strategies as st

import reference.spaces as ref_spaces
import reference.wrappers as ref_wrappers
import reference.wrappers.vector as ref_vector_wrappers
from reference.core import Env
from reference.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from tests.reference._equality import assert_identical
from tests.reference.vector._helpers import ShortEpisodes, ShortEpisodesLogic

pytest.importorskip("gymnasium")
import gymnasium  # noqa: E402
import gymnasium.vector  # noqa: E402
import gymnasium.wrappers  # noqa: E402
import gymnasium.wrappers.vector  # noqa: E402

N = 3
Value: TypeAlias = Any
Vec: TypeAlias = Any
InfoDict: TypeAlias = dict[str, Any]
Options: TypeAlias = dict[str, Any]
Op: TypeAlias = tuple[str, Any]


@dataclass(frozen=True)
class Lib:
    """One library's building blocks, so a wrapper stack can be written once for both."""

    name: str
    spaces: ModuleType
    wrappers: ModuleType
    vector_wrappers: ModuleType


OURS = Lib("reference", ref_spaces, ref_wrappers, ref_vector_wrappers)
THEIRS = Lib("gymnasium", gymnasium.spaces, gymnasium.wrappers, gymnasium.wrappers.vector)
Build: TypeAlias = Callable[[Lib, Vec], Vec]


class BoxEpisodesLogic:
    """Box observations and Box actions, episodes of 1 to 4 steps; the reward depends on the (unclipped) action.

    ``spaces`` selects the library; the random-number calls are identical in both.
    """

    spaces: ModuleType = ref_spaces

    if TYPE_CHECKING:  # the Env it is mixed into provides it, as a property

        @property
        def np_random(self) -> np.random.Generator: ...
        @np_random.setter
        def np_random(self, value: np.random.Generator) -> None: ...

    def __init__(self) -> None:
        sp = self.spaces
        self.observation_space = sp.Box(-10.0, 10.0, shape=(3,), dtype=np.float32)
        self.action_space = sp.Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
        self._pos = np.zeros(3, dtype=np.float32)
        self._t = 0
        self._length = 1

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[Value, InfoDict]:
        super().reset(seed=seed)  # type: ignore[misc]
        self._t = 0
        self._length = int(self.np_random.integers(1, 5))
        self._pos = self.np_random.uniform(-1.0, 1.0, size=3).astype(np.float32)
        return self._pos.copy(), {"length": self._length}

    def step(self, action: Value) -> tuple[Value, SupportsFloat, bool, bool, InfoDict]:
        self._t += 1
        act = np.asarray(action, dtype=np.float32)
        delta = np.array([act[0], act[1], act[0] * act[1]], dtype=np.float32)
        self._pos = np.clip(self._pos + np.float32(0.5) * delta, -10.0, 10.0).astype(np.float32)
        reward = float(np.sum(act)) + float(self.np_random.normal())
        done = self._t >= self._length
        terminated = done and bool(self.np_random.integers(2))
        info: InfoDict = {"t": self._t}
        return self._pos.copy(), reward, terminated, done and not terminated, info

    def render(self) -> Value:
        return None

    def close(self) -> None:
        pass


class BoxEpisodes(BoxEpisodesLogic, Env[Any, Any]):
    """:class:`BoxEpisodesLogic` on the reference ``Env``."""

    metadata = {"render_modes": [], "render_fps": 4}


class GymShortEpisodes(ShortEpisodesLogic, gymnasium.Env[Any, Any]):
    """:class:`ShortEpisodesLogic` on ``gymnasium.Env``."""

    spaces = gymnasium.spaces
    metadata = {"render_modes": [], "render_fps": 4}


class GymBoxEpisodes(BoxEpisodesLogic, gymnasium.Env[Any, Any]):
    """:class:`BoxEpisodesLogic` on ``gymnasium.Env``."""

    spaces = gymnasium.spaces
    metadata = {"render_modes": [], "render_fps": 4}


def _short_box() -> ShortEpisodes:
    return ShortEpisodes(obs_kind="box")


def _gym_short_box() -> GymShortEpisodes:
    return GymShortEpisodes(obs_kind="box")


#: Sub-env factories per kind: (ours, theirs). "dict"/"box" have Discrete(3) actions, "boxact" Box actions.
SUB_ENVS: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
    "dict": (ShortEpisodes, GymShortEpisodes),
    "box": (_short_box, _gym_short_box),
    "boxact": (BoxEpisodes, GymBoxEpisodes),
}


def gym_mode(mode: AutoresetMode) -> Any:
    """Gymnasium's enum member for ``mode``."""
    return gymnasium.vector.AutoresetMode(mode.value)


def make_pair(kind: str, mode: AutoresetMode, build: Build) -> tuple[Vec, Vec]:
    """Our and Gymnasium's ``SyncVectorEnv`` of ``N`` ``kind`` sub-envs in ``mode``, each wrapped by ``build``."""
    ours_fn, theirs_fn = SUB_ENVS[kind]
    ours = SyncVectorEnv([ours_fn] * N, autoreset_mode=mode)
    theirs = gymnasium.vector.SyncVectorEnv([theirs_fn] * N, autoreset_mode=gym_mode(mode))
    return build(OURS, ours), build(THEIRS, theirs)


def make_async(kind: str, mode: AutoresetMode, build: Build) -> Vec:
    """Our ``AsyncVectorEnv`` of ``N`` ``kind`` sub-envs (two workers) wrapped by ``build``."""
    return build(OURS, AsyncVectorEnv([SUB_ENVS[kind][0]] * N, autoreset_mode=mode, num_workers=2))


def make_sync(kind: str, mode: AutoresetMode, build: Build) -> Vec:
    """Our ``SyncVectorEnv`` of ``N`` ``kind`` sub-envs wrapped by ``build``."""
    return build(OURS, SyncVectorEnv([SUB_ENVS[kind][0]] * N, autoreset_mode=mode))


def _without_times(value: Value, context: str) -> Value:
    """Drop the wall-clock ``t`` of episode statistics after checking its form (it cannot match across runs)."""
    if isinstance(value, list):
        return [_without_times(item, context) for item in value]
    if not isinstance(value, dict):
        return value
    if set(value) == {"r", "l", "t"}:
        times = value["t"]
        assert np.all(np.asarray(times) >= 0), f"{context}: negative episode time {times!r}"
        if isinstance(times, np.ndarray):
            assert times.dtype == np.float64, f"{context}: episode time dtype {times.dtype}"
            assert np.all(times[np.asarray(value["l"]) == 0] == 0), f"{context}: time where no episode ended"
        return {"r": value["r"], "l": value["l"]}
    return {key: _without_times(item, context) for key, item in value.items()}


def assert_same(ours: tuple[Value, ...], theirs: tuple[Value, ...], context: str) -> None:
    """Assert a ``reset`` (2-tuple) or ``step`` (5-tuple) result is identical on both sides, episode times aside."""
    assert_identical(ours[:-1], theirs[:-1], context)
    assert_identical(_without_times(ours[-1], context), _without_times(theirs[-1], context), f"{context}: info")


def assert_same_spaces(ours: Vec, theirs: Vec) -> None:
    """Both wrappers declare the same batched and single spaces."""
    for name in ("observation_space", "single_observation_space", "action_space", "single_action_space"):
        assert repr(getattr(ours, name)) == repr(getattr(theirs, name)), name


def drive(ours: Vec, theirs: Vec, mode: AutoresetMode, first_seed: int, ops: list[Op], *, partial: bool = True) -> None:
    """Apply ``ops`` to both and compare every result.

    Under ``Disabled``, ended sub-envs are reset before the next step: with a ``reset_mask`` when ``partial``,
    else with an unseeded full reset (Gymnasium's statistics wrappers mishandle partial resets; see
    ``test_common``). ``partial`` ops are skipped unless ``partial``.
    """
    assert_same(ours.reset(seed=first_seed), theirs.reset(seed=first_seed), "first reset")
    ended = np.zeros(N, dtype=np.bool_)
    for number, (kind, arg) in enumerate(ops):
        context = f"{mode.value} op {number} {kind} {arg!r}"
        if kind == "step":
            if mode is AutoresetMode.DISABLED and ended.any():
                if partial:
                    options = {"reset_mask": ended.copy()}
                    assert_same(ours.reset(options=options), theirs.reset(options=dict(options)), context)
                else:
                    assert_same(ours.reset(), theirs.reset(), context)
            result = ours.step(arg)
            assert_same(result, theirs.step(arg), context)
            ended = np.logical_or(result[2], result[3])
        elif kind == "reset":
            assert_same(ours.reset(seed=arg), theirs.reset(seed=arg), context)
            ended[:] = False
        elif partial and arg[0].any():
            mask, seed = arg
            options = {"reset_mask": mask}
            assert_same(ours.reset(seed=seed, options=options), theirs.reset(seed=seed, options=dict(options)), context)
            ended &= ~mask


def discrete_actions() -> st.SearchStrategy[Value]:
    """Batches of ``Discrete(3)`` actions."""
    return st.lists(st.integers(0, 2), min_size=N, max_size=N).map(lambda a: np.array(a, dtype=np.int64))


def box_actions(bound: float = 2.0) -> st.SearchStrategy[Value]:
    """Batches of ``(2,)`` float32 actions in ``[-bound, bound]`` (outside the action space on purpose)."""
    floats = st.floats(-bound, bound, width=32)
    return st.lists(st.lists(floats, min_size=2, max_size=2), min_size=N, max_size=N).map(
        lambda a: np.array(a, dtype=np.float32)
    )


def operations(actions: st.SearchStrategy[Value], max_size: int = 15) -> st.SearchStrategy[list[Op]]:
    """Mostly steps, some seeded/unseeded full resets and partial resets."""
    masks = st.lists(st.booleans(), min_size=N, max_size=N).map(lambda m: np.array(m, dtype=np.bool_))
    seeds = st.one_of(st.none(), st.integers(0, 2**31))
    step = st.tuples(st.just("step"), actions)
    return st.lists(
        st.one_of(
            step, step, step, st.tuples(st.just("reset"), seeds), st.tuples(st.just("partial"), st.tuples(masks, seeds))
        ),
        min_size=1,
        max_size=max_size,
    )


def smoke(envs: Vec, actions: Value, steps: int = 12) -> list[tuple[Value, ...]]:
    """Reset with seed 0 and step ``steps`` times with ``actions``; return every result."""
    results: list[tuple[Value, ...]] = [envs.reset(seed=0)]
    for _ in range(steps):
        results.append(envs.step(actions))
    return results


def assert_sync_async_agree(kind: str, mode: AutoresetMode, build: Build, actions: Value, steps: int = 12) -> None:
    """Our wrapper stack gives identical results over ``SyncVectorEnv`` and ``AsyncVectorEnv``."""
    sync_envs = make_sync(kind, mode, build)
    async_envs = make_async(kind, mode, build)
    try:
        for number, (a, b) in enumerate(zip(smoke(sync_envs, actions, steps), smoke(async_envs, actions, steps))):
            assert_same(a, b, f"sync/async call {number}")
    finally:
        sync_envs.close()
        async_envs.close()
