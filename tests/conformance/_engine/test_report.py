"""The JSON report on disk: written atomically at the end and kept valid while the run goes on; its schema, table and
summary (conformance.results) are tested in tests/conformance/test_results.py."""

from __future__ import annotations

import json
import time
from typing import Any
from pathlib import Path

import pytest

from conformance._engine.report import PROPERTY, LiveReport, record_of, with_record, write_report
from conformance.results import OUTCOMES, Report, RuleResult
from tests.conformance._records import sample_results


def test_report_schema(tmp_path: Path) -> None:
    path = write_report(tmp_path / "out" / "report.json", Report(tuple(sample_results()), run={"profile": "quick"}))
    report = json.loads(path.read_text())
    assert report["schema"] == 2
    assert set(report) == {"schema", "results", "summary"}
    for record in report["results"]:
        assert {"target", "rule", "level", "outcome", "message", "reproducer"} <= set(record)
        assert record["outcome"] in OUTCOMES
    summary = report["summary"]
    assert [summary[outcome] for outcome in OUTCOMES] == [1, 1, 1, 1, 1, 0]  # nothing accepted: no baseline
    assert summary["by_target"]["env-a"]["failed"] == 1
    assert summary["failing"] == ["CONSTRUCT@env-b", "ENV-009@env-a"]
    assert summary["run"] == {"profile": "quick"}
    assert Report(()).summary()["total"] == 0


def test_a_run_killed_before_its_first_item_leaves_an_empty_incomplete_report(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    path.write_text('{"results": [{"rule": "ENV-001", "outcome": "passed"}]}')  # an earlier run's report
    LiveReport(path).begin({"profile": "quick"})
    report = json.loads(path.read_text())
    assert report["results"] == [] and report["summary"]["total"] == 0
    assert report["summary"]["run"] == {"profile": "quick", "incomplete": True}


def test_the_live_report_is_valid_after_every_item_and_marked_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LiveReport, "_CHEAP", float("inf"))  # a loaded machine's slow write must not space updates
    monkeypatch.setattr(LiveReport, "_SPACING", 0.0)
    path = tmp_path / "live" / "report.json"
    live = LiveReport(path)
    for count, result in enumerate(sample_results(), start=1):
        live.update(result, {"profile": "quick"})
        report = json.loads(path.read_text())  # what a kill now would leave
        assert len(report["results"]) == count and report["summary"]["total"] == count
        assert report["summary"]["run"] == {"profile": "quick", "incomplete": True}
    live.update(RuleResult("ENV-001", "env-a", "MUST", "failed", nodeid="a1"), {"profile": "quick"})
    report = json.loads(path.read_text())
    assert len(report["results"]) == 5 and report["summary"]["failed"] == 2  # a record replaced, not added


def test_the_live_report_is_written_once_an_item_has_ended_not_after_each_phase(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LiveReport, "_CHEAP", float("inf"))
    monkeypatch.setattr(LiveReport, "_SPACING", 0.0)
    path = tmp_path / "report.json"
    live = LiveReport(path)
    writes: list[int] = []
    monkeypatch.setattr(LiveReport, "_write", lambda self, meta: writes.append(len(self._rows)))
    for phase in ("setup", "call", "teardown"):  # one item's phases, each merged into its record
        live.update(RuleResult("ENV-001", "env-a", "MUST", "passed", phase, nodeid="a1"))
    assert writes == []
    live.flush({"profile": "quick"})
    live.flush({"profile": "quick"})  # nothing new: no second write
    assert writes == [1]


def test_the_live_report_is_written_at_most_every_half_second(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    live = LiveReport(tmp_path / "report.json")
    writes: list[int] = []
    monkeypatch.setattr(LiveReport, "_write", lambda self, meta: writes.append(len(self._rows)))
    for index in range(10):  # ten items ending within 0.1 s
        live.update(RuleResult("ENV-001", "env-a", "MUST", "passed", nodeid=f"a{index}"))
        live.flush({})
        clock[0] += 0.01
    assert writes == [1]
    clock[0] += LiveReport._SPACING  # pyright: ignore[reportPrivateUsage]
    live.flush({})
    assert writes == [1, 10]


def test_a_reports_record_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The runner, the reporter and the progress lines each read the record a report carries: one reading serves."""
    reads: list[object] = []
    real = RuleResult.from_dict.__func__  # type: ignore[attr-defined]

    def counting(cls: type[RuleResult], record: Any) -> RuleResult:
        reads.append(record)
        found: RuleResult = real(cls, record)
        return found

    monkeypatch.setattr(RuleResult, "from_dict", classmethod(counting))
    report = pytest.TestReport("n", ("f", 1, "d"), {}, "passed", None, "call")
    with_record(report, RuleResult("ENV-001", "t", "MUST", "passed", nodeid="n"))
    assert record_of(report) is record_of(report)
    assert reads == []  # the record it was given serves
    carried = RuleResult("ENV-002", "t", "MUST", "failed", nodeid="n").to_dict()
    other = pytest.TestReport("n", ("f", 1, "d"), {}, "failed", None, "call", user_properties=[(PROPERTY, carried)])
    assert [getattr(record_of(other), "rule", None) for _ in range(3)] == ["ENV-002"] * 3
    assert len(reads) == 1
