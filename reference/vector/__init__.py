"""Vector environments: many copies of an environment stepped as one batch.

:class:`SyncVectorEnv` runs the sub-environments in this process; :class:`AsyncVectorEnv` runs them in worker
processes (each worker owns a slice of them) and exchanges actions, observations, rewards and flags through
shared memory. Both support the three :class:`AutoresetMode` s and produce identical results for the same seeds
and actions.
"""

from __future__ import annotations

from gymspec import AutoresetMode
from reference.vector import utils
from reference.vector.async_vector_env import AsyncVectorEnv
from reference.vector.sync_vector_env import SyncVectorEnv
from reference.vector.vector_env import (
    VectorActionWrapper,
    VectorEnv,
    VectorObservationWrapper,
    VectorRewardWrapper,
    VectorWrapper,
)

__all__ = [
    "AsyncVectorEnv",
    "AutoresetMode",
    "SyncVectorEnv",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
    "utils",
]
