"""The JSON report has the documented schema, and the terminal table groups outcomes by target and area."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance._engine.report import (
    OUTCOMES,
    LiveReport,
    Result,
    build_report,
    format_effort,
    format_table,
    isolation_notes,
    not_checked,
    write_report,
)


def _results() -> list[Result]:
    return [
        Result("env-a", "ENV-001", "MUST", "passed", nodeid="a1"),
        Result("env-a", "ENV-009", "MUST", "failed", "ENV-009 (MUST) violated", "env.step(1)", "a2"),
        Result("env-a", "RENDER-003", "SHOULD", "warned", nodeid="a3"),
        Result("env-b", "CONSTRUCT", "MUST", "error", nodeid="b0"),
        Result("env-b", "SEED-001", "MUST", "skipped", "not applicable", nodeid="b1"),
    ]


def test_report_schema(tmp_path: Path) -> None:
    path = write_report(tmp_path / "out" / "report.json", _results(), {"profile": "quick"})
    report = json.loads(path.read_text())
    assert report["schema"] == 1
    assert set(report) == {"schema", "results", "summary"}
    for record in report["results"]:
        assert {"target", "rule", "level", "outcome", "message", "reproducer"} <= set(record)
        assert record["outcome"] in OUTCOMES
    summary = report["summary"]
    assert [summary[outcome] for outcome in OUTCOMES] == [1, 1, 1, 1, 1, 0]  # nothing accepted: no baseline
    assert summary["by_target"]["env-a"]["failed"] == 1
    assert summary["failing"] == ["CONSTRUCT@env-b", "ENV-009@env-a"]
    assert summary["run"] == {"profile": "quick"}
    assert build_report([], {})["summary"]["total"] == 0


def test_merge_keeps_the_most_severe_phase() -> None:
    call = Result("t", "ENV-001", "MUST", "passed", nodeid="n")
    teardown = Result("t", "ENV-001", "MUST", "error", "teardown broke", nodeid="n")
    assert call.merge(teardown).outcome == "error"
    assert teardown.merge(call).outcome == "error"


def test_table_has_one_sorted_row_per_target() -> None:
    lines = format_table(list(reversed(_results())))
    # The accepted column shows only where a baseline accepted a finding.
    assert lines[0].split() == ["target", *OUTCOMES[:-1], "examples", "steps", "seconds", "peak", "MiB"]
    accepted = format_table([*_results(), Result("env-b", "ENV-009", "MUST", "accepted")])
    assert accepted[0].split()[1:7] == list(OUTCOMES)
    rows = [line.split() for line in lines[1:]]
    assert [row[0] for row in rows] == ["env-a", "env-b"]
    assert rows[0][1:6] == ["1", "1", "1", "0", "0"]
    assert rows[1][1:6] == ["0", "0", "0", "1", "1"]


def test_effort_counts_a_shared_trace_once_per_area() -> None:
    shared = [Result("t", f"ENV-00{i}", "MUST", "passed", examples=15, steps=1200) for i in (5, 6, 7)]
    own = Result("t", "SEED-001", "MUST", "passed", examples=4, steps=300, seconds=0.5)
    assert format_effort([*shared, own]) == ["t: ENV 1200 steps/15 examples, SEED 300 steps/4 examples"]


def test_a_target_with_errors_is_not_checked_and_its_isolation_is_noted() -> None:
    results = [*_results(), Result("env-b", "SEED-002", "MUST", "error", nodeid="b2", isolation="spawn — 3 threads")]
    assert not_checked(results) == {"env-b": 2}
    assert isolation_notes(results) == {"env-b": "spawn — 3 threads"}
    summary = build_report(results, {})["summary"]
    assert summary["not_checked"] == {"env-b": 2} and summary["isolation"] == {"env-b": "spawn — 3 threads"}


def test_the_live_report_is_valid_after_every_item_and_marked_incomplete(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(LiveReport, "_CHEAP", float("inf"))  # a loaded machine's slow write must not space updates
    path = tmp_path / "live" / "report.json"
    live = LiveReport(path)
    for count, result in enumerate(_results(), start=1):
        live.update(result, {"profile": "quick"})
        report = json.loads(path.read_text())  # what a kill now would leave
        assert len(report["results"]) == count and report["summary"]["total"] == count
        assert report["summary"]["run"] == {"profile": "quick", "incomplete": True}
    live.update(Result("env-a", "ENV-001", "MUST", "failed", nodeid="a1"), {"profile": "quick"})
    report = json.loads(path.read_text())
    assert len(report["results"]) == 5 and report["summary"]["failed"] == 2  # a record replaced, not added
