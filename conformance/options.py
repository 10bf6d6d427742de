"""The suite's option names and the small helpers the plugin needs before any target is touched.

Kept free of NumPy, Hypothesis and the target machinery, because the plugin imports it in every pytest run.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conformance.targets import Target

__all__ = ["CaseParam", "ENV_VAR", "LIST_OPTIONS", "OPTION_NAMES", "option", "rule_selected"]

ENV_VAR = "CONFORMANCE_ENV"

OPTION_NAMES: dict[str, str] = {
    "env": "conformance_env",
    "env_id": "conformance_env_id",
    "registry": "conformance_registry",
    "env_kwargs": "conformance_env_kwargs",
    "vector_env": "conformance_vector_env",
    "vector_env_id": "conformance_vector_env_id",
    "vectorization_mode": "conformance_vectorization_mode",
    "func_env": "conformance_func_env",
    "report": "conformance_report",
    "profile": "conformance_profile",
    "rules": "conformance_rules",
    "timeout": "conformance_timeout",
}
"""Option name → its destination and ini key (they are the same string)."""

LIST_OPTIONS = frozenset({"env", "env_id", "vector_env", "vector_env_id", "func_env"})


def option(config: pytest.Config, name: str) -> Any:
    """An option's value: the command line wins over the ini file; ``None``/``[]`` when neither sets it."""
    key = OPTION_NAMES[name]
    value = config.getoption(key, default=None)
    if value not in (None, []):
        return value
    ini = config.getini(key)
    if name in LIST_OPTIONS:
        return list(ini or [])
    return ini or None


def rule_selected(config: pytest.Config, rule_id: str) -> bool:
    """Whether ``--rules`` (comma-separated globs) selects ``rule_id``; everything is selected without it."""
    patterns = option(config, "rules")
    if not patterns:
        return True
    return any(fnmatch.fnmatchcase(rule_id, pattern.strip()) for pattern in patterns.split(",") if pattern.strip())


@dataclass(frozen=True)
class CaseParam:
    """The parameter of one item: a rule (``None`` for the construction check) and a target."""

    rule_id: str | None
    target: Target
    owns: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"{self.rule_id or 'construct'}-{self.target.id}"
