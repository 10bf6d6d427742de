"""Correct reference vector envs over ``Hop``, one factory per (class, autoreset mode, shared memory)."""

from __future__ import annotations

from tests.meta.broken_vector._base import HopAsync, HopSync

__all__ = [
    "async_disabled",
    "async_disabled_pickled",
    "async_next_step",
    "async_next_step_pickled",
    "async_same_step",
    "async_same_step_pickled",
    "sync_disabled",
    "sync_next_step",
    "sync_same_step",
]


def sync_next_step(num_envs: int) -> HopSync:
    """``SyncVectorEnv``, ``NextStep``."""
    return HopSync(num_envs, "NextStep")


def sync_same_step(num_envs: int) -> HopSync:
    """``SyncVectorEnv``, ``SameStep``."""
    return HopSync(num_envs, "SameStep")


def sync_disabled(num_envs: int) -> HopSync:
    """``SyncVectorEnv``, ``Disabled``."""
    return HopSync(num_envs, "Disabled")


def async_next_step(num_envs: int) -> HopAsync:
    """``AsyncVectorEnv`` with shared memory, ``NextStep``."""
    return HopAsync(num_envs, "NextStep")


def async_same_step(num_envs: int) -> HopAsync:
    """``AsyncVectorEnv`` with shared memory, ``SameStep``."""
    return HopAsync(num_envs, "SameStep")


def async_disabled(num_envs: int) -> HopAsync:
    """``AsyncVectorEnv`` with shared memory, ``Disabled``."""
    return HopAsync(num_envs, "Disabled")


def async_next_step_pickled(num_envs: int) -> HopAsync:
    """``AsyncVectorEnv`` without shared memory (observations pickled), ``NextStep``."""
    return HopAsync(num_envs, "NextStep", shared_memory=False)


def async_same_step_pickled(num_envs: int) -> HopAsync:
    """``AsyncVectorEnv`` without shared memory, ``SameStep``."""
    return HopAsync(num_envs, "SameStep", shared_memory=False)


def async_disabled_pickled(num_envs: int) -> HopAsync:
    """``AsyncVectorEnv`` without shared memory, ``Disabled``."""
    return HopAsync(num_envs, "Disabled", shared_memory=False)
