"""``SyncVectorEnv`` and ``AsyncVectorEnv`` are observationally identical.

For random sequences of steps, full resets (seeded or not, often right after some sub-envs ended) and partial
resets, both return the same observations, rewards, flags and infos (masks and ``final_obs``/``final_info``
included) in every autoreset mode, with and without shared memory, for any worker count. Errors must match too:
under ``Disabled`` both refuse to step an ended sub-env.

Async environments are expensive to start, so each configuration is built once per module and every Hypothesis
example begins with a seeded full reset, which fully determines its state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv
from tests.reference._equality import assert_identical
from tests.reference.vector._helpers import ShortEpisodes

N = 5
Result: TypeAlias = Any
Vec: TypeAlias = Any


@dataclass(frozen=True)
class Config:
    mode: AutoresetMode
    shared_memory: bool
    num_workers: int


CONFIGS = [
    Config(mode, shared_memory, workers)
    for mode in AutoresetMode
    for shared_memory, workers in ((True, 2), (False, 3))
] + [Config(AutoresetMode.NEXT_STEP, True, N)]


def config_id(config: Config) -> str:
    return f"{config.mode.value}-shm{int(config.shared_memory)}-w{config.num_workers}"


@pytest.fixture(scope="module", params=CONFIGS, ids=config_id)
def pair(request: pytest.FixtureRequest) -> Iterator[tuple[Config, Vec]]:
    config: Config = request.param
    envs = AsyncVectorEnv(
        [ShortEpisodes] * N,
        shared_memory=config.shared_memory,
        autoreset_mode=config.mode,
        num_workers=config.num_workers,
    )
    yield config, envs
    envs.close()


actions = st.lists(st.integers(0, 2), min_size=N, max_size=N).map(lambda a: np.array(a, dtype=np.int64))
masks = st.lists(st.booleans(), min_size=N, max_size=N).map(lambda m: np.array(m, dtype=np.bool_))
seed_lists = st.lists(st.one_of(st.none(), st.integers(0, 999)), min_size=N, max_size=N)
seeds = st.one_of(st.none(), st.integers(0, 2**31), seed_lists)
operations = st.lists(
    st.one_of(
        st.tuples(st.just("step"), actions),
        st.tuples(st.just("step"), actions),
        st.tuples(st.just("step"), actions),
        st.tuples(st.just("reset"), seeds),
        st.tuples(st.just("partial"), st.tuples(masks, seeds)),
    ),
    min_size=1,
    max_size=25,
)


def both(sync: Vec, async_: Vec, call: Callable[[Vec], Result], context: str) -> Result:
    """Run ``call`` on both; they must return identical results or raise the same exception type."""
    outcomes = []
    for envs in (sync, async_):
        try:
            outcomes.append(("ok", call(envs)))
        except Exception as exc:  # noqa: BLE001 - the exception itself is what is compared
            outcomes.append(("raised", type(exc)))
    (kind_s, sync_out), (kind_a, async_out) = outcomes
    assert kind_s == kind_a, f"{context}: sync {kind_s} {sync_out!r}, async {kind_a} {async_out!r}"
    if kind_s == "ok":
        assert_identical(sync_out, async_out, context)
    else:
        assert sync_out is async_out, context
    return sync_out if kind_s == "ok" else None


@settings(max_examples=40, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations)
def test_sync_and_async_agree(pair: tuple[Config, Vec], first_seed: int, ops: list[tuple[str, Any]]) -> None:
    config, async_envs = pair
    sync_envs = SyncVectorEnv([ShortEpisodes] * N, autoreset_mode=config.mode)
    both(sync_envs, async_envs, lambda e: e.reset(seed=first_seed), "first reset")
    for number, (kind, arg) in enumerate(ops):
        context = f"{config} op {number} {kind}"
        if kind == "step":
            both(sync_envs, async_envs, lambda e: e.step(arg), context)
        elif kind == "reset":
            both(sync_envs, async_envs, lambda e: e.reset(seed=arg), context)
        else:
            mask, seed = arg
            options = {"reset_mask": mask, "extra": True}
            both(sync_envs, async_envs, lambda e: e.reset(seed=seed, options=options), context)
            assert options["reset_mask"] is mask, "reset must not modify the caller's options"


def test_full_reset_right_after_sub_envs_ended(pair: tuple[Config, Vec]) -> None:
    config, async_envs = pair
    mode = config.mode
    sync_envs = SyncVectorEnv([ShortEpisodes] * N, autoreset_mode=mode)
    both(sync_envs, async_envs, lambda e: e.reset(seed=123), "reset")
    ones = np.ones(N, dtype=np.int64)
    for attempt in range(10):
        result = both(sync_envs, async_envs, lambda e: e.step(ones), f"step {attempt}")
        if np.logical_or(result[2], result[3]).any():
            break
    # Some sub-envs ended on the last step: a full reset must restart all of them, so the next step is a normal
    # first step everywhere (no stale autoreset swallowing it).
    both(sync_envs, async_envs, lambda e: e.reset(), "full reset after end")
    obs, _, terminated, truncated, _ = both(sync_envs, async_envs, lambda e: e.step(ones), "first step after reset")
    expected = np.where(np.logical_or(terminated, truncated), 0, 1) if mode is AutoresetMode.SAME_STEP else np.ones(N)
    assert obs["t"].tolist() == expected.tolist()
