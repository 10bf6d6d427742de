"""Environment id grammar: ``[namespace/]name[-vVERSION]``.

The grammar and its quirks match Gymnasium's so ids round-trip between the two registries: ``"Name-v01"`` parses
to version 1 (and so does not round-trip through :func:`get_env_id`), ``"Env-v1.2"`` is the unversioned name
``Env-v1.2``, and a second ``/`` makes the id malformed.
"""

from __future__ import annotations

import re

from reference import error

__all__ = ["ENV_ID_RE", "get_env_id", "parse_env_id"]

ENV_ID_RE = re.compile(r"^(?:(?P<namespace>[\w:-]+)\/)?(?:(?P<name>[\w:.-]+?))(?:-v(?P<version>\d+))?$")
"""Regex an environment id must fully match; groups ``namespace``, ``name`` and ``version``."""


def parse_env_id(env_id: str) -> tuple[str | None, str, int | None]:
    """Split an environment id into its namespace, name and version.

    Args:
        env_id: An id of the form ``[namespace/]name[-vVERSION]``.

    Returns:
        ``(namespace, name, version)``; the namespace and the version are ``None`` when absent.

    Raises:
        Error: If the id does not match :data:`ENV_ID_RE`.
        TypeError: If the id is not a string.
    """
    if not isinstance(env_id, str):
        raise TypeError(f"Environment id must be a str, got {env_id!r} of type {type(env_id).__name__}")
    match = ENV_ID_RE.fullmatch(env_id)
    if match is None:
        raise error.Error(
            f"Malformed environment ID: {env_id!r}. Environment ids must be of the form "
            "[namespace/](env-name)[-v(version)], e.g. 'CartPole-v1' or 'my_ns/MyEnv-v0' (namespace and version "
            "are optional, and the name may not contain '/')."
        )
    namespace, name, version = match.group("namespace", "name", "version")
    return namespace, name, None if version is None else int(version)


def get_env_id(ns: str | None, name: str, version: int | None) -> str:
    """Join a namespace, name and version into an environment id (the inverse of :func:`parse_env_id`).

    Args:
        ns: The namespace, or ``None``.
        name: The environment name.
        version: The version number, or ``None``.

    Returns:
        The environment id, e.g. ``get_env_id("ns", "Env", 2) == "ns/Env-v2"``.
    """
    full_name = name if ns is None else f"{ns}/{name}"
    return full_name if version is None else f"{full_name}-v{version}"
