"""Adoption: a project's own configuration (its ``[tool.conformance]`` table) and its baseline of accepted findings.

**Project table.** The project's own configuration: the ``[tool.conformance]`` table of its ``pyproject.toml``.

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

**Baselines.** Baselines: the findings a project has accepted, each with the reason, so a run fails only on new ones.

A baseline file is JSON::

    {"schema": 1, "accepted": [
        {"target": "mypkg.envs:GridEnv", "rule": "SEED-008", "fingerprint": "5d41402abc4b",
         "reason": "episodes draw from np.random until 2.0 (issue #12)",
         "finding": "SEED-008 (MUST) violated by mypkg.envs:GridEnv: ..."}]}

``--conformance-write-baseline FILE`` writes one from a run's findings with empty reasons; every reason must be
filled in before the file is used (``--conformance-baseline FILE`` or the ``baseline`` key of ``[tool.conformance]``).

A finding is a failed, warned or errored item. Its *fingerprint* hashes the rule, the target and the first line of
its message with every number and quoted value masked, so the same defect found through another drawn example (a
different seed, index or value) keeps its fingerprint, while a different problem of the same rule does not. An
accepted finding is reported as accepted (pytest's ``xfailed``), a finding not in the baseline fails as usual, and
an entry whose item ran and no longer has that finding is *fixed*: reported in the summary, and a failure under
``--conformance-baseline-strict`` so the baseline stays tight.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

import pytest

from conformance._engine.describe import is_dict, is_list
from conformance.results import RuleResult

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from the package index (the conformance extra installs it there)
    import tomli as tomllib

__all__ = [
    "KEYS",
    "PATH_KEYS",
    "Baseline",
    "BaselineError",
    "Entry",
    "ProjectTable",
    "ProjectTableError",
    "find_pyproject",
    "fingerprint",
    "read_table",
    "write_baseline",
]


# --- Project table -------------------------------------------------------------------------------------------------

_Value: TypeAlias = "str | list[str]"

# Keys of the table beyond the run options: paths, and the baseline's strictness.
PATH_KEYS = frozenset({"report", "baseline", "write_baseline", "html", "badge"})
_STRINGS = frozenset({"registry", "vectorization_mode", "profile", "isolation", "shard", "memory", "jobs"})
_NUMBERS = frozenset({"timeout", "budget", "memory", "jobs"})
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


# --- Baselines -----------------------------------------------------------------------------------------------------

SCHEMA = 1
_FINDINGS = ("failed", "warned", "error", "accepted")
# Numbers (ints, floats, exponents, hex), quoted values and object addresses vary with the example drawn.
_VARYING = re.compile(
    r"""0x[0-9a-fA-F]+|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|'[^']*'|"[^"]*"|<[^<>]*\bat\b[^<>]*>"""
)
_RUNS = re.compile(r"#(?:[\s,;:]*#)+")


class BaselineError(ValueError):
    """A baseline file cannot be used (the message names the file and the entry)."""


def _headline(message: str, rule: str, target: str) -> str:
    first = message.splitlines()[0] if message else ""
    # "RULE (LEVEL) violated by TARGET: problem" -> "problem": the rule and target are hashed on their own.
    prefix = re.match(rf"{re.escape(rule)}\s*\([A-Z ]+\)\s*(?:violated by|\[)?\s*{re.escape(target)}\]?:?\s*", first)
    return first[prefix.end():] if prefix else first


def fingerprint(rule: str, target: str, message: str) -> str:
    """A stable 12-hex-digit id of a finding: the rule, the target and the masked first line of its message."""
    shape = _RUNS.sub("#", _VARYING.sub("#", _headline(message, rule, target))).strip()
    return hashlib.sha256(f"{rule}\n{target}\n{shape}".encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Entry:
    """One accepted finding.

    Attributes:
        target: The target id.
        rule: The rule id.
        fingerprint: :func:`fingerprint` of the finding.
        reason: Why it is accepted (required).
        finding: The finding's first line when it was accepted (for readers; not matched).
    """

    target: str
    rule: str
    fingerprint: str
    reason: str
    finding: str = ""

    def to_dict(self) -> dict[str, str]:
        """The entry as the file stores it."""
        return {"target": self.target, "rule": self.rule, "fingerprint": self.fingerprint, "reason": self.reason,
                "finding": self.finding}


def _entry(path: Path, index: int, raw: object) -> Entry:
    where = f"conformance baseline {path} entry {index}"
    if not is_dict(raw):
        raise BaselineError(f"{where} must be an object with target, rule, fingerprint and reason, got {raw!r}")
    fields: dict[str, object] = {key: raw.get(key) for key in ("target", "rule", "fingerprint", "reason")}
    missing = [key for key, value in fields.items() if key != "reason" and not (isinstance(value, str) and value)]
    if missing:
        raise BaselineError(f"{where} must have non-empty string {', '.join(missing)}, got {raw!r}")
    reason = fields["reason"]
    if not isinstance(reason, str) or not reason.strip():
        raise BaselineError(
            f"{where} ({fields['rule']} on {fields['target']}) must have a reason, got {reason!r}: say why the "
            "finding is accepted (a link to the issue that tracks it is a good reason)"
        )
    finding: object = raw.get("finding", "")
    return Entry(str(fields["target"]), str(fields["rule"]), str(fields["fingerprint"]), reason.strip(),
                 finding if isinstance(finding, str) else "")


@dataclass(frozen=True)
class Baseline:
    """The accepted findings of one file.

    Attributes:
        path: The file.
        entries: Its entries, in file order.
    """

    path: Path
    entries: tuple[Entry, ...]

    @classmethod
    def load(cls, path: str | Path) -> Baseline:
        """Read a baseline file.

        Raises:
            BaselineError: If the file is missing, not JSON, of another schema, or an entry is malformed or has
                no reason.
        """
        file = Path(path)
        try:
            data: object = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise BaselineError(
                f"conformance baseline must be a readable JSON file, got {type(exc).__name__} for {file}: {exc}; "
                "write one with --conformance-write-baseline FILE"
            ) from None
        accepted = data.get("accepted") if is_dict(data) else None
        if not is_dict(data) or data.get("schema") != SCHEMA or not is_list(accepted):
            keys = sorted(map(str, data)) if is_dict(data) else []
            raise BaselineError(
                f"conformance baseline {file} must be {{\"schema\": {SCHEMA}, \"accepted\": [...]}}, got "
                f"{type(data).__name__} with keys {keys!r}"
            )
        return cls(file, tuple(_entry(file, index, raw) for index, raw in enumerate(accepted)))

    def accepting(self, target: str, rule: str, message: str) -> Entry | None:
        """The entry that accepts this finding, if any."""
        found = fingerprint(rule, target, message)
        return next((e for e in self.entries if (e.target, e.rule, e.fingerprint) == (target, rule, found)), None)

    def accept(self, report: pytest.TestReport, record: RuleResult) -> RuleResult:
        """The record of an item as this baseline sees it: if the baseline accepts its finding, an ``accepted``
        record (the reason appended to its message), and the report marked an xfail with the reason, as a pytest
        hook marks a report before pytest's reporters count it; otherwise ``record`` itself."""
        if record.outcome not in ("failed", "warned", "error"):
            return record
        entry = self.accepting(record.target, record.rule, record.message)
        if entry is None:
            return record
        report.outcome = "skipped"
        report.wasxfail = f"{record.rule} accepted by the baseline: {entry.reason}"
        message = f"{record.message}\n  accepted by the baseline {self.path}: {entry.reason}"
        return dataclasses.replace(record, outcome="accepted", message=message)

    def fixed(self, ran: Iterable[tuple[str, str]], found: Iterable[tuple[str, str, str]]) -> list[Entry]:
        """The entries whose item ran and no longer has their finding.

        Args:
            ran: The (target, rule) of every item that ran to an outcome.
            found: The (target, rule, fingerprint) of every finding of the run.
        """
        ran_items = set(ran)
        findings = set(found)
        return [e for e in self.entries
                if (e.target, e.rule) in ran_items and (e.target, e.rule, e.fingerprint) not in findings]


def write_baseline(path: str | Path, findings: Sequence[RuleResult], keep: Baseline | None = None) -> Path:
    """Write a baseline of the findings among ``findings`` (failed, warned, errored or accepted items) to ``path``.

    Reasons of entries ``keep`` already has are kept; new entries get an empty reason to be filled in.
    """
    kept = {(e.target, e.rule, e.fingerprint): e.reason for e in (keep.entries if keep else ())}
    entries: dict[tuple[str, str, str], Entry] = {}
    for record in findings:
        if record.outcome not in _FINDINGS:
            continue
        target, rule, message = record.target, record.rule, record.message
        key = (target, rule, fingerprint(rule, target, message))
        first = message.splitlines()[0] if message else ""
        entries.setdefault(key, Entry(target, rule, key[2], kept.get(key, ""), first))
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    ordered = [entries[key].to_dict() for key in sorted(entries)]
    file.write_text(json.dumps({"schema": SCHEMA, "accepted": ordered}, indent=2) + "\n", encoding="utf-8")
    return file
