"""Tests for :mod:`conformance._kit.vector_rollout`."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.handles import Handle
from conformance._engine.outcomes import NotCheckable
from conformance._engine.record import Trace
from conformance._engine.watchdog import Watchdog
from conformance._kit import vector_rollout
from conformance._kit.rollout import first_difference
from conformance._kit.vector_rollout import comparable, declared_mode, ended_flags
from gymspec import AutoresetMode
from reference import Env
from reference.spaces import Discrete
from reference.vector import SyncVectorEnv
from reference.wrappers import TimeLimit
from tests.meta.broken_vector._base import HopSync


class _OtherLibraryMode(enum.Enum):
    SAME = "SameStep"


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ({"autoreset_mode": AutoresetMode.DISABLED}, (AutoresetMode.DISABLED, True)),
        ({"autoreset_mode": "SameStep"}, (AutoresetMode.SAME_STEP, True)),
        ({"autoreset_mode": _OtherLibraryMode.SAME}, (AutoresetMode.SAME_STEP, True)),
        ({"autoreset_mode": "bogus"}, (AutoresetMode.NEXT_STEP, True)),
        ({}, (AutoresetMode.NEXT_STEP, False)),
        (None, (AutoresetMode.NEXT_STEP, False)),
    ],
)
def test_declared_mode(metadata: object, expected: tuple[AutoresetMode, bool]) -> None:
    assert declared_mode(metadata) == expected


def test_ended_flags() -> None:
    assert ended_flags(np.array([True, False]), np.array([False, False]), 2).tolist() == [True, False]
    with pytest.raises(NotCheckable, match="VEC-013"):
        ended_flags(np.array([True]), np.array([False, False]), 2)


def test_comparable_compares_object_arrays_element_by_element() -> None:
    a = np.array([np.zeros(2), None], dtype=object)
    b = np.array([np.zeros(2), None], dtype=object)
    assert comparable(a) == [a[0], None]
    assert comparable({"final_obs": a})["final_obs"][1] is None
    assert comparable(b)[0] is b[0]


@pytest.fixture
def watchdog() -> Iterator[Watchdog]:
    dog = Watchdog(10.0)
    yield dog
    dog.shutdown()


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_run_resets_ended_sub_envs_only_when_disabled(mode: AutoresetMode, watchdog: Watchdog) -> None:
    env = HopSync(2, mode)
    rng = np.random.default_rng(0)
    actions = [rng.integers(0, 3, 2) for _ in range(40)]
    records = vector_rollout.run(Handle(env, "env", Trace(), watchdog), 3, actions, 2, mode)
    kinds = {record.kind for record in records}
    assert kinds == ({"reset", "step", "partial"} if mode is AutoresetMode.DISABLED else {"reset", "step"})
    again = vector_rollout.run(Handle(HopSync(2, mode), "env", Trace(), watchdog), 3, actions, 2, mode)
    assert first_difference(records, again) is None
    other = vector_rollout.run(Handle(HopSync(2, mode), "env", Trace(), watchdog), 4, actions, 2, mode)
    assert first_difference(records, other) is not None


class _Endless(Env[np.int64, np.int64]):
    """Never ends on its own: its episodes end where the time limit around it says."""

    metadata: dict[str, Any] = {"render_modes": []}
    observation_space = Discrete(1)
    action_space = Discrete(1)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.int64, dict[str, Any]]:
        super().reset(seed=seed)
        return np.int64(0), {}

    def step(self, action: np.int64) -> tuple[np.int64, float, bool, bool, dict[str, Any]]:
        return np.int64(0), 0.0, False, False, {}


def _limited_rollout(mode: AutoresetMode, n: int, limit: int, steps: int) -> list[Any]:
    env = SyncVectorEnv([lambda: TimeLimit(_Endless(), limit)] * n, autoreset_mode=mode)
    results: list[Any] = [env.reset(seed=0)]
    for _ in range(steps):
        results.append(env.step(np.zeros(n, dtype=np.int64)))
        ended = np.asarray(results[-1][2]) | np.asarray(results[-1][3])
        if mode is AutoresetMode.DISABLED and ended.any():
            results.append(env.reset(options={"reset_mask": ended}))
    return results


@given(st.sampled_from(list(AutoresetMode)), st.integers(1, 3), st.integers(2, 6), st.integers(0, 20))
def test_overlong_sub_episode_counts_episodes_as_the_mode_defines_them(
    mode: AutoresetMode, n: int, limit: int, extra: int
) -> None:
    """A rollout truncated at ``limit`` is within ``limit`` under every mode, and over ``limit - 1`` (reset steps and
    partial resets are not counted as the episode's steps)."""
    results = _limited_rollout(mode, n, limit, limit + extra)
    assert vector_rollout.overlong_sub_episode(results, limit, mode) is None
    found = vector_rollout.overlong_sub_episode(results, limit - 1, mode)
    assert found is not None and found.startswith(f"sub-env 0 had not ended its episode by step {limit - 1}"), found
