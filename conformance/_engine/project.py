"""The project's own configuration: the ``[tool.conformance]`` table of its ``pyproject.toml``.

An env package that adopts the suite writes its targets and choices once::

    [tool.conformance]
    env = ["mypkg.envs:GridEnv"]          # the same names as the command-line options, '-' or '_'
    env-id = ["mypkg:Grid-v0"]
    env-kwargs = {size = 5}               # a table, not JSON text
    profile = "quick"
    rules = ["!RENDER-003"]               # a glob string or a list of globs
    timeout = 20
    baseline = "conformance-baseline.json"

and ``pytest --pyargs conformance`` in the project checks them with no flags. A command-line option overrides its key;
any target given on the command line (or in ``CONFORMANCE_ENV``) replaces every target of the table, so
``--env other:Env`` checks that env alone. Relative paths in the table are relative to the ``pyproject.toml``.

The table is read only when the run collects the suite, so a project's own test runs never import its targets here;
``conformance.check_env`` runs the suite with ``--conformance-project none`` and is never configured by the table.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

from conformance._engine.narrowing import is_dict, is_list

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from the package index (the conformance extra installs it there)
    import tomli as tomllib

__all__ = ["KEYS", "PATH_KEYS", "ProjectTable", "ProjectTableError", "find_pyproject", "read_table"]

_Value: TypeAlias = "str | list[str]"

# Keys of the table beyond the run options: paths, and the baseline's strictness.
PATH_KEYS = frozenset({"report", "baseline", "write_baseline", "html", "badge"})
_STRINGS = frozenset({"registry", "vectorization_mode", "profile", "isolation", "shard", "memory", "jobs"})
_NUMBERS = frozenset({"timeout", "memory", "jobs"})
_BOOLEANS = frozenset({"strict_baseline"})
_LISTS = frozenset({"env", "env_id", "vector_env", "vector_env_id", "func_env"})
_TARGETS = _LISTS | {"registry", "env_kwargs", "vectorization_mode"}
KEYS = _STRINGS | _NUMBERS | _BOOLEANS | _LISTS | PATH_KEYS | {"env_kwargs", "rules"}
"""Every key the table may hold (in the ``_`` form; ``-`` is read as ``_``)."""


class ProjectTableError(ValueError):
    """The ``[tool.conformance]`` table is malformed (the message is one line naming the key)."""


@dataclass(frozen=True)
class ProjectTable:
    """The table's values as option text, keyed by option name.

    Attributes:
        path: The ``pyproject.toml`` it was read from.
        values: Option name → the value as the command line would give it (a list for repeatable options).
    """

    path: Path
    values: Mapping[str, _Value] = field(default_factory=dict[str, _Value])

    def get(self, name: str, *, targets_given: bool) -> _Value | None:
        """The table's value for option ``name`` (``None`` when the table does not set it, or when it is a target
        option and targets were given elsewhere)."""
        if targets_given and name in _TARGETS:
            return None
        return self.values.get(name)

    def where(self, name: str) -> str:
        """How an error names a key: ``[tool.conformance] key 'profile' in /path/pyproject.toml``."""
        return f"[tool.conformance] key {name.replace('_', '-')!r} in {self.path}"


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above ``start`` (the project root a user runs pytest in)."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def _fail(path: Path, key: str, expectation: str, got: object) -> ProjectTableError:
    return ProjectTableError(
        f"[tool.conformance] key {key!r} in {path} must be {expectation}, got {got!r}"
    )


def _text(path: Path, key: str, value: object) -> str:
    number = key.replace("-", "_") in _NUMBERS
    expectation = "a non-empty string" + (" or a number" if number else "")
    if number and isinstance(value, (int, float)) and not isinstance(value, bool):  # a TOML boolean is no number
        return str(value)
    if isinstance(value, str) and value.strip():
        return value
    raise _fail(path, key, expectation, value)


def _strings(path: Path, key: str, value: object) -> list[str]:
    items: object = [value] if isinstance(value, str) else value
    if not is_list(items) or not items or not all(isinstance(i, str) and i.strip() for i in items):
        raise _fail(path, key, "a non-empty string or a list of non-empty strings", value)
    return [str(item) for item in items]


def _parse(path: Path, table: Mapping[str, object]) -> dict[str, _Value]:
    values: dict[str, _Value] = {}
    for key, value in table.items():
        name = key.replace("-", "_")
        if name not in KEYS:
            known = ", ".join(sorted(k.replace("_", "-") for k in KEYS))
            raise ProjectTableError(f"[tool.conformance] key {key!r} in {path} is not a conformance setting; "
                                    f"the keys are: {known}")
        if name in _LISTS:
            values[name] = _strings(path, key, value)
        elif name == "rules":
            values[name] = ",".join(_strings(path, key, value))
        elif name == "env_kwargs":
            if not is_dict(value):
                raise _fail(path, key, "a table of keyword arguments, e.g. env-kwargs = {size = 5}", value)
            values[name] = json.dumps(value)
        elif name in _BOOLEANS:
            if not isinstance(value, bool):
                raise _fail(path, key, "true or false", value)
            values[name] = "1" if value else ""
        elif name in PATH_KEYS:
            values[name] = str(path.parent / _text(path, key, value))
        else:
            values[name] = _text(path, key, value)
    return values


def read_table(path: Path) -> ProjectTable | None:
    """Read the ``[tool.conformance]`` table of ``path`` (``None`` when it has none).

    Raises:
        ProjectTableError: If the file is not TOML, or the table has an unknown key or a value of the wrong type.
    """
    try:
        data: dict[str, Any] = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ProjectTableError(f"{path} must be a readable TOML file for its [tool.conformance] table, "
                                f"got {type(exc).__name__}: {exc}") from None
    tool: object = data.get("tool", {})
    table: object = tool.get("conformance") if is_dict(tool) else None
    if table is None:
        return None
    if not is_dict(table):
        raise ProjectTableError(f"[tool.conformance] in {path} must be a table, got {table!r}")
    return ProjectTable(path, _parse(path, {str(key): value for key, value in table.items()}))
