"""Gymnasium's own vector envs as suite targets (tests only: the suite never imports gymnasium itself).

Sub-envs are Gymnasium envs made with ``gymnasium.make``: ``Blackjack-v1`` (Tuple observations, episodes of one to
three steps, empty infos) and ``Taxi-v4`` with a 10-step limit (info with a float and an array key, truncations).
"""

from __future__ import annotations

from typing import Any

import gymnasium
from gymnasium.vector import AutoresetMode, SyncVectorEnv

__all__ = [
    "blackjack_sync_disabled",
    "blackjack_sync_next_step",
    "blackjack_sync_same_step",
    "frozen_lake_sync_next_step",
    "taxi_sync_next_step",
]


def _blackjack() -> Any:
    return gymnasium.make("Blackjack-v1")


def _taxi() -> Any:
    return gymnasium.make("Taxi-v4", max_episode_steps=10)


def _frozen_lake() -> Any:
    return gymnasium.make("FrozenLake-v1", max_episode_steps=8)


def blackjack_sync_next_step(num_envs: int) -> SyncVectorEnv:
    """Gymnasium ``SyncVectorEnv`` over Blackjack, ``NextStep``."""
    return SyncVectorEnv([_blackjack] * num_envs, autoreset_mode=AutoresetMode.NEXT_STEP)


def blackjack_sync_same_step(num_envs: int) -> SyncVectorEnv:
    """Gymnasium ``SyncVectorEnv`` over Blackjack, ``SameStep``."""
    return SyncVectorEnv([_blackjack] * num_envs, autoreset_mode=AutoresetMode.SAME_STEP)


def blackjack_sync_disabled(num_envs: int) -> SyncVectorEnv:
    """Gymnasium ``SyncVectorEnv`` over Blackjack, ``Disabled``."""
    return SyncVectorEnv([_blackjack] * num_envs, autoreset_mode=AutoresetMode.DISABLED)


def taxi_sync_next_step(num_envs: int) -> SyncVectorEnv:
    """Gymnasium ``SyncVectorEnv`` over Taxi (10-step limit), ``NextStep``."""
    return SyncVectorEnv([_taxi] * num_envs, autoreset_mode=AutoresetMode.NEXT_STEP)


def frozen_lake_sync_next_step(num_envs: int) -> SyncVectorEnv:
    """Gymnasium ``SyncVectorEnv`` over FrozenLake: its reset info ``prob`` is an int, its step ``prob`` a float."""
    return SyncVectorEnv([_frozen_lake] * num_envs, autoreset_mode=AutoresetMode.NEXT_STEP)
