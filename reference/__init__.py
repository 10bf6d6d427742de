"""The gymspec reference implementation: Gymnasium 1.x's API, written against the gymspec protocols.

``import reference as gym`` gives the names a Gymnasium user expects at the top level (``Env``, ``Wrapper``,
``make``, ``make_vec``, ``spaces``, ``wrappers``, ``vector`` ...). Importing the package registers the built-in
environments, as Gymnasium's does, so ``reference.make("CartPole-v1")`` works straight away.
"""

from __future__ import annotations

from reference import error, logger, spaces, utils
from reference.core import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper
from reference.registration import (
    VectorizeMode,
    make,
    make_vec,
    pprint_registry,
    register,
    register_envs,
    registry,
    spec,
)
from reference.spaces import Space

# Imported for their side effect (registering ids) and so that ``reference.envs`` etc. resolve as attributes.
from reference import envs, experimental, vector, wrappers  # noqa: E402  isort: skip

__all__ = [
    "ActionWrapper",
    "Env",
    "ObservationWrapper",
    "RewardWrapper",
    "Space",
    "VectorizeMode",
    "Wrapper",
    "envs",
    "error",
    "experimental",
    "logger",
    "make",
    "make_vec",
    "pprint_registry",
    "register",
    "register_envs",
    "registry",
    "spaces",
    "spec",
    "utils",
    "vector",
    "wrappers",
]

__version__ = "0.1.0"
