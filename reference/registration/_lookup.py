"""The global registry and the id lookups that explain, with suggestions, why an id cannot be found."""

from __future__ import annotations

import difflib
import importlib
import re
from collections import defaultdict

from reference import error, logger
from reference._narrowing import is_list_or_tuple, is_mapping
from reference.registration._env_spec import EnvCreator, EnvSpec, VectorEnvCreator
from reference.registration._ids import get_env_id, parse_env_id
from reference.utils._format import describe

__all__ = [
    "find_highest_version",
    "find_spec",
    "load_env_creator",
    "pprint_registry",
    "registry",
    "spec",
]

registry: dict[str, EnvSpec] = {}
"""Every registered spec by id. Mutated in place only (never rebound) so that re-exports stay live."""


def find_highest_version(ns: str | None, name: str) -> int | None:
    """Return the highest registered version of ``[ns/]name``.

    Args:
        ns: The namespace, or ``None``.
        name: The environment name.

    Returns:
        The highest version, or ``None`` if no versioned id of that name is registered.
    """
    return max(
        (s.version for s in registry.values() if s.namespace == ns and s.name == name and s.version is not None),
        default=None,
    )


def _check_namespace_exists(ns: str | None) -> None:
    if ns is None:
        return
    namespaces = {s.namespace for s in registry.values() if s.namespace is not None}
    if ns in namespaces:
        return
    suggestion = difflib.get_close_matches(ns, namespaces, n=1)
    hint = f"Did you mean: `{suggestion[0]}`?" if suggestion else f"Have you installed the proper package for {ns}?"
    raise error.NamespaceNotFound(f"Namespace {ns} not found. {hint}")


def _check_name_exists(ns: str | None, name: str) -> None:
    _check_namespace_exists(ns)
    names = {s.name for s in registry.values() if s.namespace == ns}
    if name in names:
        return
    suggestion = difflib.get_close_matches(name, names, n=1)
    where = f" in namespace {ns}" if ns else ""
    hint = f" Did you mean: `{suggestion[0]}`?" if suggestion else ""
    raise error.NameNotFound(f"Environment `{name}` doesn't exist{where}.{hint}")


def _check_version_exists(ns: str | None, name: str, version: int | None) -> None:
    """Raise the most specific lookup error for an id that is not registered.

    Raises:
        NamespaceNotFound: The namespace is unknown.
        NameNotFound: The name is unknown in its namespace.
        VersionNotFound: The version is newer than every registered one.
        DeprecatedEnv: The version is older than the registered ones, or only the unversioned id exists.
    """
    if get_env_id(ns, name, version) in registry:
        return
    _check_name_exists(ns, name)
    if version is None:
        return

    message = f"Environment version `v{version}` for environment `{get_env_id(ns, name, None)}` doesn't exist."
    same_name = sorted(
        (s for s in registry.values() if s.namespace == ns and s.name == name),
        key=lambda s: -1 if s.version is None else s.version,
    )
    unversioned = [s for s in same_name if s.version is None]
    if unversioned:
        message += f" It provides the default version `{unversioned[0].id}`."
        if len(same_name) == 1:
            raise error.DeprecatedEnv(message)

    latest = max((s.version for s in same_name if s.version is not None), default=None)
    if latest is not None and version > latest:
        versions = ", ".join(f"`v{s.version}`" for s in same_name)
        raise error.VersionNotFound(f"{message} It provides versioned environments: [ {versions} ].")
    if latest is not None and version < latest:
        raise error.DeprecatedEnv(
            f"Environment version v{version} for `{get_env_id(ns, name, None)}` is deprecated. "
            f"Please use `{get_env_id(ns, name, latest)}` instead."
        )


def find_spec(env_id: str) -> EnvSpec:
    """Resolve a (possibly ``"module:"``-prefixed, possibly unversioned) id to its registered spec.

    Args:
        env_id: ``[module:][namespace/]name[-vVERSION]``. The module is imported first so it can register the id.

    Returns:
        The spec; for an unversioned id of a versioned environment, the latest version's spec (with a warning).

    Raises:
        ValueError: If ``env_id`` has a ``:`` with no module name before it.
        ModuleNotFoundError: If the ``module:`` prefix cannot be imported.
        Error: If the id is malformed or not registered (a subclass names the reason).
    """
    module, sep, env_name = env_id.partition(":")
    if not sep:
        env_name = env_id
    else:
        if not module:
            raise ValueError(
                f"Environment id {env_id!r} must name a module before ':' ([module:][namespace/]name[-vVERSION]), "
                "got nothing before it"
            )
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            raise ModuleNotFoundError(
                f"{e}. Environment registration via importing a module failed. "
                f"Check whether '{module}' contains env registration and can be imported."
            ) from e

    env_spec = registry.get(env_name)
    ns, name, version = parse_env_id(env_name)
    latest = find_highest_version(ns, name)
    if version is not None and latest is not None and latest > version:
        logger.deprecation(
            f"The environment {env_name} is out of date. You should consider upgrading to version `v{latest}`."
        )
    if version is None and latest is not None:
        version = latest
        latest_id = get_env_id(ns, name, version)
        env_spec = registry.get(latest_id)
        logger.warn(f"Using the latest versioned environment `{latest_id}` instead of the unversioned environment `{env_name}`.")

    if env_spec is None:
        _check_version_exists(ns, name, version)
        raise error.Error(
            f"No registered env with id: {env_name}. Did you register it, or import the package that registers it? "
            "Use `pprint_registry()` to see all of the registered environments."
        )
    return env_spec


def spec(env_id: str) -> EnvSpec:
    """Return the registered spec for exactly ``env_id`` (no module import, no latest-version fallback).

    Args:
        env_id: ``[namespace/]name[-vVERSION]``.

    Returns:
        The registered spec (the registry's own object; copy it before mutating).

    Raises:
        TypeError: If ``env_id`` is not a str.
        Error: If the id is malformed or not registered (a subclass names the reason).
    """
    if not isinstance(env_id, str):
        raise TypeError(f"spec env_id must be a str, got {describe(env_id)}")
    env_spec = registry.get(env_id)
    if env_spec is None:
        ns, name, version = parse_env_id(env_id)
        _check_version_exists(ns, name, version)
        raise error.Error(f"No registered env with id: {env_id}")
    return env_spec


def load_env_creator(name: str) -> EnvCreator | VectorEnvCreator:
    """Import ``"module.path:attr"`` and return the attribute (usually an environment class).

    Args:
        name: The entry point, ``"module.path:attr"``.

    Returns:
        The object the entry point names.

    Raises:
        TypeError: If ``name`` is not a str.
        ValueError: If ``name`` is not of the form ``"module:attr"``.
        ModuleNotFoundError: If the module cannot be imported.
        AttributeError: If the module has no such attribute.
    """
    if not isinstance(name, str):
        raise TypeError(f"load_env_creator name must be a 'module.path:attr' str, got {describe(name)}")
    mod_name, sep, attr_name = name.partition(":")
    if not sep or not mod_name or not attr_name or ":" in attr_name:
        raise ValueError(f"Entry point must be of the form 'module.path:attr', got {name!r}")
    module = importlib.import_module(mod_name)
    try:
        creator: EnvCreator = getattr(module, attr_name)
    except AttributeError as e:
        raise AttributeError(f"Entry point {name!r} names no attribute {attr_name!r} in module {mod_name!r}") from e
    return creator


def _display_namespace(env_spec: EnvSpec) -> str:
    """Group un-namespaced specs by the package their entry point lives in (e.g. ``classic_control``).

    A callable entry point names no package: such specs are grouped under ``None``, as Gymnasium prints them.
    """
    if env_spec.namespace is not None:
        return env_spec.namespace
    if not isinstance(env_spec.entry_point, str):
        return "None"
    parts = re.sub(r":\w+", "", env_spec.entry_point).split(".")
    if len(parts) >= 3:
        return parts[2]
    if len(parts) > 1:
        return parts[1]
    return env_spec.name


def pprint_registry(
    print_registry: dict[str, EnvSpec] = registry,
    *,
    num_cols: int = 3,
    exclude_namespaces: list[str] | None = None,
    disable_print: bool = False,
) -> str | None:
    """Print the registered ids grouped by namespace, in ``num_cols`` columns (the same layout as Gymnasium's).

    Args:
        print_registry: The registry to print.
        num_cols: Number of columns per row.
        exclude_namespaces: Namespaces to leave out.
        disable_print: Return the text instead of printing it.

    Returns:
        The text if ``disable_print``, else ``None``.

    Raises:
        ValueError: If ``num_cols`` is not a positive integer.
        TypeError: If ``print_registry`` is not a dict of EnvSpecs, ``exclude_namespaces`` not a list of str or
            ``disable_print`` not a bool.
    """
    if isinstance(num_cols, bool) or not isinstance(num_cols, int) or num_cols < 1:
        raise ValueError(f"pprint_registry num_cols must be a positive int, got {num_cols!r}")
    if not (is_mapping(print_registry) and all(isinstance(s, EnvSpec) for s in print_registry.values())):
        raise TypeError(f"pprint_registry print_registry must be a dict of EnvSpec, got {describe(print_registry)}")
    if exclude_namespaces is not None and not (
        is_list_or_tuple(exclude_namespaces) and all(isinstance(ns, str) for ns in exclude_namespaces)
    ):
        raise TypeError(
            f"pprint_registry exclude_namespaces must be a list of str or None, got {describe(exclude_namespaces)}"
        )
    if not isinstance(disable_print, bool):
        raise TypeError(f"pprint_registry disable_print must be a bool, got {describe(disable_print)}")
    grouped: dict[str, list[str]] = defaultdict(list)
    width = 0
    for env_spec in print_registry.values():
        grouped[_display_namespace(env_spec)].append(env_spec.id)
        width = max(width, len(env_spec.name))

    blocks: list[str] = []
    for ns, env_ids in grouped.items():
        if exclude_namespaces is not None and ns in exclude_namespaces:
            continue
        block = f"{'=' * 5} {ns} {'=' * 5}\n"
        for count, env_id in enumerate(sorted(env_ids), 1):
            block += env_id.ljust(width) + " "
            if count % num_cols == 0:
                block = block.rstrip(" ")
                if count != len(env_ids):
                    block += "\n"
        blocks.append(block.rstrip(" "))

    output = "\n".join(blocks)
    if disable_print:
        return output
    print(output)
    return None
