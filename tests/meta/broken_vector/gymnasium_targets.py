"""Gymnasium's own vector envs as suite targets (tests only: the suite never imports gymnasium itself).

Sub-envs are Gymnasium envs made with ``gymnasium.make``, each with small observations whose values repeat (a new
episode's first observation often equals an earlier episode's last, which no check may read as a defect):
``Blackjack-v1`` (Tuple observations, episodes of one to three steps, empty infos), ``FrozenLake-v1`` (an 8-step
limit; its reset reports ``prob`` as an int, its steps as floats), ``CliffWalking-v1`` and ``Taxi-v4`` (10-step
limits: info with a float and an array key, truncations). Each is wrapped by ``SyncVectorEnv`` and
``AsyncVectorEnv`` in each autoreset mode: ``<env>_<sync|async>_<mode>``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

__all__ = [
    "blackjack_async_disabled",
    "blackjack_async_next_step",
    "blackjack_async_same_step",
    "blackjack_sync_disabled",
    "blackjack_sync_next_step",
    "blackjack_sync_same_step",
    "cliff_walking_async_disabled",
    "cliff_walking_async_next_step",
    "cliff_walking_async_same_step",
    "cliff_walking_sync_disabled",
    "cliff_walking_sync_next_step",
    "cliff_walking_sync_same_step",
    "frozen_lake_async_disabled",
    "frozen_lake_async_next_step",
    "frozen_lake_async_same_step",
    "frozen_lake_sync_disabled",
    "frozen_lake_sync_next_step",
    "frozen_lake_sync_same_step",
    "taxi_async_disabled",
    "taxi_async_next_step",
    "taxi_async_same_step",
    "taxi_sync_disabled",
    "taxi_sync_next_step",
    "taxi_sync_same_step",
]

_ENVS: dict[str, dict[str, Any]] = {
    "Blackjack-v1": {},
    "FrozenLake-v1": {"max_episode_steps": 8},
    "CliffWalking-v1": {"max_episode_steps": 10},
    "Taxi-v4": {"max_episode_steps": 10},
}


def _vector(env_id: str, kind: type[SyncVectorEnv] | type[AsyncVectorEnv], mode: AutoresetMode) -> Callable[[int], Any]:
    kwargs = _ENVS[env_id]

    def make() -> Any:
        return gymnasium.make(env_id, **kwargs)

    def factory(num_envs: int) -> VectorEnv[Any, Any, Any]:
        return kind([make] * num_envs, autoreset_mode=mode)

    factory.__doc__ = f"Gymnasium's ``{kind.__name__}`` over ``{env_id}``, ``{mode.value}``."
    return factory


_NEXT, _SAME, _DISABLED = AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED

blackjack_sync_next_step = _vector("Blackjack-v1", SyncVectorEnv, _NEXT)
blackjack_sync_same_step = _vector("Blackjack-v1", SyncVectorEnv, _SAME)
blackjack_sync_disabled = _vector("Blackjack-v1", SyncVectorEnv, _DISABLED)
blackjack_async_next_step = _vector("Blackjack-v1", AsyncVectorEnv, _NEXT)
blackjack_async_same_step = _vector("Blackjack-v1", AsyncVectorEnv, _SAME)
blackjack_async_disabled = _vector("Blackjack-v1", AsyncVectorEnv, _DISABLED)
frozen_lake_sync_next_step = _vector("FrozenLake-v1", SyncVectorEnv, _NEXT)
frozen_lake_sync_same_step = _vector("FrozenLake-v1", SyncVectorEnv, _SAME)
frozen_lake_sync_disabled = _vector("FrozenLake-v1", SyncVectorEnv, _DISABLED)
frozen_lake_async_next_step = _vector("FrozenLake-v1", AsyncVectorEnv, _NEXT)
frozen_lake_async_same_step = _vector("FrozenLake-v1", AsyncVectorEnv, _SAME)
frozen_lake_async_disabled = _vector("FrozenLake-v1", AsyncVectorEnv, _DISABLED)
cliff_walking_sync_next_step = _vector("CliffWalking-v1", SyncVectorEnv, _NEXT)
cliff_walking_sync_same_step = _vector("CliffWalking-v1", SyncVectorEnv, _SAME)
cliff_walking_sync_disabled = _vector("CliffWalking-v1", SyncVectorEnv, _DISABLED)
cliff_walking_async_next_step = _vector("CliffWalking-v1", AsyncVectorEnv, _NEXT)
cliff_walking_async_same_step = _vector("CliffWalking-v1", AsyncVectorEnv, _SAME)
cliff_walking_async_disabled = _vector("CliffWalking-v1", AsyncVectorEnv, _DISABLED)
taxi_sync_next_step = _vector("Taxi-v4", SyncVectorEnv, _NEXT)
taxi_sync_same_step = _vector("Taxi-v4", SyncVectorEnv, _SAME)
taxi_sync_disabled = _vector("Taxi-v4", SyncVectorEnv, _DISABLED)
taxi_async_next_step = _vector("Taxi-v4", AsyncVectorEnv, _NEXT)
taxi_async_same_step = _vector("Taxi-v4", AsyncVectorEnv, _SAME)
taxi_async_disabled = _vector("Taxi-v4", AsyncVectorEnv, _DISABLED)
