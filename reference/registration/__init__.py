"""The environment registry: ``register`` ids, then ``make``/``make_vec`` them (Gymnasium-compatible).

Ids follow ``[namespace/]name[-vVERSION]``. Lookups fail with the most specific error: ``NamespaceNotFound``,
``NameNotFound`` (with a close-match suggestion), ``VersionNotFound`` (listing the registered versions) or
``DeprecatedEnv``. ``register``, ``current_namespace`` and the ``namespace`` context manager live in this module
so that ``reference.registration.current_namespace`` always reads the live value.

Example:
    >>> from reference.registration import register, registry, spec
    >>> register(id="doc_ns/Toy-v0", entry_point="pkg.mod:ToyEnv", max_episode_steps=5)
    >>> spec("doc_ns/Toy-v0").max_episode_steps
    5
    >>> del registry["doc_ns/Toy-v0"]
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from types import ModuleType
from typing import Any, TypeAlias

import numpy as np

from reference import error, logger
from reference._narrowing import is_list_or_tuple, is_mapping
from reference.registration._env_spec import EnvCreator, EnvSpec, VectorEnvCreator, VectorizeMode, WrapperSpec
from reference.registration._ids import ENV_ID_RE, get_env_id, parse_env_id
from reference.registration._lookup import (
    find_highest_version,
    load_env_creator,
    pprint_registry,
    registry,
    spec,
)
from reference.registration._make import check_max_episode_steps, make, make_vec
from reference.utils._format import describe

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

_Kwargs: TypeAlias = dict[str, Any]

current_namespace: str | None = None
"""The namespace ``register`` puts ids into while inside a :func:`namespace` block (``None`` outside)."""


@contextlib.contextmanager
def namespace(ns: str) -> Generator[None, None, None]:
    """Register every id inside the ``with`` block under the namespace ``ns``.

    Args:
        ns: The namespace.

    Yields:
        Nothing; the previous namespace is restored on exit, even if the block raises.
    """
    global current_namespace
    previous = current_namespace
    current_namespace = ns
    try:
        yield
    finally:
        current_namespace = previous


def _check_versioning_conflict(new_spec: EnvSpec) -> None:
    same_name = [s for s in registry.values() if s.namespace == new_spec.namespace and s.name == new_spec.name]
    unversioned = next((s for s in same_name if s.version is None), None)
    versioned = [s for s in same_name if s.version is not None]
    if unversioned is not None and new_spec.version is not None:
        raise error.RegistrationError(
            f"Can't register the versioned environment `{new_spec.id}` when the unversioned environment "
            f"`{unversioned.id}` of the same name already exists."
        )
    if versioned and new_spec.version is None:
        latest = max(versioned, key=lambda s: s.version or 0)
        raise error.RegistrationError(
            f"Can't register the unversioned environment `{new_spec.id}` when the versioned environment "
            f"`{latest.id}` of the same name already exists. Note: the default behavior is that `make` with the "
            "unversioned environment will return the latest versioned environment"
        )


def _check_register_types(entry_point: object, vector_entry_point: object, *flags: object) -> None:
    for param, value in (("entry_point", entry_point), ("vector_entry_point", vector_entry_point)):
        if value is not None and not isinstance(value, str) and not callable(value):
            raise TypeError(f"register {param} must be a 'module:attr' str, a callable or None, got {describe(value)}")
    for param, flag in zip(("nondeterministic", "order_enforce", "disable_env_checker"), flags, strict=True):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"register {param} must be a bool, got {describe(flag)}")


def register(
    id: str,  # noqa: A002 - Gymnasium's public parameter name
    entry_point: EnvCreator | str | None = None,
    reward_threshold: float | None = None,
    nondeterministic: bool = False,
    max_episode_steps: int | None = None,
    order_enforce: bool = True,
    disable_env_checker: bool = False,
    additional_wrappers: tuple[WrapperSpec, ...] = (),
    vector_entry_point: VectorEnvCreator | str | None = None,
    kwargs: _Kwargs | None = None,
) -> None:
    """Register an environment id so that :func:`make` can create it.

    Re-registering an existing id replaces it (with a warning). Inside a :func:`namespace` block the id's own
    namespace is replaced by the block's.

    Args:
        id: ``[namespace/]name[-vVERSION]``.
        entry_point: ``"module:attr"`` or a callable creating the environment.
        reward_threshold: The return at which the task counts as solved.
        nondeterministic: Whether seeded runs may still differ.
        max_episode_steps: The ``TimeLimit`` ``make`` applies (``None``: none).
        order_enforce: Whether ``make`` applies ``OrderEnforcing``.
        disable_env_checker: Whether ``make`` leaves out ``PassiveEnvChecker``.
        additional_wrappers: Wrappers ``make`` applies after ``TimeLimit``.
        vector_entry_point: ``"module:attr"`` or a callable creating a native vector environment.
        kwargs: Constructor arguments (copied; the caller's dict is not kept).

    Raises:
        ValueError: If neither ``entry_point`` nor ``vector_entry_point`` is given, or ``max_episode_steps`` is
            not a positive int (at most ``2**63 - 1``).
        TypeError: If an argument has the wrong type (an entry point that is neither a str nor a callable, a
            flag that is not a bool, wrappers that are not WrapperSpecs, kwargs that are not a dict).
        Error: If the id is malformed (including a name that does not start with a letter, digit or ``_``).
        RegistrationError: If versioned and unversioned ids of the same name would coexist.
    """
    if entry_point is None and vector_entry_point is None:
        raise ValueError(
            f"register entry_point or vector_entry_point must be given, got neither for {id!r}"
        )
    check_max_episode_steps("register", max_episode_steps)
    ns, name, version = parse_env_id(id)
    if not name[0].isalnum() and name[0] != "_":
        # Gymnasium's grammar admits names such as "-v0" or "::", which no make call can tell from a version
        # suffix or a "module:" prefix.
        raise error.Error(
            f"Malformed environment ID: {id!r}. register id must have a name starting with a letter, digit or "
            f"'_', got the name {name!r}."
        )
    _check_register_types(entry_point, vector_entry_point, nondeterministic, order_enforce, disable_env_checker)
    if not (is_list_or_tuple(additional_wrappers) and all(isinstance(w, WrapperSpec) for w in additional_wrappers)):
        raise TypeError(f"register additional_wrappers must be a tuple of WrapperSpec, got {describe(additional_wrappers)}")
    if kwargs is not None and not is_mapping(kwargs):
        raise TypeError(f"register kwargs must be a dict or None, got {describe(kwargs)}")
    env_kwargs = {} if kwargs is None else dict(kwargs)
    if current_namespace is not None:
        custom = env_kwargs.get("namespace")
        if custom is not None and custom != current_namespace:
            logger.warn(
                f"Custom namespace `{custom}` is being overridden by namespace `{current_namespace}`. "
                "If you are developing a plugin you shouldn't specify a namespace in `register` calls."
            )
        ns = current_namespace

    new_spec = EnvSpec(
        id=get_env_id(ns, name, version),
        entry_point=entry_point,
        reward_threshold=reward_threshold,
        nondeterministic=nondeterministic,
        max_episode_steps=max_episode_steps,
        order_enforce=order_enforce,
        disable_env_checker=disable_env_checker,
        kwargs=env_kwargs,
        additional_wrappers=tuple(additional_wrappers),
        vector_entry_point=vector_entry_point,
    )
    _check_versioning_conflict(new_spec)
    if new_spec.id in registry:
        logger.warn(f"Overriding environment {new_spec.id} already in registry.")
    registry[new_spec.id] = new_spec


def register_envs(env_module: ModuleType) -> None:
    """Do nothing: calling it with an imported module tells linters and IDEs that the import is used.

    Args:
        env_module: The module whose import registered environments.
    """
    del env_module
