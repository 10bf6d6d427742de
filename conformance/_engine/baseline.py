"""Baselines: the findings a project has accepted, each with the reason, so a run fails only on new ones.

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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance._engine.narrowing import is_dict, is_list
from conformance.results import RuleResult

__all__ = ["Baseline", "BaselineError", "Entry", "fingerprint", "write_baseline"]

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
