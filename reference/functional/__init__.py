"""Functional environments: ``FuncEnv`` (pure functions of an explicit state) and its two adapters.

:class:`FunctionalEnv` runs a ``FuncEnv`` as an ``Env``; :class:`FunctionalVectorEnv` runs a batch-capable one as
a ``VectorEnv`` with one function call per step; :class:`BatchedGenerator` gives batched functions per-row random
streams that match what single environments draw.
"""

from __future__ import annotations

from reference.functional.batched_rng import BatchedGenerator, GeneratorSource
from reference.functional.env import FunctionalEnv, spawn_episode_rng
from reference.functional.func_env import FUNCTION_NAMES, FuncEnv
from reference.functional.vector_env import FunctionalVectorEnv

__all__ = [
    "FUNCTION_NAMES",
    "BatchedGenerator",
    "FuncEnv",
    "FunctionalEnv",
    "FunctionalVectorEnv",
    "GeneratorSource",
    "spawn_episode_rng",
]
