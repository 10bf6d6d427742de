"""Tests for reference.utils.performance (tiny durations: these check semantics, not speed)."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

import numpy as np
import pytest

from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.utils.performance import benchmark_init, benchmark_render, benchmark_step, benchmark_vector_step
from reference.wrappers import TimeLimit


class _Counting:
    """Counts the calls the benchmarks make."""

    def __init__(self) -> None:
        self.env = TimeLimit(CartPoleEnv(render_mode="rgb_array"), 3)
        self.action_space = self.env.action_space
        self.steps = self.resets = self.renders = 0

    def reset(self, **kwargs: Any) -> Any:
        self.resets += 1
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> Any:
        self.steps += 1
        return self.env.step(action)

    def render(self) -> Any:
        self.renders += 1
        return self.env.render()


def test_benchmark_step_resets_when_episodes_end() -> None:
    env = _Counting()
    rate = benchmark_step(env, target_duration=0.02, seed=0)
    assert rate > 0 and env.steps > 0
    assert env.resets == 1 + env.steps // 3


def test_benchmark_init_and_render() -> None:
    created: list[CartPoleEnv] = []

    def factory() -> CartPoleEnv:
        created.append(CartPoleEnv())
        return created[-1]

    assert benchmark_init(factory, target_duration=0.02, seed=1) > 0
    assert created and all(env.np_random_seed == 1 for env in created)
    env = _Counting()
    env.reset(seed=0)
    assert benchmark_render(env, target_duration=0.02) > 0 and env.renders > 0


@pytest.mark.parametrize("function", [benchmark_step, benchmark_render])
def test_benchmarks_reject_negative_durations(function: Any) -> None:
    with pytest.raises(ValueError, match="target_duration must be a non-negative number"):
        function(_Counting(), target_duration=-0.5)


@pytest.mark.parametrize("function", [benchmark_step, benchmark_render])
def test_benchmarks_with_zero_duration_run_until_the_clock_advances(function: Any) -> None:
    env = _Counting()
    env.reset(seed=0)
    assert function(env, target_duration=0) > 0


def test_benchmark_vector_step() -> None:
    vector = importlib.import_module("reference.vector") if importlib.util.find_spec("reference.vector") else None
    if vector is None or not hasattr(vector, "SyncVectorEnv"):
        pytest.skip("reference.vector.SyncVectorEnv does not exist yet")
    env = vector.SyncVectorEnv([lambda: TimeLimit(CartPoleEnv(), 5) for _ in range(2)])
    try:
        assert benchmark_vector_step(env, target_duration=0.02, seed=0) > 0
    finally:
        env.close()
    assert np.isfinite(benchmark_step(CartPoleEnv(), target_duration=0.01))
