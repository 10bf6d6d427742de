"""Gymnasium's module path for the registry: ``from reference.envs.registration import register, make, ...``.

Third-party packages write ``from gymnasium.envs.registration import register`` in their ``__init__.py``; this
module makes the same line work with ``reference``. The code lives in :mod:`reference.registration`; every name
here is that module's object (``registry`` is the same dict), and ``current_namespace`` is read through on every
access so that it follows :func:`namespace` blocks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reference import registration as _registration
from reference.registration import (
    ENV_ID_RE,
    EnvCreator,
    EnvSpec,
    VectorEnvCreator,
    VectorizeMode,
    WrapperSpec,
    find_highest_version,
    get_env_id,
    load_env_creator,
    make,
    make_vec,
    namespace,
    parse_env_id,
    pprint_registry,
    register,
    register_envs,
    registry,
    spec,
)

__all__ = [
    "ENV_ID_RE",
    "EnvCreator",
    "EnvSpec",
    "VectorEnvCreator",
    "VectorizeMode",
    "WrapperSpec",
    "current_namespace",
    "find_highest_version",
    "get_env_id",
    "load_env_creator",
    "make",
    "make_vec",
    "namespace",
    "parse_env_id",
    "pprint_registry",
    "register",
    "register_envs",
    "registry",
    "spec",
]

if TYPE_CHECKING:
    # Declared for type checkers (and ``__all__``); at run time ``__getattr__`` reads the live value.
    current_namespace: str | None


def __getattr__(name: str) -> object:
    # ``current_namespace`` is rebound by ``namespace()``; a copied binding here would go stale.
    if name == "current_namespace":
        return _registration.current_namespace
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
