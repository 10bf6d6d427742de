"""What a conformance run found: :class:`Report`, one :class:`RuleResult` per (rule, target) item.

:class:`RuleResult` is the only record of an item anywhere in the suite: the process that runs an item builds one,
the supervisor and pytest-xdist's controller carry it as :meth:`RuleResult.to_dict`, and every report (the JSON
report, the terminal table, the HTML report, the badge, :func:`conformance.check_env`'s return value) is made from
them. This module depends on nothing else in the suite (only on the spec's catalog), so every layer may import it.

:func:`conformance.check_env` returns a :class:`Report`; :meth:`Report.from_json` reads the report any run writes
(``pytest --pyargs conformance --conformance-report PATH``, ``python -m conformance --report PATH``), so tools can
treat every run alike. The JSON form (:meth:`Report.to_json`) is that same schema, documented field by field in
docs/report.md, which ``python -m conformance --report-schema`` prints from this module.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol, TypeAlias, cast, get_args

from gymspec.rules import RULES

__all__ = [
    "CONSTRUCT",
    "OUTCOMES",
    "SCHEMA",
    "ConformanceError",
    "Evidence",
    "Outcome",
    "RaiseOn",
    "Report",
    "RuleResult",
    "SEVERITY",
    "rule_level",
    "schema_markdown",
]

Outcome: TypeAlias = Literal["passed", "failed", "warned", "skipped", "error", "accepted"]
"""An item's outcome; ``warned`` is a passed item whose SHOULD-level rule was violated, ``accepted`` a finding the
project's baseline accepts."""

RaiseOn: TypeAlias = Literal["must", "should", "never"]
"""Which violations raise :class:`ConformanceError`: MUST ones (and errors), SHOULD ones too, or none."""

CONSTRUCT = "CONSTRUCT"
"""The rule id of a target's construction item (the target must be constructible before any rule is checked)."""

OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
"""Every outcome, in the order reports show them."""
SCHEMA = 2
"""The version of the JSON report's schema (``"schema"`` of every report): 2 records each item's ``evidence``
(schema 1, which had only ``examples`` and ``steps``, is still read)."""

_RAISE_ON: tuple[RaiseOn, ...] = get_args(RaiseOn)
SEVERITY: dict[Outcome, int] = {"passed": 0, "skipped": 1, "accepted": 2, "warned": 3, "failed": 4, "error": 5}
"""How bad each outcome is: two phases of one item (setup, call, teardown) merge into the worse one."""
# A skip that says the rule is not about the target at all ("ENV-023 not applicable to X: ..."), unlike one that says
# it could not be checked or observed there: pytest counts those apart, and lists only the others.
_NOT_APPLICABLE = re.compile(r"^[A-Z]+-\d{3} not applicable to ")
_AREA_ORDER = ("CONSTRUCT", "SPACE", "ENV", "SEED", "RENDER", "WRAP", "VEC", "AUTORESET", "FUNC", "REG")
_DETAILS = 12
_WORST_ITEMS = 3  # items per target the summary names as spending the most suite time
_DETAILED_ERRORS = 5


_EVIDENCE_WORDS: tuple[tuple[str, str, str], ...] = (
    # (field, singular, plural): the order in which Evidence.describe() names what an item saw
    ("steps", "step", "steps"),
    ("ends", "episode end", "episode ends"),
    ("autoresets", "autoreset", "autoresets"),
    ("seeded_resets", "seeded reset", "seeded resets"),
    ("unseeded_resets", "unseeded reset", "unseeded resets"),
    ("renders", "frame", "frames"),
    ("constructions", "construction", "constructions"),
    ("examples", "example", "examples"),
)


@dataclass(frozen=True)
class Evidence:
    """What one item observed: the calls its check made and what they returned, counted.

    A pass is worth what it observed: "passed on 412 steps, 9 episode ends, 15 examples". Every count is of calls
    that returned (a call that raised or hung counts nowhere); instances are the target's, layers and spaces seen
    through them included.

    Attributes:
        examples: Hypothesis examples (or programs) the check ran.
        constructions: Instances of the target it constructed (or read from the probe).
        instances: The most instances that took calls within one example (several instances interleaved).
        processes: Processes the observations came from beyond the item's own (a fresh interpreter, a second
            instance in a process of its own).
        steps: ``step`` calls (a vector env's count once per call; a functional env's ``transition`` calls).
        ends: Episode ends: steps that returned ``terminated`` or ``truncated`` (a vector env's: one per sub-env
            that ended; a functional env's: ``terminal`` calls that returned true).
        terminated: Episode ends with ``terminated`` true.
        truncated: Episode ends with ``truncated`` true.
        both: Episode ends with both flags true.
        longest: The most steps one episode (one sub-env's) ran without ending: an episode-end rule whose floor
            was not met after episodes this long saw episodes that do not end, rather than too few steps.
        seeded_resets: ``reset`` calls given an int seed (or a list of seeds).
        unseeded_resets: ``reset`` calls without one.
        autoresets: Sub-env episode ends that a later step of the same vector env (or a partial reset) went past:
            the sub-env was reset by its env (or by the caller, under ``"Disabled"``).
        autoreset_envs: How many distinct sub-envs were seen past such an end.
        after_autoreset: Sub-env steps taken after their sub-env's first autoreset.
        renders: ``render`` calls that returned, per render mode (``""``: an instance made without one).
        renders_after_step: Of those, the frames drawn after the episode had taken a step (not only after reset).
        judged: What the check itself counts as judged, by name (``"episodes at the declared limit"``), where the
            calls alone do not say it (a rule about one moment of an episode).
    """

    examples: int = 0
    constructions: int = 0
    instances: int = 0
    processes: int = 0
    steps: int = 0
    ends: int = 0
    terminated: int = 0
    truncated: int = 0
    both: int = 0
    longest: int = 0
    seeded_resets: int = 0
    unseeded_resets: int = 0
    autoresets: int = 0
    autoreset_envs: int = 0
    after_autoreset: int = 0
    renders: Mapping[str, int] = field(default_factory=dict[str, int])
    renders_after_step: int = 0
    judged: Mapping[str, int] = field(default_factory=dict[str, int])

    def count(self, name: str) -> int:
        """The count called ``name``: a field, ``"renders"`` (every mode), ``"renders:<mode>"`` or a judged name."""
        if name == "renders":
            return sum(self.renders.values())
        if name.startswith("renders:"):
            return self.renders.get(name.partition(":")[2], 0)
        if name in _INT_FIELDS:
            value: int = getattr(self, name)
            return value
        return self.judged.get(name, 0)

    def describe(self) -> str:
        """What it saw, the non-zero counts in a fixed order: ``"412 steps, 9 episode ends, 15 examples"``."""
        parts: list[str] = []
        for name, one, many in _EVIDENCE_WORDS:
            seen = self.count(name)
            if seen:
                parts.append(f"{seen} {one if seen == 1 else many}")
        parts += [f"{seen} {name}" for name, seen in sorted(self.judged.items()) if seen]
        return ", ".join(parts) or "no calls"

    def merged(self, other: Evidence) -> Evidence:
        """Both observations of one item (its phases): each count the larger."""
        ints = {name: max(getattr(self, name), getattr(other, name)) for name in _INT_FIELDS}
        return Evidence(**ints, renders=_larger(self.renders, other.renders), judged=_larger(self.judged, other.judged))

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON report stores it (zero counts and empty mappings left out)."""
        data: dict[str, Any] = {name: getattr(self, name) for name in _INT_FIELDS if getattr(self, name)}
        if self.renders:
            data["renders"] = dict(self.renders)
        if self.judged:
            data["judged"] = dict(self.judged)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Evidence:
        """Read :meth:`to_dict`'s form (unknown keys are ignored: a newer suite's report stays readable).

        Raises:
            ValueError: If a count is not an int, or a mapping not a mapping of str to int.
        """
        ints: dict[str, int] = {}
        for name in _INT_FIELDS:
            value = data.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"Evidence {name} must be an int, got {value!r}")
            ints[name] = value
        return cls(**ints, renders=_counts_of(data, "renders"), judged=_counts_of(data, "judged"))


_INT_FIELDS: tuple[str, ...] = tuple(
    item.name for item in dataclasses.fields(Evidence) if item.name not in ("renders", "judged")
)


def _larger(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    return {key: max(a.get(key, 0), b.get(key, 0)) for key in sorted({*a, *b})}


def _counts_of(data: Mapping[str, Any], name: str) -> dict[str, int]:
    value: object = data.get(name, {})
    counts: dict[str, int] = {}
    if isinstance(value, Mapping):
        for key, count in cast("Mapping[object, object]", value).items():
            if isinstance(key, str) and isinstance(count, int) and not isinstance(count, bool):
                counts[key] = count
                continue
            raise ValueError(f"Evidence {name} must be a mapping of str to int, got {value!r}")
        return counts
    raise ValueError(f"Evidence {name} must be a mapping of str to int, got {value!r}")


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
        evidence: What it observed (:class:`Evidence`): steps, episode ends, resets, autoresets, frames,
            constructions, examples. A rule passes only on the evidence its statement needs (its floor); an item that
            ended with less is an error, never a pass.
        seconds: Its wall time, in its process (its phases: setup, call, teardown).
        target_seconds: Of that, the seconds spent inside calls into the target (constructions, resets, steps,
            renders, closes, attribute reads, the probe's reads): its *target time*. The rest (:attr:`suite_seconds`)
            is the suite's own: drawing examples, copying and comparing what the calls returned, reporting.
            ``None`` where no process measured it: the supervisor wrote the record of an item whose process died,
            hung or never ran it, or that its target's shared run decided.
        peak_mib: The largest resident memory of its process, in MiB (0 when it did not run in one of its own).
        isolation: How its process started when that was not the default fork, and why (``"spawn — 5 threads in
            the probe process"``); ``""`` otherwise.
        output: What the target printed while the item ran (stdout, stderr, logging), kept here and not shown on the
            terminal: per phase and stream, its last 20 lines after a line naming them (``"stdout (call, the last 20
            of 3000 lines):"``); ``""`` when it printed nothing, or under ``-s`` (its output then goes where it was
            asked to).
    """

    rule: str
    target: str
    level: str
    outcome: Outcome
    message: str = ""
    reproducer: str = ""
    nodeid: str = ""
    evidence: Evidence = field(default_factory=Evidence)
    seconds: float = 0.0
    target_seconds: float | None = None
    peak_mib: float = 0.0
    isolation: str = ""
    output: str = ""

    @property
    def examples(self) -> int:
        """How many Hypothesis examples it ran (``evidence.examples``)."""
        return self.evidence.examples

    @property
    def steps(self) -> int:
        """How many ``step`` calls those examples made (``evidence.steps``)."""
        return self.evidence.steps

    @property
    def suite_seconds(self) -> float | None:
        """The part of its wall time the suite spent around the target's calls (``seconds - target_seconds``;
        ``None`` where the target time was not measured)."""
        return None if self.target_seconds is None else max(0.0, self.seconds - self.target_seconds)

    @property
    def area(self) -> str:
        """The rule's area, the id's prefix (``"ENV"`` for ``"ENV-011"``)."""
        return self.rule.split("-")[0]

    @property
    def mandatory(self) -> bool:
        """Whether the rule is a MUST or MUST NOT (a violation fails it rather than warns)."""
        return self.level.startswith("MUST")

    @property
    def not_applicable(self) -> bool:
        """Whether it skipped because the rule is not about the target (a render mode it does not declare, another
        autoreset mode), rather than because it could not be checked or observed there."""
        return self.outcome == "skipped" and bool(_NOT_APPLICABLE.match(self.message))

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
        evidence = record.get("evidence")
        if outcome not in OUTCOMES:
            raise ValueError(f"RuleResult outcome must be one of {list(OUTCOMES)}, got {outcome!r}")
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
            # Schema 1 recorded only the examples and steps, beside the other fields.
            evidence=Evidence.from_dict(cast("Mapping[str, Any]", evidence)) if isinstance(evidence, Mapping) else Evidence(
                examples=int(record.get("examples", 0)), steps=int(record.get("steps", 0))),
            seconds=float(record.get("seconds", 0.0)),
            target_seconds=_seconds_or_none(record.get("target_seconds")),
            peak_mib=float(record.get("peak_mib", 0.0)),
            isolation=str(record.get("isolation", "")),
            output=str(record.get("output", "")),
        )

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON report stores it (and as it travels between processes)."""
        data = asdict(self)
        data["evidence"] = self.evidence.to_dict()
        return data

    def merge(self, other: RuleResult) -> RuleResult:
        """One record of two phases of one item (setup, call, teardown): the worse outcome with its message, the
        larger statistics, the times added up."""
        # Of two phases as severe, the one that says something (a pass's note comes with its call phase).
        worse = other if (SEVERITY[other.outcome], bool(other.message)) > (SEVERITY[self.outcome], bool(self.message)) \
            else self
        return dataclasses.replace(
            worse,
            evidence=self.evidence.merged(other.evidence),
            seconds=self.seconds + other.seconds,
            target_seconds=_added(self.target_seconds, other.target_seconds),
            peak_mib=max(self.peak_mib, other.peak_mib),
            isolation=worse.isolation or self.isolation or other.isolation,
            output="\n".join(output for output in (self.output, other.output) if output),
        )

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
        if self.outcome in ("passed", "warned"):
            # A pass is worth what it observed.
            summary += f" (on {self.evidence.describe()})"
        return f"{self.outcome.upper():7} {summary}"


def _seconds_or_none(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise ValueError(f"RuleResult target_seconds must be a number or null, got {value!r}")


def _added(a: float | None, b: float | None) -> float | None:
    """Two phases' target seconds together (``None`` when neither was measured)."""
    return None if a is None and b is None else (a or 0.0) + (b or 0.0)


def rule_level(rule: str) -> str:
    """The level of ``rule`` in the catalog; ``"MUST"`` for the suite's own items (``CONSTRUCT``: the target must
    be constructible, ``COLLECT``: the suite must load) and for an id the catalog does not have."""
    found = RULES.get(rule)
    return found.level.value if found is not None else "MUST"


def _counts(results: Iterable[RuleResult]) -> dict[Outcome, int]:
    counter = Counter(result.outcome for result in results)
    return {outcome: counter.get(outcome, 0) for outcome in OUTCOMES}


def _area_rank(area: str) -> tuple[int, str]:
    return (_AREA_ORDER.index(area) if area in _AREA_ORDER else len(_AREA_ORDER), area)


def _align(table: list[list[str]], left: int) -> list[str]:
    """The rows as text, columns padded: the first ``left`` to the left, the others (numbers) to the right."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines: list[str] = []
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row[:left], widths[:left])]
        cells += [cell.rjust(width) for cell, width in zip(row[left:], widths[left:])]
        lines.append("  ".join(cells).rstrip())
    return lines


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
        """The items whose rule does not apply to the target (the reason is each one's ``message``)."""
        return self._with("skipped")

    @property
    def accepted(self) -> tuple[RuleResult, ...]:
        """The findings the baseline accepted (``--conformance-baseline``): known, not failures."""
        return self._with("accepted")

    @property
    def errors(self) -> tuple[RuleResult, ...]:
        """The items that could not be checked (a call that never returned, a process limit, an internal error):
        each one's ``message`` names the cause and the remedy."""
        return self._with("error")

    @property
    def not_checked(self) -> dict[str, int]:
        """The targets with items that could not be checked, and how many: such a target has not passed, whatever
        its other items say."""
        return dict(sorted(Counter(result.target for result in self.errors).items()))

    def cost(self, worst: int = _WORST_ITEMS) -> dict[str, dict[str, Any]]:
        """Per target, where its items' time went: ``seconds`` (their wall time), of which ``target_seconds``
        (inside calls into the target), ``suite_seconds`` (the rest) and ``unmeasured_seconds`` (items whose target
        time no process measured: a process that died or hung); and ``worst``, the ``worst`` measured items by suite
        time as ``{"rule", "seconds", "target_seconds", "suite_seconds"}``, most first."""
        by_target: dict[str, list[RuleResult]] = {}
        for result in self.results:
            by_target.setdefault(result.target, []).append(result)
        costs: dict[str, dict[str, Any]] = {}
        for target in sorted(by_target):
            items = by_target[target]
            measured = [(r, spent, r.seconds - spent) for r in items if (spent := r.target_seconds) is not None]
            heavy = sorted((m for m in measured if m[2] > 0), key=lambda m: (-m[2], m[0].rule))
            costs[target] = {
                "seconds": round(sum(r.seconds for r in items), 4),
                "target_seconds": round(sum(spent for _, spent, _ in measured), 4),
                "suite_seconds": round(sum(max(0.0, suite) for _, _, suite in measured), 4),
                "unmeasured_seconds": round(sum(r.seconds for r in items if r.target_seconds is None), 4),
                "worst": [{"rule": r.rule, "seconds": round(r.seconds, 4), "target_seconds": round(spent, 4),
                           "suite_seconds": round(suite, 4)} for r, spent, suite in heavy[:worst]],
            }
        return costs

    def cost_lines(self, worst: int = _WORST_ITEMS) -> list[str]:
        """Per target, its items' target time against the suite's own, and the items that spent the most suite
        time (``ENV-004 2.1 s (target 0.3 s)``): where a run's time goes, as the terminal summary shows it."""
        lines: list[str] = []
        for target, cost in self.cost(worst).items():
            if not cost["seconds"]:
                continue
            items = ", ".join(f"{one['rule']} {one['suite_seconds']:.1f} s (target {one['target_seconds']:.1f} s)"
                              for one in cost["worst"])
            unmeasured = (f" ({cost['unmeasured_seconds']:.1f} s more in items whose process died or hung)"
                          if cost["unmeasured_seconds"] >= 0.05 else "")
            lines.append(f"{target}: target {cost['target_seconds']:.1f} s, suite {cost['suite_seconds']:.1f} s"
                         + unmeasured + (f"; most suite time: {items}" if items else ""))
        return lines

    @property
    def isolation(self) -> dict[str, str]:
        """The targets whose items ran in processes that did not start by the default fork, and how and why."""
        return dict(sorted({result.target: result.isolation for result in self.results if result.isolation}.items()))

    @property
    def ok(self) -> bool:
        """Whether no item failed or errored (warnings allowed)."""
        return not self._with("failed", "error")

    @property
    def counts(self) -> dict[Outcome, int]:
        """How many items had each outcome (every outcome present, zeros included)."""
        return _counts(self.results)

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
        """The report in the JSON schema every run writes (``{"schema": 1, "results": [...], "summary": {...}}``;
        docs/report.md describes every field)."""
        return {"schema": SCHEMA, "results": [result.to_dict() for result in self.results], "summary": self.summary()}

    def summary(self) -> dict[str, Any]:
        """The ``"summary"`` part of :meth:`to_dict`: counts overall, as pytest counts them and per target, the
        failing and warned items, the targets not checked, isolation notes, the run's facts and its time."""
        by_target: dict[str, list[RuleResult]] = {}
        for result in self.results:
            by_target.setdefault(result.target, []).append(result)
        counts = self.counts
        not_applicable = sum(result.not_applicable for result in self.results)
        return {
            "total": len(self.results),
            **{str(outcome): count for outcome, count in counts.items()},
            # The same items as pytest counts them: a warned item passed, an accepted one is an xfail, a skip that
            # is not applicable is counted apart from the skips a person must read.
            "pytest": {"passed": counts["passed"] + counts["warned"], "failed": counts["failed"],
                       "skipped": counts["skipped"] - not_applicable, "not applicable": not_applicable,
                       "error": counts["error"], "xfailed": counts["accepted"]},
            "by_target": {target: _counts(items) for target, items in by_target.items()},
            "failing": sorted({f"{r.rule}@{r.target}" for r in self._with("failed", "error")}),
            "warned_rules": sorted({f"{r.rule}@{r.target}" for r in self.warned}),
            "not_checked": self.not_checked,
            "isolation": self.isolation,
            "cost": self.cost(),
            "run": dict(self.run),
            "seconds": round(self.seconds, 4),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """The report as JSON text (:meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Report:
        """Read a report in the JSON schema (what :meth:`to_dict` returns, or a run's ``--conformance-report``).

        Raises:
            ValueError: If ``data`` is not a schema-1 report.
        """
        if data.get("schema") not in (1, SCHEMA) or not isinstance(data.get("results"), list):
            raise ValueError(
                f"Report data must be a schema-1 or schema-{SCHEMA} conformance report with a results list, "
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
        """One aligned row per target, sorted by id (the header row first): its outcome counts, the examples, steps
        and episode ends its items observed, their seconds, the part of those spent inside calls into the target
        (``target s``; the rest is the suite's own) and the largest memory of their processes."""
        by_target: dict[str, list[RuleResult]] = {}
        for result in self.results:
            by_target.setdefault(result.target, []).append(result)
        # The accepted column only where a baseline accepted something: most runs have none.
        outcomes = OUTCOMES if self.accepted else OUTCOMES[:-1]
        table = [["target", *outcomes, "examples", "steps", "ends", "seconds", "target s", "peak MiB"]]
        for target in sorted(by_target):
            items = by_target[target]
            counts = _counts(items)
            table.append([
                target,
                *(str(counts[outcome]) for outcome in outcomes),
                str(sum(r.examples for r in items)),
                str(sum(r.steps for r in items)),
                str(sum(r.evidence.ends for r in items)),
                f"{sum(r.seconds for r in items):.1f}",
                f"{sum(r.target_seconds or 0.0 for r in items):.1f}",
                f"{max(r.peak_mib for r in items):.0f}",
            ])
        return _align(table, 1)

    def effort(self) -> list[str]:
        """Per target, the steps and examples each rule area got (observers of one shared trace count it once)."""
        effort: dict[str, dict[str, set[tuple[int, int, str]]]] = {}
        for result in self.results:
            if result.rule == "CONSTRUCT" or not (result.examples or result.steps):
                continue
            # Observers of one shared trace report the same run, with no time of their own: count it once per area.
            key = (result.examples, result.steps, result.rule if result.seconds else "shared")
            effort.setdefault(result.target, {}).setdefault(result.area, set()).add(key)
        lines: list[str] = []
        for target in sorted(effort):
            areas = effort[target]
            parts = [f"{area} {sum(s for _, s, _ in areas[area])} steps/{sum(e for e, _, _ in areas[area])} examples"
                     for area in sorted(areas, key=_area_rank)]
            lines.append(f"{target}: " + ", ".join(parts))
        return lines

    def __str__(self) -> str:
        lines = self.table()
        noteworthy = self.violations(should=True)
        lines += [str(result) for result in noteworthy[:_DETAILS]]
        if len(noteworthy) > _DETAILS:
            lines.append(f"... and {len(noteworthy) - _DETAILS} more (report.failed, report.warned, report.errors)")
        for target, count in self.not_checked.items():
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


# What each key of a report's "summary" holds: docs/report.md is printed from this and RuleResult's own docstring,
# and a test checks Report.summary() has exactly these keys.
_SUMMARY_KEYS: dict[str, str] = {
    "total": "How many items the run recorded.",
    **{outcome: f"How many items ended {outcome}." for outcome in OUTCOMES},
    "pytest": "The same items as pytest counts them: `passed` (warned included), `failed`, `skipped` (the skips "
              "that could not check or observe their rule), `not applicable` (the skips whose rule is not about the "
              "target, which pytest counts once and does not list), `error`, `xfailed` (accepted).",
    "by_target": "Per target id, the count of each outcome.",
    "failing": "`RULE@target` of every failed or errored item, sorted.",
    "warned_rules": "`RULE@target` of every warned item, sorted.",
    "not_checked": "Per target with errors, how many items could not be checked: such a target has not passed.",
    "isolation": "Per target whose items did not run in forked processes, how they ran and why.",
    "cost": "Per target, where its items' time went: `seconds` (their wall time), of which `target_seconds` (inside "
            "calls into the target), `suite_seconds` (the rest, the suite's own work) and `unmeasured_seconds` (items "
            "whose process died or hung, not split); and `worst`, the items that spent the most suite time (`rule`, "
            "`seconds`, `target_seconds`, `suite_seconds`).",
    "run": "Facts of the run: `profile`, `rules`, `registry`, `python`, `interrupted`, `signal`, "
           "`internal_error`, and `incomplete` (true while the run goes on or when it was killed).",
    "seconds": "Wall time of the run, in seconds (0 where the run did not measure it).",
}


def _field_docs(cls: type[Any]) -> dict[str, str]:
    """A record class's attribute descriptions, from its docstring's ``Attributes:`` section."""
    docs: dict[str, str] = {}
    name = ""
    section = (cls.__doc__ or "").split("Attributes:", 1)[-1]
    for line in section.splitlines():
        stripped = line.strip()
        head, sep, text = stripped.partition(": ")
        if sep and line.startswith(" " * 8) and not line.startswith(" " * 12) and head.isidentifier():
            name = head
            docs[name] = text
        elif name and stripped:
            docs[name] += " " + stripped
    return docs


_KINDS = {
    "Outcome": "string (one of " + ", ".join(f"`{o}`" for o in OUTCOMES) + ")",
    "str": "string",
    "int": "integer",
    "float": "number",
    "float | None": "number or null",
    "Evidence": "object (below)",
    "Mapping[str, int]": "object of string to integer",
}


def _field_rows(cls: type[Any]) -> list[str]:
    docs = _field_docs(cls)
    return [f"| `{item.name}` | {_KINDS.get(str(item.type), str(item.type))} | {' '.join(docs.get(item.name, '').split())} |"
            for item in dataclasses.fields(cls)]


def schema_markdown() -> str:
    """docs/report.md: the JSON report's schema, derived from :class:`RuleResult` and the summary's keys."""
    lines = [
        "# The JSON report",
        "",
        "<!-- Generated by `python -m conformance --report-schema > docs/report.md`; do not edit by hand. -->",
        "",
        "Every run can write one (`--conformance-report PATH`, `python -m conformance --report PATH`,",
        "`check_env(...).to_json()`); `conformance.Report.from_json` reads it back. It is an object with three keys:",
        "",
        f"- `schema`: `{SCHEMA}`, the version of this layout.",
        "- `results`: one record per (rule, target) item, in the order items finished.",
        "- `summary`: totals and facts of the run.",
        "",
        "## A record of `results` (`conformance.RuleResult`)",
        "",
        "| key | type | meaning |",
        "|---|---|---|",
    ]
    lines += _field_rows(RuleResult)
    lines += ["", "## `evidence` (`conformance.Evidence`)", "",
              "What the item observed; counts that are zero, and empty mappings, are left out.", "",
              "| key | type | meaning |", "|---|---|---|"]
    lines += _field_rows(Evidence)
    lines += ["", "## `summary`", "", "| key | meaning |", "|---|---|"]
    lines += [f"| `{key}` | {text} |" for key, text in _SUMMARY_KEYS.items()]
    return "\n".join(lines) + "\n"
