"""What a conformance run found: :class:`Report`, one :class:`RuleResult` per (rule, target) item.

:func:`conformance.check_env` returns a :class:`Report`; :meth:`Report.from_json` reads the report any run writes
(``pytest --pyargs conformance --conformance-report PATH``, ``python -m conformance --report PATH``), so tools can
treat every run alike. The JSON form (:meth:`Report.to_json`) is that same schema.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeAlias, get_args

if TYPE_CHECKING:
    from conformance._engine.report import Result as _Record

__all__ = ["ConformanceError", "Outcome", "RaiseOn", "Report", "RuleResult"]

Outcome: TypeAlias = Literal["passed", "failed", "warned", "skipped", "error", "accepted"]
"""An item's outcome; ``warned`` is a passed item whose SHOULD-level rule was violated, ``accepted`` a finding the
project's baseline accepts."""

RaiseOn: TypeAlias = Literal["must", "should", "never"]
"""Which violations raise :class:`ConformanceError`: MUST ones (and errors), SHOULD ones too, or none."""

_OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
_RAISE_ON: tuple[RaiseOn, ...] = get_args(RaiseOn)
_SCHEMA = 1
_DETAILS = 12
_DETAILED_ERRORS = 5


@dataclass(frozen=True)
class RuleResult:
    """The outcome of one rule on one target.

    Attributes:
        rule: The rule id, e.g. ``"ENV-011"`` (``"CONSTRUCT"`` for the check that the target can be built).
        target: The target id, e.g. ``"mypkg.envs:MyEnv"``.
        level: The rule's level: ``"MUST"``, ``"MUST NOT"``, ``"SHOULD"``, ``"SHOULD NOT"`` or ``"MAY"``.
        outcome: ``"passed"``, ``"failed"``, ``"warned"`` (a SHOULD rule violated), ``"skipped"`` (not applicable
            or not checkable, with the reason in ``message``), ``"error"`` (the check itself could not run) or
            ``"accepted"`` (a finding that ``--conformance-baseline`` accepts; ``message`` is the finding's, after
            the line naming the baseline and its reason).
        message: Why it failed, warned or skipped: the rule, what was expected and what happened.
        reproducer: A script that replays the violation (empty unless failed or warned).
        nodeid: The pytest node id of the item (``pytest --pyargs conformance "<nodeid>"`` reruns it alone).
        examples: How many Hypothesis examples it ran.
        steps: How many ``step`` calls those examples made.
        seconds: Its wall time.
        peak_mib: The largest resident memory of its process, in MiB.
    """

    rule: str
    target: str
    level: str
    outcome: Outcome
    message: str = ""
    reproducer: str = ""
    nodeid: str = ""
    examples: int = 0
    steps: int = 0
    seconds: float = 0.0
    peak_mib: float = 0.0

    @property
    def mandatory(self) -> bool:
        """Whether the rule is a MUST or MUST NOT (a violation fails it rather than warns)."""
        return self.level.startswith("MUST")

    @property
    def violated(self) -> bool:
        """Whether the item found a problem: failed, warned or error."""
        return self.outcome in ("failed", "warned", "error")

    @property
    def summary(self) -> str:
        """The first line of :attr:`message`."""
        return self.message.splitlines()[0] if self.message else ""

    @classmethod
    def from_dict(cls, record: Mapping[str, Any]) -> RuleResult:
        """Read one record of a JSON report.

        Raises:
            ValueError: If the record has no rule, target or level, or an unknown outcome.
        """
        outcome = record.get("outcome")
        if outcome not in _OUTCOMES:
            raise ValueError(f"RuleResult outcome must be one of {list(_OUTCOMES)}, got {outcome!r}")
        missing = [key for key in ("rule", "target", "level") if not isinstance(record.get(key), str)]
        if missing:
            raise ValueError(f"RuleResult record must have string {missing}, got {dict(record)!r}")
        return cls(
            rule=record["rule"],
            target=record["target"],
            level=record["level"],
            outcome=outcome,
            message=str(record.get("message", "")),
            reproducer=str(record.get("reproducer", "")),
            nodeid=str(record.get("nodeid", "")),
            examples=int(record.get("examples", 0)),
            steps=int(record.get("steps", 0)),
            seconds=float(record.get("seconds", 0.0)),
            peak_mib=float(record.get("peak_mib", 0.0)),
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON report stores it."""
        return asdict(self)

    def details(self) -> str:
        """The message, then the reproducer (indented), as a failure or warning shows them."""
        # The suite's messages open with the rule id, its level and the target; an error's may not.
        text = self.message if self.message.startswith(self.rule) else f"{self}\n{self.message}".rstrip()
        if self.reproducer:
            text += "\n  reproducer:\n" + _indent(self.reproducer, "    ")
        return text

    def __str__(self) -> str:
        # The suite's messages open with the rule id and the target ("ENV-011 (MUST) violated by ...: ...").
        summary = self.summary
        if not summary.startswith(self.rule):
            summary = f"{self.rule} ({self.level}) [{self.target}] {summary}".rstrip()
        return f"{self.outcome.upper():7} {summary}"


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


class ConformanceError(AssertionError):
    """A target violates rules (an ``AssertionError``, like the failures of Gymnasium's own checker).

    Raised by :func:`conformance.check_env` and :meth:`Report.raise_for_violations`. Its message names the target
    and every violated rule, then shows the first few in full: what was expected, what happened, a reproducer.

    Attributes:
        report: The whole run.
        violations: The results that made it raise.
    """

    def __init__(self, report: Report, violations: Sequence[RuleResult]) -> None:
        self.report = report
        self.violations = tuple(violations)
        rules = sorted({result.rule for result in self.violations})
        lines = [f"{', '.join(report.targets)} violates {len(rules)} rule{'s' * (len(rules) != 1)}: {', '.join(rules)}"]
        lines += ["- " + _indent(result.details(), "  ").lstrip() for result in self.violations[:_DETAILED_ERRORS]]
        lines += [f"- {result}" for result in self.violations[_DETAILED_ERRORS:]]
        super().__init__("\n".join(lines))


class _Printer(Protocol):
    def text(self, text: str) -> None: ...


@dataclass(frozen=True)
class Report:
    """Every item of one run, with accessors by outcome and by rule.

    ``report["ENV-011"]`` is that rule's result (:class:`KeyError` if it did not run; with several targets, index
    with ``(rule, target)``); iterating yields every :class:`RuleResult`; ``str(report)`` is a table per rule area
    followed by one line per failure, warning and error.

    Attributes:
        results: Every item, in run order.
        seconds: Wall time of the whole run, start-up included.
        run: Facts the run recorded (profile, rule filter, versions).
    """

    results: tuple[RuleResult, ...]
    seconds: float = 0.0
    run: Mapping[str, Any] = field(default_factory=dict[str, Any])

    # --- by outcome ------------------------------------------------------------------------------------------

    def _with(self, *outcomes: Outcome) -> tuple[RuleResult, ...]:
        return tuple(result for result in self.results if result.outcome in outcomes)

    @property
    def passed(self) -> tuple[RuleResult, ...]:
        """The items that passed (SHOULD rules with a warning are in :attr:`warned` instead)."""
        return self._with("passed")

    @property
    def failed(self) -> tuple[RuleResult, ...]:
        """The MUST-level items whose rule was violated."""
        return self._with("failed")

    @property
    def warned(self) -> tuple[RuleResult, ...]:
        """The SHOULD-level items whose rule was violated."""
        return self._with("warned")

    @property
    def skipped(self) -> tuple[RuleResult, ...]:
        """The items that did not apply or could not be checked (the reason is each one's ``message``)."""
        return self._with("skipped")

    @property
    def accepted(self) -> tuple[RuleResult, ...]:
        """The findings the baseline accepted (``--conformance-baseline``): known, not failures."""
        return self._with("accepted")

    @property
    def errors(self) -> tuple[RuleResult, ...]:
        """The items whose check could not run (a crash of the suite around the target, say)."""
        return self._with("error")

    @property
    def ok(self) -> bool:
        """Whether no item failed or errored (warnings allowed)."""
        return not self._with("failed", "error")

    @property
    def counts(self) -> dict[Outcome, int]:
        """How many items had each outcome (every outcome present, zeros included)."""
        counter = Counter(result.outcome for result in self.results)
        return {outcome: counter.get(outcome, 0) for outcome in _OUTCOMES}

    @property
    def targets(self) -> tuple[str, ...]:
        """The target ids, in run order."""
        return tuple(dict.fromkeys(result.target for result in self.results))

    def violations(self, *, should: bool = False) -> tuple[RuleResult, ...]:
        """The failed and errored items, and the warned ones too when ``should`` is true."""
        return self._with("failed", "error", "warned") if should else self._with("failed", "error")

    def raise_for_violations(self, raise_on: RaiseOn = "must") -> None:
        """Raise :class:`ConformanceError` if the report has violations of the kind ``raise_on`` names.

        Args:
            raise_on: ``"must"``: failed items (MUST rules) and errors; ``"should"``: warned items (SHOULD rules)
                as well; ``"never"``: nothing.

        Raises:
            ConformanceError: Listing those violations.
            ValueError: If ``raise_on`` is none of the three.
        """
        if raise_on not in _RAISE_ON:
            raise ValueError(f"Report raise_on must be one of {list(_RAISE_ON)}, got {raise_on!r}")
        violations = () if raise_on == "never" else self.violations(should=raise_on == "should")
        if violations:
            raise ConformanceError(self, violations)

    # --- by rule ---------------------------------------------------------------------------------------------

    def __getitem__(self, key: str | tuple[str, str]) -> RuleResult:
        rule, target = (key, None) if isinstance(key, str) else key
        rule = rule.upper()
        found = [r for r in self.results if r.rule == rule and (target is None or r.target == target)]
        if len(found) == 1:
            return found[0]
        if not found:
            where = f" on target {target!r}" if target is not None else ""
            raise KeyError(
                f"{rule} did not run{where}: it is not among the {len(self.results)} results (left out by the rules "
                "filter, or a rule about another kind of target)"
            )
        raise KeyError(f"{rule} ran on {len(found)} targets; index with (rule, target), one of {list(self.targets)}")

    def __contains__(self, rule: object) -> bool:
        return isinstance(rule, str) and any(result.rule == rule.upper() for result in self.results)

    def __iter__(self) -> Iterator[RuleResult]:
        return iter(self.results)

    def __len__(self) -> int:
        return len(self.results)

    # --- JSON ------------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The report in the JSON schema every run writes (``{"schema": 1, "results": [...], "summary": {...}}``)."""
        from conformance._engine.report import build_report

        data = build_report(self._records(), self.run)
        data["summary"]["seconds"] = round(self.seconds, 4)
        return data

    def _records(self) -> list[_Record]:
        from conformance._engine.report import Result

        return [Result(**result.to_dict()) for result in self.results]

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON text (:meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """Read a report in the JSON schema (what :meth:`to_dict` returns, or a run's ``--conformance-report``).

        Raises:
            ValueError: If ``data`` is not a schema-1 report.
        """
        if data.get("schema") != _SCHEMA or not isinstance(data.get("results"), list):
            raise ValueError(
                f"Report data must be a schema-{_SCHEMA} conformance report with a results list, "
                f"got keys {sorted(data)!r} and schema {data.get('schema')!r}"
            )
        summary = data.get("summary", {})
        return cls(
            results=tuple(RuleResult.from_dict(record) for record in data["results"]),
            seconds=float(summary.get("seconds", 0.0)),
            run=dict(summary.get("run", {})),
        )

    @classmethod
    def from_json(cls, text: str) -> Report:
        """Read a report from JSON text (see :meth:`from_dict`)."""
        return cls.from_dict(json.loads(text))

    # --- display ---------------------------------------------------------------------------------------------

    def table(self) -> list[str]:
        """One aligned row per target and rule area with the outcome counts (the header row first)."""
        from conformance._engine.report import format_table

        return format_table(self._records())

    def __str__(self) -> str:
        lines = self.table()
        noteworthy = self.violations(should=True)
        lines += [str(result) for result in noteworthy[:_DETAILS]]
        if len(noteworthy) > _DETAILS:
            lines.append(f"... and {len(noteworthy) - _DETAILS} more (report.failed, report.warned, report.errors)")
        from conformance._engine.report import not_checked

        for target, count in not_checked(self._records()).items():
            lines.append(f"NOT CHECKED: {target} — {count} item{'s' if count != 1 else ''} could not be checked")
        # "accepted" only where a baseline accepted something: most runs have none.
        tally = ", ".join(f"{count} {outcome}" for outcome, count in self.counts.items()
                          if count or outcome != "accepted")
        lines.append(f"{tally} in {self.seconds:.1f} s")
        return "\n".join(lines)

    def __repr__(self) -> str:
        counts = ", ".join(f"{outcome}={count}" for outcome, count in self.counts.items()
                           if count or outcome != "accepted")
        return f"<Report {', '.join(self.targets) or 'no targets'}: {counts}>"

    def _repr_pretty_(self, printer: _Printer, cycle: bool) -> None:
        """Show the table in IPython and Jupyter, where a bare ``report`` line displays the report."""
        printer.text(repr(self) if cycle else str(self))
