"""Registry sweeps: ``--env-id 'ale_py:ALE/*'`` checks every registered id matching a glob.

Expanding a glob means importing the module that registers the ids and every entry point it names — target code —
so under process isolation it runs in a supervised child (:func:`expand`), never in the pytest process: a package
whose import hangs or crashes is a usage error naming it, not a dead run. An id whose entry point cannot be imported
becomes a target with the reason (its construction check skips with it), so a sweep reports what it left out.
"""

from __future__ import annotations

import fnmatch
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from conformance._engine.describe import is_dict, is_mapping
from conformance._engine.messages import Finished
from conformance._engine.processes import tracked
from conformance._engine.supervisor import Supervisor
from conformance._engine.zygote import Job

__all__ = ["Match", "expand", "is_glob", "list_ids", "list_or_error", "ready"]

_GLOB = frozenset("*?[")
_IMPORT_LIMIT = 120.0  # seconds an import may take (heavy packages import slowly on a busy machine)


def is_glob(env_id: str) -> bool:
    """Whether an id is a pattern (``*``, ``?`` or ``[...]``)."""
    return any(char in _GLOB for char in env_id)


@dataclass(frozen=True)
class Match:
    """A registered id matching a sweep, and why it cannot be made (``""`` when it can)."""

    env_id: str
    unavailable: str = ""


def _registry(registry_path: str) -> Mapping[str, Any]:
    module = importlib.import_module(registry_path)
    found = getattr(module, "registry", None)
    if not is_mapping(found):
        raise LookupError(
            f"--registry {registry_path!r} must have a `registry` mapping of ids to specs to expand a glob against"
        )
    return found


def _entry_problem(spec: Any, vector: bool) -> str:
    entry = getattr(spec, "vector_entry_point", None) if vector else None
    entry = entry or getattr(spec, "entry_point", None)
    if entry is None:
        return "it has no entry point"
    if callable(entry) or not isinstance(entry, str):
        return ""
    module_name, _, attr = entry.partition(":")
    try:
        obj: Any = tracked(
            f"import {module_name}", lambda: importlib.import_module(module_name), "import", _IMPORT_LIMIT
        )
        for part in attr.split("."):
            obj = getattr(obj, part)
    except Exception as exc:  # noqa: BLE001 - whatever stops the import is the reason the id is left out
        return f"its entry point {entry!r} cannot be imported ({type(exc).__name__}: {exc})"
    return ""


def list_ids(payload: Mapping[str, Any]) -> list[dict[str, str]]:
    """Job: the ids of ``payload["registry"]`` matching ``payload["pattern"]``, after importing ``module``.

    Returns:
        ``[{"id": ..., "unavailable": reason or ""}, ...]`` sorted by id.
    """
    module = payload.get("module")
    if module:
        tracked(f"import {module}", lambda: importlib.import_module(str(module)), "import", _IMPORT_LIMIT)
    registry = _registry(str(payload["registry"]))
    pattern = str(payload["pattern"])
    vector = bool(payload.get("vector"))
    ids = sorted(env_id for env_id in list(registry) if fnmatch.fnmatchcase(env_id, pattern))
    return [{"id": env_id, "unavailable": _entry_problem(registry[env_id], vector)} for env_id in ids]


def expand(
    registry_path: str, module: str | None, pattern: str, *, vector: bool, isolated: bool, timeout: float
) -> list[Match]:
    """The registered ids matching ``pattern``.

    Args:
        registry_path: The module whose ``registry`` is searched.
        module: A module to import first (the ``module:`` prefix of the id), or ``None``.
        pattern: An fnmatch pattern over ids.
        vector: Whether the targets are vector envs (their vector entry point is checked first).
        isolated: Whether to import in a supervised child process.
        timeout: The run's per-call timeout.

    Raises:
        LookupError: If the sweep cannot run (an import fails, hangs or crashes; the registry has no mapping).
    """
    payload = {"registry": registry_path, "module": module, "pattern": pattern, "vector": vector}
    if not isolated:
        rows = list_ids(payload)
    else:
        supervisor = Supervisor(timeout, 0)
        try:
            outcome = supervisor.run(
                f"sweep:{registry_path}:{module}",
                Job.of(ready),
                Job.of(list_or_error, payload),
            )
        finally:
            supervisor.close()
        if not isinstance(outcome, Finished):
            board = outcome.board
            raise LookupError(f"expanding {pattern!r} stopped in {board.label or 'an import'}: {outcome}")
        if is_dict(outcome.value):
            raise LookupError(str(outcome.value["error"]))
        rows = outcome.value
    return [Match(row["id"], row["unavailable"]) for row in rows]


def ready(payload: Mapping[str, Any]) -> None:
    """Zygote warm-up of a sweep: nothing (the job imports what it needs)."""
    del payload


def list_or_error(payload: Mapping[str, Any]) -> Any:
    """The sweep's job: :func:`list_ids`' rows, or ``{"error": ...}`` saying why it could not list them."""
    try:
        return list_ids(payload)
    except Exception as exc:  # noqa: BLE001 - reported as the usage error it is
        return {"error": f"{type(exc).__name__}: {exc}"}

