"""The JSON report has the documented schema, and the terminal table groups outcomes by target and area."""

from __future__ import annotations

import json
from pathlib import Path

from conformance._engine.report import OUTCOMES, Result, build_report, format_table, write_report


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
    assert [summary[outcome] for outcome in OUTCOMES] == [1, 1, 1, 1, 1]
    assert summary["by_target"]["env-a"]["failed"] == 1
    assert summary["failing"] == ["CONSTRUCT@env-b", "ENV-009@env-a"]
    assert summary["run"] == {"profile": "quick"}
    assert build_report([], {})["summary"]["total"] == 0


def test_merge_keeps_the_most_severe_phase() -> None:
    call = Result("t", "ENV-001", "MUST", "passed", nodeid="n")
    teardown = Result("t", "ENV-001", "MUST", "error", "teardown broke", nodeid="n")
    assert call.merge(teardown).outcome == "error"
    assert teardown.merge(call).outcome == "error"


def test_table_rows_follow_targets_then_catalog_areas() -> None:
    lines = format_table(list(reversed(_results())))
    assert lines[0].split() == ["target", "area", *OUTCOMES]
    rows = [line.split() for line in lines[1:]]
    assert rows[0][:2] == ["env-b", "CONSTRUCT"] and rows[1][0] == "SEED"
    assert rows[2][:2] == ["env-a", "ENV"] and rows[3][0] == "RENDER"
