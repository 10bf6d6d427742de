"""``AsyncVectorEnv``: construction options, observation and action spaces, the async call protocol, attributes."""

from __future__ import annotations

import functools
import multiprocessing
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.error import AlreadyPendingCallError, ClosedEnvironmentError, NoAsyncCallError
from reference.spaces import Box, Dict, Discrete, Graph, MultiBinary, MultiDiscrete, OneOf, Sequence, Space, Text, Tuple
from reference.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from reference.vector.async_vector_env import AsyncState
from tests.reference._equality import assert_identical
from tests.reference.vector._helpers import Echo, ShortEpisodes

pytestmark = pytest.mark.filterwarnings("ignore:.*Casting input x to numpy array")


def test_attributes_spaces_and_metadata() -> None:
    with AsyncVectorEnv([ShortEpisodes] * 3, num_workers=2) as envs:
        sync = SyncVectorEnv([ShortEpisodes] * 3)
        assert envs.num_envs == 3 and envs.num_workers == 2
        assert envs.action_space == sync.action_space and envs.observation_space == sync.observation_space
        assert envs.single_observation_space == sync.single_observation_space
        assert envs.metadata == sync.metadata and envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
        assert "autoreset_mode" not in ShortEpisodes.metadata
        assert repr(envs) == "AsyncVectorEnv(num_envs=3)"
        assert envs.render_mode is None and envs.shared_memory and envs.copy and envs.daemon


@pytest.mark.parametrize(
    ("kwargs", "workers"),
    [({}, 3), ({"num_workers": 10}, 3), ({"num_workers": 1}, 1), ({"max_concurrency": 2}, 2)],
)
def test_worker_count(kwargs: dict[str, Any], workers: int) -> None:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    default = max(1, cpus - 1)  # one CPU is left to the parent
    with AsyncVectorEnv([ShortEpisodes] * 3, **kwargs) as envs:
        assert envs.num_workers == (workers if "num_workers" in kwargs else min(workers, default))
        assert len(envs._pool) == envs.num_workers
        obs, _ = envs.reset(seed=0)
        assert obs["t"].tolist() == [0, 0, 0]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"num_workers": 0}, ValueError, "num_workers must be a positive int"),
        ({"max_concurrency": -1}, ValueError, "max_concurrency must be"),
        ({"worker": print}, ValueError, "custom worker functions are not supported"),
        ({"autoreset_mode": "Never"}, ValueError, "autoreset_mode must be"),
        ({"observation_mode": "other"}, ValueError, "observation_mode must be"),
    ],
)
def test_invalid_arguments(kwargs: dict[str, Any], error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        AsyncVectorEnv([ShortEpisodes] * 2, **kwargs)


def test_empty_env_fns() -> None:
    with pytest.raises(ValueError, match="at least one"):
        AsyncVectorEnv([])


class CustomSpace(Space[int]):
    def sample(self, mask: Any = None, probability: Any = None) -> int:
        return 3

    def contains(self, x: object) -> bool:
        return x == 3

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CustomSpace)


def test_custom_observation_space_needs_shared_memory_off() -> None:
    factory = functools.partial(Echo, CustomSpace(), Discrete(2))
    with pytest.raises(ValueError, match="shared_memory=False"):
        AsyncVectorEnv([factory] * 2)
    with AsyncVectorEnv([factory] * 2, shared_memory=False) as envs:
        assert envs.reset(seed=0)[0] == (3, 3)
        assert envs.step(np.array([0, 1]))[0] == (3, 3)


OBSERVATION_SPACES = {
    "box-float16": Box(-1, 1, (2, 2), dtype=np.float16),
    "box-bool": Box(0, 1, (3,), dtype=np.bool_),
    "discrete": Discrete(5, start=-2),
    "multi-discrete": MultiDiscrete([[2, 3], [4, 5]]),
    "multi-binary": MultiBinary([2, 2]),
    "text": Text(6, min_length=0),
    "oneof": OneOf([Box(0, 1, (2,)), Discrete(3)]),
    "nested": Dict({"a": Tuple([Discrete(2), Text(3)]), "b": MultiBinary(2)}),
    "graph": Graph(Box(0, 1, (2,)), Discrete(3)),
    "sequence": Sequence(Discrete(4), stack=True),
}


@pytest.mark.parametrize("shared_memory", [True, False])
@pytest.mark.parametrize("name", list(OBSERVATION_SPACES))
def test_observation_spaces_match_sync(name: str, shared_memory: bool) -> None:
    space = OBSERVATION_SPACES[name]
    factory = functools.partial(Echo, space, Discrete(2))
    if shared_memory and name in ("graph", "sequence"):
        with pytest.raises(TypeError, match="fixed shape"):
            AsyncVectorEnv([factory] * 3, shared_memory=True)
        return
    sync = SyncVectorEnv([factory] * 3)
    with AsyncVectorEnv([factory] * 3, shared_memory=shared_memory, num_workers=2) as envs:
        assert_identical(envs.reset(seed=5), sync.reset(seed=5), name)
        for step in range(4):
            actions = np.array([step % 2, 1, 0])
            assert_identical(envs.step(actions), sync.step(actions), f"{name} step {step}")


ACTION_CASES: dict[str, tuple[Space[Any], Callable[[Space[Any]], Any]]] = {
    "discrete-int64": (Discrete(3), lambda s: s.sample()),
    "discrete-list": (Discrete(3), lambda s: [int(a) for a in s.sample()]),
    "discrete-int32": (Discrete(3), lambda s: s.sample().astype(np.int32)),
    "box-float32": (Box(-1, 1, (2,)), lambda s: s.sample()),
    "box-float64": (Box(-1, 1, (2,)), lambda s: s.sample().astype(np.float64)),
    "dict": (Dict({"d": Discrete(2), "b": Box(0, 1, (1,))}), lambda s: s.sample()),
    "tuple-text": (Tuple([Text(3), Discrete(2)]), lambda s: s.sample()),
}


@pytest.mark.parametrize("name", list(ACTION_CASES))
def test_sub_envs_receive_the_same_actions_as_in_sync(name: str) -> None:
    single, make_batch = ACTION_CASES[name]
    factory = functools.partial(Echo, Discrete(2), single)
    sync = SyncVectorEnv([factory] * 3)
    with AsyncVectorEnv([factory] * 3, num_workers=2) as envs:
        envs.reset(seed=0)
        sync.reset(seed=0)
        envs.action_space.seed(1)
        for step in range(3):
            actions = make_batch(envs.action_space)
            assert_identical(envs.step(actions), sync.step(actions), f"{name} step {step}")
        with pytest.raises(ValueError):
            envs.step(make_batch(SyncVectorEnv([factory] * 2).action_space))


def test_array_actions_are_private_copies() -> None:
    with AsyncVectorEnv([functools.partial(Echo, Discrete(2), Box(-1, 1, (2,)))] * 2, num_workers=1) as envs:
        envs.reset(seed=0)
        envs.step(np.zeros((2, 2), dtype=np.float32))
        envs.step(np.ones((2, 2), dtype=np.float32))
        received = envs.get_attr("received")
        assert [a.tolist() for a in received[0]] == [[0, 0], [1, 1]], "a kept action must not change later"


def test_copy_flag() -> None:
    with AsyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * 2, copy=False) as envs:
        obs, _ = envs.reset(seed=0)
        obs2, *_ = envs.step(np.array([2, 2]))
        assert obs2 is obs, "copy=False returns the shared buffer itself"
    with AsyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * 2) as envs:
        obs, _ = envs.reset(seed=0)
        before = obs.copy()
        envs.step(np.array([2, 2]))
        np.testing.assert_array_equal(obs, before)


def state(envs: AsyncVectorEnv[Any, Any]) -> AsyncState:
    return envs._state


def test_async_call_protocol_and_states() -> None:
    with AsyncVectorEnv([ShortEpisodes] * 3, num_workers=2) as envs:
        with pytest.raises(NoAsyncCallError, match="reset_wait must follow reset_async") as no_call:
            envs.reset_wait()
        assert no_call.value.name == "reset"
        for wait in (envs.step_wait, envs.call_wait):
            with pytest.raises(NoAsyncCallError):
                wait()
        envs.reset_async(seed=1)
        assert state(envs) is AsyncState.WAITING_RESET
        with pytest.raises(AlreadyPendingCallError, match="'reset' call is pending") as pending:
            envs.step_async(np.array([0, 0, 0]))
        assert pending.value.name == "reset"
        starts: list[Callable[[], object]] = [
            lambda: envs.reset_async(),
            lambda: envs.call_async("t"),
            lambda: envs.set_attr("x", 1),
        ]
        for start in starts:
            with pytest.raises(AlreadyPendingCallError):
                start()
        with pytest.raises(NoAsyncCallError):
            envs.step_wait()
        obs, _ = envs.reset_wait(timeout=10)
        assert state(envs) is AsyncState.DEFAULT
        envs.step_async(np.array([0, 1, 2]))
        result = envs.step_wait(timeout=10)
        assert result[0]["t"].tolist() == [1, 1, 1]
        envs.call_async("get_wrapper_attr", "_t")
        assert envs.call_wait(timeout=10) == (1, 1, 1)


@pytest.mark.parametrize("name", ["step", "reset", "close"])
def test_call_refuses_the_vector_env_s_own_methods(name: str) -> None:
    with AsyncVectorEnv([ShortEpisodes] * 2, num_workers=1) as envs:
        with pytest.raises(ValueError, match=f"use {name}\\(\\)"):
            envs.call(name)
        envs.reset(seed=0)  # still usable: nothing was sent to the workers


@pytest.mark.filterwarnings("ignore:.*without a render_mode")
def test_call_get_attr_set_attr_render_and_seeds() -> None:
    with AsyncVectorEnv([CartPoleEnv] * 3, num_workers=2) as envs:
        envs.reset(seed=7)
        assert envs.np_random_seed == (7, 8, 9)
        assert all(isinstance(rng, np.random.Generator) for rng in envs.np_random)
        assert envs.get_attr("gravity") == (9.8, 9.8, 9.8)
        envs.set_attr("gravity", [1.0, 2.0, 3.0])
        assert envs.get_attr("gravity") == (1.0, 2.0, 3.0)
        envs.set_attr("gravity", 4.0)
        assert envs.call("get_wrapper_attr", "gravity") == (4.0, 4.0, 4.0)
        with pytest.raises(ValueError, match="num_envs=3 entries"):
            envs.set_attr("gravity", (1.0,))
        assert list(envs.render() or ()) == [None, None, None]
        with pytest.raises(AttributeError):
            envs.get_attr("no_such_attribute")
        assert envs.get_attr("gravity") == (4.0, 4.0, 4.0), "a failed call leaves the env usable"


def test_reset_mask_and_options_are_not_modified() -> None:
    with AsyncVectorEnv([ShortEpisodes] * 3, num_workers=2, autoreset_mode="Disabled") as envs:
        envs.reset(seed=0)
        mask = np.array([False, True, False])
        options = {"reset_mask": mask}
        envs.reset(options=options)
        assert options == {"reset_mask": mask}
        with pytest.raises(ValueError, match="at least one"):
            envs.reset(options={"reset_mask": np.zeros(3, dtype=np.bool_)})
        with pytest.raises(TypeError, match="dtype bool"):
            envs.reset(options={"reset_mask": np.zeros(3, dtype=np.int8)})
        envs.reset(seed=0)


def test_use_after_close_raises_closed_environment_error() -> None:
    envs = AsyncVectorEnv([ShortEpisodes] * 2, num_workers=1)
    envs.close()
    envs.close()
    calls: list[Callable[[], object]] = [
        lambda: envs.reset(),
        lambda: envs.step(np.array([0, 0])),
        lambda: envs.step_wait(),
        lambda: envs.call("t"),
        lambda: envs.get_attr("t"),
        lambda: envs.set_attr("t", 0),
        lambda: envs.render(),
    ]
    for call in calls:
        with pytest.raises(ClosedEnvironmentError):
            call()


def test_spawn_context() -> None:
    with AsyncVectorEnv([ShortEpisodes] * 2, context="spawn", num_workers=2) as envs:
        sync = SyncVectorEnv([ShortEpisodes] * 2)
        assert_identical(envs.reset(seed=3), sync.reset(seed=3))
        assert_identical(envs.step(np.array([1, 2])), sync.step(np.array([1, 2])))
    assert not [p for p in multiprocessing.active_children() if "AsyncVectorEnv" in p.name]


def test_observation_mode_different() -> None:
    factories = [functools.partial(Echo, Box(-k, k, (2,)), Discrete(2)) for k in (1, 2, 3)]
    sync = SyncVectorEnv(factories, observation_mode="different")
    with AsyncVectorEnv(factories, observation_mode="different", num_workers=2) as envs:
        assert envs.observation_space == sync.observation_space
        observation_space: Any = envs.observation_space
        assert observation_space.high[:, 0].tolist() == [1, 2, 3]
        assert_identical(envs.reset(seed=1), sync.reset(seed=1))
        assert_identical(envs.step(np.array([0, 1, 0])), sync.step(np.array([0, 1, 0])))
    with pytest.raises(RuntimeError, match="observation_space must equal"):
        AsyncVectorEnv(factories, num_workers=2)
