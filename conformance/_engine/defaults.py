"""The reference's vector envs and functional envs: what the suite checks, besides its envs, when no target is named.

Vector targets are made with the reference's ``make_vec``, so each reproducer is a single public call:

* ``SyncVectorEnv`` over ``FrozenLake-v1`` (short, slippery episodes with an info key) in each autoreset mode;
* ``AsyncVectorEnv`` (shared memory) over ``CartPole-v1`` in each autoreset mode;
* ``CartPole-v1``'s vector entry point (one batched functional env, no sub-env factories).

Functional targets are the ``FuncEnv`` classes of ``reference.envs.functional``.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, TypeAlias

from conformance._engine.source import source
from conformance._engine.targets import Target

__all__ = ["FUNC_TARGETS", "VECTOR_TARGETS", "reference_func_targets", "reference_vector_targets"]

_Kwargs: TypeAlias = dict[str, Any]
_REGISTRY = "reference.registration"
_MODES = ("NextStep", "SameStep", "Disabled")

VECTOR_TARGETS: tuple[tuple[str, str, Mapping[str, Any]], ...] = (
    *(
        (f"FrozenLake-v1/sync/{mode}", "FrozenLake-v1",
         {"vectorization_mode": "sync", "vector_kwargs": {"autoreset_mode": mode}, "max_episode_steps": 8})
        for mode in _MODES
    ),
    *(
        (f"CartPole-v1/async/{mode}", "CartPole-v1",
         {"vectorization_mode": "async", "vector_kwargs": {"autoreset_mode": mode}, "max_episode_steps": 25})
        for mode in _MODES
    ),
    ("CartPole-v1/vector_entry_point", "CartPole-v1", {"vectorization_mode": "vector_entry_point"}),
)
"""``(target id, env id, make_vec kwargs)`` of each default vector target."""

FUNC_TARGETS: tuple[str, ...] = (
    "reference.envs.functional.cartpole:CartPoleFunctional",
    "reference.envs.functional.pendulum:PendulumFunctional",
)
"""``module:attr`` of each default functional target (a class: calling it gives a ``FuncEnv`` instance)."""


def _vector_target(target_id: str, env_id: str, kwargs: Mapping[str, Any]) -> Target:
    def factory(**kw: Any) -> Any:
        importlib.import_module("reference.envs")
        return importlib.import_module(_REGISTRY).make_vec(env_id, **kw)

    return Target(
        id=target_id,
        kind="vector",
        factory=factory,
        imports=(f"from {_REGISTRY} import make_vec",),
        callee="make_vec",
        call_args=(source(env_id),),
        kwargs=dict(kwargs),
        env_id=env_id,
        registry=_REGISTRY,
    )


def _func_target(spec: str) -> Target:
    module_name, _, attr = spec.partition(":")

    def factory(**kw: Any) -> Any:
        return getattr(importlib.import_module(module_name), attr)(**kw)

    return Target(id=spec, kind="func", factory=factory, imports=(f"from {module_name} import {attr}",), callee=attr)


def reference_vector_targets() -> list[Target]:
    """One target per entry of :data:`VECTOR_TARGETS`."""
    return [_vector_target(*entry) for entry in VECTOR_TARGETS]


def reference_func_targets() -> list[Target]:
    """One target per entry of :data:`FUNC_TARGETS`."""
    return [_func_target(spec) for spec in FUNC_TARGETS]
