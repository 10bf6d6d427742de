"""The suite's option names and the small helpers the plugin needs before any target is touched.

Kept free of NumPy, Hypothesis and the target machinery, because the plugin imports it in every pytest run.
"""

from __future__ import annotations

import fnmatch
import importlib
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conformance._engine.evidence import Floor
    from conformance._engine.project import ProjectTable
    from conformance._engine.targets import Target

__all__ = [
    "CaseParam",
    "ENV_VAR",
    "FLAG_OPTIONS",
    "LIST_OPTIONS",
    "OPTION_HELP",
    "OPTION_NAMES",
    "PROJECT_KEY",
    "SUITE_MODULES",
    "TARGET_OPTIONS",
    "classify",
    "flag",
    "item_param",
    "module_needed",
    "option",
    "rule_areas",
    "rule_selected",
    "rules_match",
    "rules_select_any",
    "targets_given",
]

ENV_VAR = "CONFORMANCE_ENV"

_ATTR_PATH = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")

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
    "budget": "conformance_budget",
    "rules": "conformance_rules",
    "timeout": "conformance_timeout",
    "memory": "conformance_memory",
    "isolation": "conformance_isolation",
    "jobs": "conformance_jobs",
    "shard": "conformance_shard",
    "project": "conformance_project",
    "baseline": "conformance_baseline",
    "write_baseline": "conformance_write_baseline",
    "strict_baseline": "conformance_baseline_strict",
    "html": "conformance_html",
    "badge": "conformance_badge",
}
"""Option name → its destination and ini key (they are the same string)."""

LIST_OPTIONS = frozenset({"env", "env_id", "vector_env", "vector_env_id", "func_env"})
FLAG_OPTIONS = frozenset({"strict_baseline"})
"""Options that take no value (``store_true``)."""

TARGET_OPTIONS: tuple[str, ...] = (
    "env",
    "env_id",
    "vector_env",
    "vector_env_id",
    "vectorization_mode",
    "func_env",
    "registry",
    "env_kwargs",
)
"""The options that choose targets and how they are built (``python -m conformance`` forwards these as they are)."""

OPTION_HELP: dict[str, tuple[str, str]] = {
    "env": ("pkg.mod:attr", "an Env class or factory to check (repeatable); also CONFORMANCE_ENV"),
    "env_id": (
        "[module:]ID",
        "a registered env id, made with --registry's make (repeatable); a glob (ALE/*, '*') checks every matching id",
    ),
    "registry": (
        "NAME|MODULE",
        "whose make/make_vec resolve ids: reference, gymnasium or the path of a module defining them "
        "(default: reference)",
    ),
    "env_kwargs": ("JSON", "keyword arguments for every env construction, as a JSON object"),
    "vector_env": ("pkg.mod:attr", "a VectorEnv factory, called with num_envs=N (repeatable)"),
    "vector_env_id": ("[module:]ID", "a registered id (or a glob of ids), made with make_vec (repeatable)"),
    "vectorization_mode": ("sync|async|vector_entry_point", "make_vec's vectorization_mode for --vector-env-id"),
    "func_env": ("pkg.mod:attr", "a FuncEnv instance factory (repeatable)"),
    "report": ("PATH", "write the JSON report of the run to PATH"),
    "profile": ("quick|default|thorough", "Hypothesis budget: examples per rule and steps per rollout"),
    "budget": (
        "SECONDS",
        "seconds of target time (constructions, resets, steps) a target's items may spend in all (default: the "
        "profile's, 10 quick, 30 default, 300 thorough); a costly target gets fewer examples within it, never less "
        "evidence than each rule's floor, and an item that could not reach its floor is not checked",
    ),
    "rules": ("GLOB[,!GLOB]", "run only rules whose id matches; '!' excludes, e.g. 'SEED-*' or '!VEC-002'"),
    "timeout": (
        "SECONDS",
        "how long a cheap call into a target may take before it counts as hung (default 10); the first call of "
        "each kind in a process may take 6 times as long, and a kind measured as slower 3 times its cost",
    ),
    "memory": (
        "SIZE",
        "resident memory one item may hold before it fails, e.g. 2GiB or 512MiB; 0 for no cap "
        "(default: 4GiB or half the machine's memory, whichever is less)",
    ),
    "shard": (
        "I/N",
        "check only shard I of N (1 <= I <= N): every N-th target in id order, for splitting a registry sweep "
        "across CI jobs",
    ),
    "jobs": (
        "N|auto",
        "how many supervised processes run items at once (default auto: the usable CPUs shared among the "
        "pytest-xdist workers that have a target, at most 4; each process has its own --conformance-memory cap)",
    ),
    "project": (
        "PATH|none",
        "the pyproject.toml whose [tool.conformance] table configures the run (default: the nearest one at or above "
        "the current directory; none: no table)",
    ),
    "baseline": ("FILE", "accepted findings (JSON, each with a reason): they are reported as accepted, not failed"),
    "write_baseline": ("FILE", "write the run's findings as a baseline to FILE (fill in each reason before use)"),
    "strict_baseline": ("", "fail the run when a baseline entry's finding no longer occurs (keeps the baseline tight)"),
    "html": ("PATH", "write a self-contained HTML report (rule tables, failures, reproducers, rendered frames)"),
    "badge": ("PATH", "write an SVG status badge of the run"),
    "isolation": (
        "auto|fork|spawn|thread",
        "run each item in a supervised process forked from one that probed the target (fork), or that imports and "
        "probes the target anew (spawn: for targets unsafe to fork, e.g. JAX, torch, OpenGL), or in this process "
        "with a per-call watchdog thread (thread: weaker, a crash ends the run); default auto: fork, or spawn for a "
        "target found unsafe to fork (the summary says why)",
    ),
}
"""Option name → (metavar, help text)."""

_FLAGS = {
    "report": "--conformance-report",
    "profile": "--conformance-profile",
    "budget": "--conformance-budget",
    "timeout": "--conformance-timeout",
    "memory": "--conformance-memory",
    "isolation": "--conformance-isolation",
    "jobs": "--conformance-jobs",
    "shard": "--conformance-shard",
    "project": "--conformance-project",
    "baseline": "--conformance-baseline",
    "write_baseline": "--conformance-write-baseline",
    "strict_baseline": "--conformance-baseline-strict",
    "html": "--conformance-html",
    "badge": "--conformance-badge",
}


def flag(name: str) -> str:
    """The command-line flag of an option, e.g. ``"--env-id"`` or ``"--conformance-profile"``."""
    return _FLAGS.get(name, "--" + name.replace("_", "-"))


def classify(target: str) -> tuple[str, str]:
    """Tell a factory path from an env id.

    Args:
        target: What the user typed.

    Returns:
        ``("--env", target)`` or ``("--env-id", target)``.
    """
    if not _ATTR_PATH.match(target):
        return "--env-id", target
    module_name, _, attr_path = target.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
        for part in attr_path.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        return "--env-id", target
    return ("--env", target) if callable(obj) else ("--env-id", target)


PROJECT_KEY = pytest.StashKey["ProjectTable | None"]()
"""Where the plugin keeps the run's ``[tool.conformance]`` table (:mod:`conformance._engine.project`)."""


def targets_given(config: pytest.Config) -> bool:
    """Whether a target was named on the command line or in ``CONFORMANCE_ENV`` (they replace the table's)."""
    named = (config.getoption(OPTION_NAMES[name], default=None) for name in LIST_OPTIONS)
    return any(value not in (None, []) for value in named) or bool(os.environ.get(ENV_VAR))


def option(config: pytest.Config, name: str) -> Any:
    """An option's value: the command line wins over the project's ``[tool.conformance]`` table, which wins over the
    ini file; ``None``/``[]`` when none sets it."""
    key = OPTION_NAMES[name]
    value = config.getoption(key, default=None)
    if value not in (None, [], False):
        return value
    table = config.stash.get(PROJECT_KEY, None)
    if table is not None:
        from_table = table.get(name, targets_given=targets_given(config))
        if from_table is not None:
            return from_table
    ini = config.getini(key)
    if name in FLAG_OPTIONS:
        return bool(ini)
    if name in LIST_OPTIONS:
        return list(ini or [])
    return ini or None


def rules_match(patterns: str, rule_id: str) -> bool:
    """Whether comma-separated globs select ``rule_id``: ``!GLOB`` excludes, plain globs include.

    With only exclusions every other rule stays selected (``'!VEC-002'`` is "all but VEC-002"); an exclusion wins
    over an inclusion (``'VEC-*,!VEC-002'``).

    Matching ignores case (``'seed-*'`` is ``'SEED-*'``).

    Args:
        patterns: The ``--rules`` value, e.g. ``"SEED-*,ENV-00[1-3],!SEED-011"``.
        rule_id: A rule id such as ``"SEED-004"``.

    Returns:
        Whether the rule runs.
    """
    # Rule ids are upper case; globs are matched case-insensitively so 'env-*' means what it says.
    globs = [pattern.strip().upper() for pattern in patterns.split(",") if pattern.strip()]
    excluded = [glob[1:].strip() for glob in globs if glob.startswith("!")]
    included = [glob for glob in globs if not glob.startswith("!")]
    rule_id = rule_id.upper()
    if any(fnmatch.fnmatchcase(rule_id, glob) for glob in excluded):
        return False
    return not included or any(fnmatch.fnmatchcase(rule_id, glob) for glob in included)


def rules_select_any(patterns: str) -> bool:
    """Whether ``--rules`` selects at least one rule of the catalog."""
    from gymspec.rules import RULES  # late: keeps this module free of NumPy, which the catalog imports

    return any(rules_match(patterns, rule_id) for rule_id in RULES)


def rule_areas() -> list[str]:
    """The rule areas of the catalog (id prefixes), in catalog order."""
    from gymspec.rules import RULES  # late: see rules_select_any

    return list(dict.fromkeys(rule_id.split("-")[0] for rule_id in RULES))


def rule_selected(config: pytest.Config, rule_id: str) -> bool:
    """Whether ``--rules`` (see :func:`rules_match`) selects ``rule_id``; everything is selected without it."""
    patterns = option(config, "rules")
    return not patterns or rules_match(patterns, rule_id)


SUITE_MODULES: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "test_autoreset.py": (frozenset({"vector"}), ("AUTORESET-*",)),
    "test_env.py": (frozenset({"env"}), ("ENV-00?", "ENV-01?", "ENV-020", "ENV-021")),
    "test_env_attributes.py": (frozenset({"env"}), ("ENV-025", "ENV-026")),
    "test_episodes.py": (frozenset({"env"}), ("ENV-022", "ENV-023", "ENV-024", "ENV-027")),
    "test_functional.py": (frozenset({"func"}), ("FUNC-*",)),
    "test_instances.py": (frozenset({"env"}), ("ENV-030", "SEED-009")),
    "test_registry.py": (frozenset({"env", "vector"}), ("REG-*",)),
    "test_render.py": (frozenset({"env"}), ("RENDER-*",)),
    "test_seeding.py": (frozenset({"env"}), ("ENV-031", "SEED-*")),
    "test_space.py": (frozenset({"env"}), ("SPACE-*",)),
    "test_vector.py": (frozenset({"vector"}), ("VEC-*",)),
    "test_wrapper.py": (frozenset({"env"}), ("WRAP-*",)),
}
"""The suite's rule modules: the target kinds each has items for, and globs of the rule ids it checks (a test keeps
them in step with the modules' markers). A run whose targets and ``--rules`` need none of a module's items does not
import it (:func:`module_needed`); the construction check (``test_target.py``) is always collected."""


def module_needed(name: str, kinds: Iterable[str], selected: Iterable[str]) -> bool:
    """Whether the suite module ``name`` has items for targets of ``kinds`` and the ``selected`` rule ids (a module
    the table does not know is always needed)."""
    found = SUITE_MODULES.get(name)
    if found is None:
        return True
    module_kinds, patterns = found
    if module_kinds.isdisjoint(kinds):
        return False
    return any(fnmatch.fnmatchcase(rule_id, pattern) for rule_id in selected for pattern in patterns)


@dataclass(frozen=True)
class CaseParam:
    """The parameter of one item: a rule (``None`` for the construction check) and a target."""

    rule_id: str | None
    target: Target
    owns: tuple[str, ...] = ()
    floor: Floor | None = None
    """The least evidence the rule needs to be judged (its check's declaration)."""

    def __repr__(self) -> str:
        return f"{self.rule_id or 'construct'}-{self.target.id}"


def item_param(item: pytest.Item) -> CaseParam | None:
    """The (rule, target) parameter of a conformance item (``None`` for any other item)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    param = callspec.params.get("conformance_case", callspec.params.get("conformance_target"))
    return param if isinstance(param, CaseParam) else None
