"""Throughput helpers: steps, vector steps, constructions and renders per second (Gymnasium's semantics).

Each function repeats its operation until ``target_duration`` seconds of wall time have passed and returns the
rate. They measure whole calls, so random action sampling (``action_space.sample()``) is included in the step
rates, as in Gymnasium.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import numpy as np

import gymspec

if TYPE_CHECKING:
    from reference.vector.vector_env import VectorEnv

__all__ = ["benchmark_init", "benchmark_render", "benchmark_step", "benchmark_vector_step"]

_Action: TypeAlias = Any  # whatever the action space samples
_AnyVectorEnv: TypeAlias = "VectorEnv[Any, Any, Any]"


class _AnyEnv(Protocol):
    """What the single-environment benchmarks call: any Gymnasium-style environment or wrapper has it."""

    @property
    def action_space(self) -> gymspec.Space[_Action]: ...

    def reset(self, *, seed: int | None = None) -> object: ...

    def step(self, action: _Action, /) -> tuple[object, object, object, object, object]: ...

    def render(self) -> object: ...


def _check_duration(owner: str, target_duration: float) -> None:
    # 0 is allowed (Gymnasium's own tests use it): the loop always runs until the clock has advanced.
    if isinstance(target_duration, bool) or not isinstance(target_duration, (int, float)) or not target_duration >= 0:
        raise ValueError(
            f"{owner} target_duration must be a non-negative number of seconds, got {target_duration!r}"
        )


def benchmark_step(env: _AnyEnv, target_duration: float = 5, seed: int | None = None) -> float:
    """Measure ``env.step`` throughput with random actions, resetting whenever an episode ends.

    Args:
        env: The environment.
        target_duration: Seconds to run for.
        seed: Seed for the first ``reset``.

    Returns:
        Steps per second.

    Raises:
        ValueError: If ``target_duration`` is negative.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> benchmark_step(CartPoleEnv(), target_duration=0.01, seed=0) > 0
        True
    """
    _check_duration("benchmark_step", target_duration)
    env.reset(seed=seed)
    env.action_space.sample()
    steps = 0
    start = end = time.time()
    while end - start <= target_duration:
        steps += 1
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
        end = time.time()
    return steps / (end - start)


def benchmark_vector_step(env: _AnyVectorEnv, target_duration: float = 5, seed: int | None = None) -> float:
    """Measure vector-env throughput in sub-environment steps per second.

    Under next-step autoreset a sub-environment's resetting step is not counted; under disabled autoreset the
    ended sub-environments are reset with ``options={"reset_mask": ...}``.

    Args:
        env: The vector environment.
        target_duration: Seconds to run for.
        seed: Seed for the action space and for ``reset``.

    Returns:
        Sub-environment steps per second.

    Raises:
        ValueError: If ``target_duration`` is negative.
    """
    _check_duration("benchmark_vector_step", target_duration)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    env.step(env.action_space.sample())
    env.reset(seed=seed)
    mode = str(getattr(env.metadata.get("autoreset_mode"), "value", env.metadata.get("autoreset_mode", "NextStep")))
    previous_done = np.zeros(env.num_envs, dtype=np.bool_)
    steps = 0
    start = end = time.time()
    while end - start <= target_duration:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if mode == "NextStep":
            steps += env.num_envs - int(np.count_nonzero(previous_done))
            previous_done = np.logical_or(terminated, truncated)
        else:
            steps += env.num_envs
        if mode == "Disabled":
            done = np.logical_or(terminated, truncated)
            if np.any(done):
                env.reset(options={"reset_mask": done})
        end = time.time()
    return steps / (end - start)


def benchmark_init(env_lambda: Callable[[], _AnyEnv], target_duration: float = 5, seed: int | None = None) -> float:
    """Measure how many environments can be constructed and reset per second.

    Args:
        env_lambda: Creates a new environment.
        target_duration: Seconds to run for.
        seed: Seed for each ``reset``.

    Returns:
        Constructions (each followed by a ``reset``) per second.

    Raises:
        ValueError: If ``target_duration`` is negative.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> benchmark_init(CartPoleEnv, target_duration=0.01, seed=0) > 0
        True
    """
    _check_duration("benchmark_init", target_duration)
    inits = 0
    start = end = time.time()
    while end - start <= target_duration:
        inits += 1
        env = env_lambda()
        env.reset(seed=seed)
        end = time.time()
    return inits / (end - start)


def benchmark_render(env: _AnyEnv, target_duration: float = 5) -> float:
    """Measure ``env.render`` throughput (the environment should already be reset).

    Args:
        env: The environment, made with a render mode.
        target_duration: Seconds to run for.

    Returns:
        Renders per second.

    Raises:
        ValueError: If ``target_duration`` is negative.
    """
    _check_duration("benchmark_render", target_duration)
    renders = 0
    start = end = time.time()
    while end - start <= target_duration:
        renders += 1
        env.render()
        end = time.time()
    return renders / (end - start)
