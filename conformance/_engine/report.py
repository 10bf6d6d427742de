"""Results of a run: one record per (rule, target) item, the JSON report, and the terminal table.

Records travel from the process that ran the item to the one that reports (pytest-xdist's controller) inside the
test report's ``user_properties``, as plain dicts, so aggregation works the same with and without ``-n``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "OUTCOMES",
    "PROPERTY",
    "LiveReport",
    "Result",
    "build_report",
    "format_effort",
    "format_table",
    "isolation_notes",
    "not_checked",
    "replace_file",
    "write_report",
]

SCHEMA = 1
PROPERTY = "conformance"
"""The ``user_properties`` key carrying an item's record."""

OUTCOMES: tuple[str, ...] = ("passed", "failed", "warned", "skipped", "error", "accepted")
"""Every outcome; ``warned`` is a passed item whose SHOULD-level rule was violated, ``accepted`` a finding the
project's baseline accepts (``--conformance-baseline``)."""

_AREA_ORDER = ("CONSTRUCT", "SPACE", "ENV", "SEED", "RENDER", "WRAP", "VEC", "AUTORESET", "FUNC", "REG")
_SEVERITY = {"passed": 0, "skipped": 1, "accepted": 2, "warned": 3, "failed": 4, "error": 5}


@dataclass
class Result:
    """The record of one item.

    Attributes:
        target: The target id.
        rule: The rule id (``"CONSTRUCT"`` for the construction check).
        level: The rule's level text (``"MUST"``, ``"SHOULD NOT"``, ...).
        outcome: One of :data:`OUTCOMES`.
        message: The failure text without the reproducer, the skip reason, or the warning text.
        reproducer: The replay script of a failure or warning ("" otherwise).
        nodeid: The pytest node id.
        examples: Examples the item ran (a rule checked on the shared trace: the trace's).
        steps: ``step`` calls its examples made.
        seconds: Its wall time.
        peak_mib: The largest resident memory of its process, in MiB (0 when it did not run in one of its own).
        isolation: How its process started when that was not the default fork, and why (``"spawn — 5 threads in
            the probe process"``), else ``""``.
    """

    target: str
    rule: str
    level: str
    outcome: str
    message: str = ""
    reproducer: str = ""
    nodeid: str = ""
    examples: int = 0
    steps: int = 0
    seconds: float = 0.0
    peak_mib: float = 0.0
    isolation: str = ""

    @property
    def area(self) -> str:
        """The rule's area (the id prefix)."""
        return self.rule.split("-")[0]

    def merge(self, other: Result) -> Result:
        """Combine the records of two phases of one item: the more severe outcome wins; statistics add up."""
        worse = other if _SEVERITY[other.outcome] > _SEVERITY[self.outcome] else self
        return dataclasses.replace(
            worse,
            examples=max(self.examples, other.examples),
            steps=max(self.steps, other.steps),
            seconds=self.seconds + other.seconds,
            peak_mib=max(self.peak_mib, other.peak_mib),
        )

    def as_dict(self) -> dict[str, str]:
        """The record as stored in the JSON report."""
        return asdict(self)


def _counts(results: Iterable[Result]) -> dict[str, int]:
    counter = Counter(result.outcome for result in results)
    return {outcome: counter.get(outcome, 0) for outcome in OUTCOMES}


def _pytest_counts(results: Iterable[Result]) -> dict[str, int]:
    """The same items as pytest counts them: a warned item is a passed one."""
    counts = _counts(results)
    return {"passed": counts["passed"] + counts["warned"], "failed": counts["failed"],
            "skipped": counts["skipped"], "error": counts["error"], "xfailed": counts["accepted"]}


def not_checked(results: Iterable[Result]) -> dict[str, int]:
    """Targets with items that could not be checked (outcome ``error``: a call never returned, an internal error, an
    interrupt...), and how many: such a target has not passed, whatever its other items say."""
    counts = Counter(result.target for result in results if result.outcome == "error")
    return dict(sorted(counts.items()))


def isolation_notes(results: Iterable[Result]) -> dict[str, str]:
    """Targets whose items ran in processes that did not start by the default fork, and how and why."""
    return dict(sorted({result.target: result.isolation for result in results if result.isolation}.items()))


def build_report(results: Sequence[Result], meta: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON report: ``{"schema": 1, "results": [...], "summary": {...}}``.

    Args:
        results: Every item's record.
        meta: Run facts (profile, rules filter, versions) stored under ``summary["run"]``.

    Returns:
        A JSON-serialisable dict.
    """
    by_target: dict[str, list[Result]] = {}
    for result in results:
        by_target.setdefault(result.target, []).append(result)
    failing = sorted({f"{r.rule}@{r.target}" for r in results if r.outcome in ("failed", "error")})
    warned = sorted({f"{r.rule}@{r.target}" for r in results if r.outcome == "warned"})
    return {
        "schema": SCHEMA,
        "results": [result.as_dict() for result in results],
        "summary": {
            "total": len(results),
            **_counts(results),
            "pytest": _pytest_counts(results),
            "by_target": {target: _counts(items) for target, items in by_target.items()},
            "failing": failing,
            "warned_rules": warned,
            "not_checked": not_checked(results),
            "isolation": isolation_notes(results),
            "run": dict(meta),
        },
    }


def write_report(path: str | Path, results: Sequence[Result], meta: Mapping[str, Any]) -> Path:
    """Write :func:`build_report` to ``path`` atomically (a temporary file renamed into place; parents created).

    A reader never sees a half-written report, and an existing report is replaced only by a complete one.
    """
    return replace_file(path, json.dumps(build_report(results, meta), indent=2) + "\n")




class LiveReport:
    """The JSON report kept on disk while the run goes on, so a run killed outright (``SIGKILL``, a CI job's time
    limit) leaves a valid report of every item finished so far, marked ``"incomplete": true`` in ``summary.run``.

    Each update rewrites the file atomically (:func:`replace_file`). Records are serialised once, when they change, so an
    update costs a join and a write; only when that grows costly (over ``_CHEAP`` seconds: thousands of items)
    are updates spaced, so that writing never takes more than about a tenth of the run — an item is then on disk
    with the next update, at most ten writes' time later.

    Args:
        path: Where the report goes.
    """

    _SHARE = 10.0  # a costly update may follow the previous one after this many times what that one took
    _CHEAP = 0.01  # seconds: an update that took less never delays the next

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._rows: dict[str, str] = {}
        self._results: dict[str, Result] = {}
        self._last = 0.0
        self._cost = 0.0

    def update(self, result: Result, meta: Mapping[str, Any]) -> None:
        """Record ``result`` (replacing the earlier record of its node id) and rewrite the report if it is time."""
        self._results[result.nodeid] = result
        self._rows[result.nodeid] = json.dumps(result.as_dict())
        now = time.monotonic()
        if self._cost > self._CHEAP and now - self._last < self._SHARE * self._cost:
            return
        results = list(self._results.values())
        summary = build_report(results, {**meta, "incomplete": True})["summary"]
        summary.pop("run", None)
        text = (f'{{"schema": {SCHEMA}, "results": [\n' + ",\n".join(self._rows.values())
                + f'\n], "summary": {json.dumps({**summary, "run": {**meta, "incomplete": True}})}}}\n')
        with contextlib.suppress(OSError):  # the final report says so if the path cannot be written
            replace_file(self.path, text)
        self._last = time.monotonic()
        self._cost = self._last - now


def replace_file(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically: a temporary file beside it renamed into place (parents created)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, scratch = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(scratch, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(scratch)
        raise
    return target


def _align(table: list[list[str]], left: int) -> list[str]:
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines: list[str] = []
    for row in table:
        cells = [cell.ljust(width) for cell, width in zip(row[:left], widths[:left])]
        cells += [cell.rjust(width) for cell, width in zip(row[left:], widths[left:])]
        lines.append("  ".join(cells).rstrip())
    return lines


def _area_rank(area: str) -> tuple[int, str]:
    return (_AREA_ORDER.index(area) if area in _AREA_ORDER else len(_AREA_ORDER), area)


def format_table(results: Sequence[Result]) -> list[str]:
    """One row per target, sorted by id: the outcome counts, the examples and steps its items ran, its seconds."""
    by_target: dict[str, list[Result]] = {}
    for result in results:
        by_target.setdefault(result.target, []).append(result)
    # The accepted column only where a baseline accepted something: most runs have none.
    outcomes = OUTCOMES if any(r.outcome == "accepted" for r in results) else OUTCOMES[:-1]
    table = [["target", *outcomes, "examples", "steps", "seconds", "peak MiB"]]
    for target in sorted(by_target):
        items = by_target[target]
        counts = _counts(items)
        table.append([
            target,
            *(str(counts[outcome]) for outcome in outcomes),
            str(sum(r.examples for r in items)),
            str(sum(r.steps for r in items)),
            f"{sum(r.seconds for r in items):.1f}",
            f"{max(r.peak_mib for r in items):.0f}",
        ])
    return _align(table, 1)


def format_effort(results: Sequence[Result]) -> list[str]:
    """Per target, the steps and examples each rule area got (a shared trace counts once per area)."""
    effort: dict[str, dict[str, set[tuple[int, int, str]]]] = {}
    for result in results:
        if result.rule == "CONSTRUCT" or not (result.examples or result.steps):
            continue
        # Observers of one shared trace report the same run: count it once per area.
        key = (result.examples, result.steps, result.rule if result.seconds else "shared")
        effort.setdefault(result.target, {}).setdefault(result.area, set()).add(key)
    lines: list[str] = []
    for target in sorted(effort):
        areas = effort[target]
        parts: list[str] = []
        for area in sorted(areas, key=_area_rank):
            runs = areas[area]
            parts.append(f"{area} {sum(s for _, s, _ in runs)} steps/{sum(e for e, _, _ in runs)} examples")
        lines.append(f"{target}: " + ", ".join(parts))
    return lines
