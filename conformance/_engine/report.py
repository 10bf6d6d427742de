"""The report of a run on disk: written atomically at the end, and kept up to date while the run goes on.

The records themselves (:class:`~conformance.results.RuleResult`) and the JSON schema (:class:`~conformance.results.
Report`) are :mod:`conformance.results`'; this module only decides when and how they reach the file. Records travel
from the process that ran an item to the one that reports (pytest-xdist's controller) inside the test report's
``user_properties``, under :data:`PROPERTY`, as :meth:`~conformance.results.RuleResult.to_dict`, so aggregation works
the same with and without ``-n``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from conformance._engine.describe import is_dict
from conformance.results import SCHEMA, Report, RuleResult

__all__ = ["PROPERTY", "TARGET_WARNINGS", "LiveReport", "record_of", "replace_file", "with_record", "write_report"]

PROPERTY = "conformance"
"""The ``user_properties`` key carrying an item's record."""
TARGET_WARNINGS = "conformance-target-warnings"
"""The ``user_properties`` key carrying the warnings the target itself raised in an item (shown once per target)."""


# The record each report's carried mapping was read as: the runner, the reporter and the progress lines all read
# the record of each report, a dozen readings of one mapping (a record is immutable, so one reading serves all).
_READ: weakref.WeakKeyDictionary[pytest.TestReport, tuple[object, RuleResult]] = weakref.WeakKeyDictionary()


def record_of(report: pytest.TestReport) -> RuleResult | None:
    """The item record a test report carries (``None`` for a report of another item, or one the suite did not
    make: an xdist worker's crash)."""
    for name, value in getattr(report, "user_properties", ()):
        if name == PROPERTY and is_dict(value):
            known = _READ.get(report)
            if known is not None and known[0] is value:
                return known[1]
            record = RuleResult.from_dict(value)
            _READ[report] = (value, record)
            return record
    return None


def with_record(report: pytest.TestReport, record: RuleResult) -> None:
    """Make ``record`` the item record ``report`` carries (replacing the one it had)."""
    kept = [(name, value) for name, value in report.user_properties if name != PROPERTY]
    data = record.to_dict()
    report.user_properties = [*kept, (PROPERTY, data)]
    _READ[report] = (data, record)


def write_report(path: str | Path, report: Report) -> Path:
    """Write ``report`` as JSON to ``path`` atomically (a temporary file renamed into place; parents created).

    A reader never sees a half-written report, and an existing report is replaced only by a complete one.
    """
    return replace_file(path, report.to_json() + "\n")


class LiveReport:
    """The JSON report kept on disk while the run goes on, so a run killed outright (``SIGKILL``, a CI job's time
    limit) leaves a valid report of every item finished so far, marked ``"incomplete": true`` in ``summary.run``.

    Each flush (the reporter's, when an item has ended) rewrites the file atomically (:func:`replace_file`), at most
    every ``_SPACING`` seconds (a cheap target's items end every few milliseconds, and each write is of the whole
    report). Records are serialised once, when they change, so a flush costs a join and a write; when that grows
    costly (over ``_CHEAP`` seconds: thousands of items) flushes are spaced further, so that writing never takes more
    than about a tenth of the run — an item is then on disk with the next flush, at most ten writes' time later.

    Args:
        path: Where the report goes.
    """

    _SHARE = 10.0  # a costly update may follow the previous one after this many times what that one took
    _CHEAP = 0.01  # seconds: an update that took less never delays the next
    _SPACING = 0.5  # seconds between writes at the least: a cheap target's items end faster than that

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._rows: dict[str, str] = {}
        self._results: dict[str, RuleResult] = {}
        self._last = 0.0
        self._cost = 0.0
        self._dirty = False

    def begin(self, meta: Mapping[str, Any]) -> None:
        """Write the report of a run that has finished nothing yet: a run killed before its first item (a target
        whose warm-up outlasts the job's time limit) leaves that, not the report of an earlier run at this path."""
        self._write(meta)

    def update(self, result: RuleResult, meta: Mapping[str, Any] | None = None) -> None:
        """Record ``result`` (replacing the earlier record of its node id); with ``meta``, also rewrite the report
        if it is time (:meth:`flush`)."""
        self._results[result.nodeid] = result
        self._rows[result.nodeid] = json.dumps(result.to_dict())
        self._dirty = True
        if meta is not None:
            self.flush(meta)

    def flush(self, meta: Mapping[str, Any]) -> None:
        """Rewrite the report with the records so far, if any changed and it is time. The reporter flushes when an
        item has ended (not after each of its phases: a write per phase tripled the writes, each of the whole
        report)."""
        now = time.monotonic()
        if not self._dirty or now - self._last < self._SPACING:
            return
        if self._cost > self._CHEAP and now - self._last < self._SHARE * self._cost:
            return
        self._write(meta)
        self._dirty = False
        self._last = time.monotonic()
        self._cost = self._last - now

    def _write(self, meta: Mapping[str, Any]) -> None:
        summary = Report(tuple(self._results.values()), run={**meta, "incomplete": True}).summary()
        text = (f'{{"schema": {SCHEMA}, "results": [\n' + ",\n".join(self._rows.values())
                + f'\n], "summary": {json.dumps(summary)}}}\n')
        with contextlib.suppress(OSError):  # the final report says so if the path cannot be written
            replace_file(self.path, text)


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
