"""The reference vector environments satisfy the ``gymspec`` vector protocols (statically, via mypy, and at run time)."""

from __future__ import annotations

from typing import Any

import gymspec
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.vector import AsyncVectorEnv, SyncVectorEnv, VectorWrapper


def accepts_vector_env(envs: gymspec.VectorEnv[Any, Any]) -> gymspec.VectorEnv[Any, Any]:
    return envs


def accepts_autoresetting(envs: gymspec.AutoresettingVectorEnv[Any, Any]) -> gymspec.AutoresettingVectorEnv[Any, Any]:
    return envs


def declared_mode(envs: gymspec.HasMetadata) -> gymspec.AutoresetMode | None:
    return gymspec.autoreset_mode_of(envs.metadata["autoreset_mode"])


def test_sync_async_and_wrappers_satisfy_the_protocols() -> None:
    sync = SyncVectorEnv([CartPoleEnv] * 2)
    wrapped: VectorWrapper[Any, Any, Any, Any, Any] = VectorWrapper(sync)
    with AsyncVectorEnv([CartPoleEnv] * 2, num_workers=1) as async_envs:
        for envs in (accepts_vector_env(sync), accepts_autoresetting(async_envs), accepts_vector_env(wrapped)):
            assert isinstance(envs, gymspec.VectorEnv)
            assert isinstance(envs, gymspec.AutoresettingVectorEnv)
        for mode in (declared_mode(sync), declared_mode(async_envs), declared_mode(wrapped)):
            assert mode is gymspec.AutoresetMode.NEXT_STEP
    sync.close()
