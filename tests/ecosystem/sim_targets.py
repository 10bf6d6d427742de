"""Factories for two third-party simulators the ecosystem sweep checks, each from a venv of its own.

- **Meta-World** (``metaworld`` 3.1.1, MuJoCo, Gymnasium 1.4): MT1 (one task, ``reach-v3``) as an ``Env`` and the
  MT10 benchmark as a ``SyncVectorEnv`` of its ten tasks. Venv: ``python -m venv /work/venvs/metaworld &&
  /work/venvs/metaworld/bin/pip install -e "<repo>[conformance]" metaworld``. MT10's constructor builds ten MuJoCo
  models (about 18 s on 2 loaded cores): the slow-constructor target of issues 36 and 38.
- **MiniWorld** (``miniworld`` 2.1.0, pyglet 1.5 and OpenGL): ``MiniWorld-OneRoom-v0`` as an ``Env`` and as a
  ``SyncVectorEnv``. Venv: ``python -m venv /work/venvs/miniworld && /work/venvs/miniworld/bin/pip install -e
  "<repo>[conformance]" miniworld``. It runs without a display when pyglet renders headless (EGL).

``scripts/ecosystem_sweep.py`` runs them (``scripts/ecosystem_targets.toml`` names the venvs). Each package is
imported by name when a factory is called, so this module imports without either.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

__all__ = [
    "METAWORLD_MT10_SEED",
    "METAWORLD_MT1_SEED",
    "METAWORLD_MT1_TASK",
    "MINIWORLD_ID",
    "metaworld_mt1",
    "metaworld_mt10_vector",
    "miniworld_one_room",
    "miniworld_one_room_vector",
]

SimEnv = Any
"""A third-party ``gymnasium.Env`` or ``VectorEnv``: the packages are not installed where this module is type-checked."""

METAWORLD_MT1_TASK = "reach-v3"
"""The MT1 task: the benchmark's own example."""
METAWORLD_MT1_SEED = 0
METAWORLD_MT10_SEED = 42
"""The seeds Meta-World's usage guide passes (the benchmark samples its task goals from them at construction)."""
MINIWORLD_ID = "MiniWorld-OneRoom-v0"


def _gymnasium_with(package: str) -> Any:
    """Gymnasium, after importing ``package`` (which registers its ids on import)."""
    importlib.import_module(package)
    return importlib.import_module("gymnasium")


def metaworld_mt1(render_mode: str | None = None) -> SimEnv:
    """Meta-World's MT1 benchmark on ``reach-v3`` (an ``Env``), as ``gym.make("Meta-World/MT1", ...)`` builds it."""
    gym = _gymnasium_with("metaworld")
    return gym.make("Meta-World/MT1", env_name=METAWORLD_MT1_TASK, seed=METAWORLD_MT1_SEED, render_mode=render_mode)


def metaworld_mt10_vector(num_envs: int, render_mode: str | None = None) -> SimEnv:
    """Meta-World's MT10 benchmark (a ``SyncVectorEnv``), as ``gym.make_vec("Meta-World/MT10", ...)`` builds it.

    MT10 is always one sub-env per task, ten of them: ``num_envs`` is taken (the suite passes it to every vector
    factory) and has no effect, as ``make_vec`` ignores it for this id.
    """
    del num_envs  # Fixed by the benchmark: one sub-env for each of its ten tasks.
    gym = _gymnasium_with("metaworld")
    return gym.make_vec("Meta-World/MT10", vector_strategy="sync", seed=METAWORLD_MT10_SEED, render_mode=render_mode)


def _headless() -> None:
    # pyglet reads this when it is first imported: without it, it opens an X display, and there is none here. A
    # value the caller set wins.
    os.environ.setdefault("PYGLET_HEADLESS", "true")


def miniworld_one_room(render_mode: str | None = None) -> SimEnv:
    """MiniWorld's ``MiniWorld-OneRoom-v0`` (an ``Env``), made by ``gym.make``, rendering headless."""
    _headless()
    gym = _gymnasium_with("miniworld")
    return gym.make(MINIWORLD_ID, render_mode=render_mode)


def miniworld_one_room_vector(num_envs: int, render_mode: str | None = None) -> SimEnv:
    """``num_envs`` copies of ``MiniWorld-OneRoom-v0`` in a ``SyncVectorEnv`` (``gym.make_vec``), rendering headless."""
    _headless()
    gym = _gymnasium_with("miniworld")
    return gym.make_vec(MINIWORLD_ID, num_envs=num_envs, vectorization_mode="sync", render_mode=render_mode)
