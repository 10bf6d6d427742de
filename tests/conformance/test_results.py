"""``Report`` and ``RuleResult``: the JSON schema round trip and its documentation, accessors, tables and summary,
and which violations raise."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance import ConformanceError, Report, RuleResult
from conformance._engine.report import write_report
from conformance.results import OUTCOMES, Evidence, Outcome, RaiseOn, schema_markdown
from tests.conformance._records import sample_results

_OUTCOMES: tuple[Outcome, ...] = ("passed", "failed", "warned", "skipped", "error")
_RULES = ("CONSTRUCT", "ENV-001", "ENV-011", "SEED-004", "RENDER-005", "VEC-010", "FUNC-008")


_COUNTS = st.integers(0, 10_000)


def _evidence() -> st.SearchStrategy[Evidence]:
    names = st.text("abcdefgh_ ", min_size=1, max_size=12)
    return st.builds(
        Evidence, examples=_COUNTS, constructions=_COUNTS, instances=_COUNTS, processes=_COUNTS, steps=_COUNTS,
        ends=_COUNTS, terminated=_COUNTS, truncated=_COUNTS, both=_COUNTS, longest=_COUNTS, seeded_resets=_COUNTS,
        unseeded_resets=_COUNTS, autoresets=_COUNTS, autoreset_envs=_COUNTS, after_autoreset=_COUNTS,
        renders=st.dictionaries(st.sampled_from(("", "rgb_array", "ansi")), _COUNTS.filter(bool)),
        renders_after_step=_COUNTS, judged=st.dictionaries(names, _COUNTS.filter(bool)),
    )


@st.composite
def _results(draw: st.DrawFn, target: str | None = None) -> RuleResult:
    rule = draw(st.sampled_from(_RULES))
    outcome = draw(st.sampled_from(_OUTCOMES))
    level = "SHOULD" if outcome == "warned" else draw(st.sampled_from(("MUST", "MUST NOT", "SHOULD")))
    message = "" if outcome == "passed" else f"{rule} ({level}) violated by t: " + draw(st.text(max_size=20))
    return RuleResult(
        rule=rule,
        target=target if target is not None else draw(st.sampled_from(("a:Env", "b:Env instance"))),
        level=level,
        outcome=outcome,
        message=message,
        reproducer="import numpy as np\nenv = Env()" if outcome in ("failed", "warned") else "",
        nodeid=f"conformance/test_env.py::test_x[{rule}-t]",
        evidence=draw(_evidence()),
        seconds=draw(st.integers(0, 10**6)) / 1000,
    )


def _reports(target: str | None = None) -> st.SearchStrategy[Report]:
    return st.builds(
        Report,
        results=st.lists(_results(target), max_size=30).map(tuple),
        seconds=st.integers(0, 10**5).map(lambda n: n / 100),
        run=st.fixed_dictionaries({"profile": st.sampled_from(("quick", "default"))}),
    )


@given(_reports())
def test_json_round_trip(report: Report) -> None:
    assert Report.from_json(report.to_json()) == report
    data = json.loads(report.to_json(indent=None))
    assert data["schema"] == 2 and data["summary"]["total"] == len(report)


@given(_reports())
def test_outcome_accessors_partition_the_results(report: Report) -> None:
    groups = (report.passed, report.failed, report.warned, report.skipped, report.errors)
    assert sorted(map(id, report)) == sorted(id(result) for group in groups for result in group)
    assert sum(report.counts.values()) == len(report)
    assert report.ok == (not report.failed and not report.errors)


@given(_reports(), st.sampled_from(("must", "should", "never")))
def test_what_raises(report: Report, raise_on: RaiseOn) -> None:
    expected = {"must": ("failed", "error"), "should": ("failed", "error", "warned"), "never": ()}[raise_on]
    violating = [result for result in report if result.outcome in expected]
    if not violating:
        report.raise_for_violations(raise_on)
        return
    with pytest.raises(ConformanceError) as raised:
        report.raise_for_violations(raise_on)
    assert list(raised.value.violations) == violating and raised.value.report is report
    assert all(result.rule in str(raised.value).splitlines()[0] for result in violating)


def test_indexing_by_rule_and_target() -> None:
    one = RuleResult("ENV-011", "a:Env", "MUST", "failed", "ENV-011 (MUST) violated by a:Env: bad reward")
    other = RuleResult("ENV-011", "b:Env", "MUST", "passed")
    report = Report((one, RuleResult("SEED-004", "a:Env", "SHOULD", "passed")))
    assert report["env-011"] is one and "ENV-011" in report and "VEC-001" not in report
    with pytest.raises(KeyError, match="VEC-001 did not run"):
        report["VEC-001"]
    both = Report((one, other))
    with pytest.raises(KeyError, match=r"index with \(rule, target\)"):
        both["ENV-011"]
    assert both["ENV-011", "b:Env"] is other


def test_text_forms() -> None:
    failed = RuleResult("ENV-011", "a:Env", "MUST", "failed", "ENV-011 (MUST) violated by a:Env: bad reward\n  more",
                        reproducer="env = Env()\nenv.step(0)")
    errored = RuleResult("ENV-004", "a:Env", "MUST", "error", "the item's process died")
    report = Report((RuleResult("CONSTRUCT", "a:Env", "MUST", "passed"), failed, errored), seconds=1.25)
    text = str(report)
    assert text.splitlines()[0].split()[:3] == ["target", "passed", "failed"]
    assert "FAILED  ENV-011 (MUST) violated by a:Env: bad reward" in text
    assert "ERROR   ENV-004 (MUST) [a:Env] the item's process died" in text
    assert text.endswith("1 passed, 1 failed, 0 warned, 0 skipped, 1 error in 1.2 s")
    assert repr(report) == "<Report a:Env: passed=1, failed=1, warned=0, skipped=0, error=1>"
    assert failed.details().endswith("  reproducer:\n    env = Env()\n    env.step(0)")


def test_reads_what_the_suite_writes(tmp_path: Path) -> None:
    written = Report((RuleResult("ENV-001", "x:Env", "MUST", "passed", seconds=0.5),), run={"p": 1})
    path = write_report(tmp_path / "r.json", written)
    report = Report.from_json(path.read_text())
    assert report["ENV-001"] == RuleResult("ENV-001", "x:Env", "MUST", "passed", seconds=0.5)
    assert report.run == {"p": 1}


def test_malformed_reports_are_rejected() -> None:
    with pytest.raises(ValueError, match="schema-1 or schema-2 conformance report"):
        Report.from_dict({"schema": 3, "results": []})
    with pytest.raises(ValueError, match="Evidence steps must be an int"):
        RuleResult.from_dict({"rule": "ENV-001", "target": "t", "level": "MUST", "outcome": "passed",
                              "evidence": {"steps": "many"}})
    with pytest.raises(ValueError, match="Evidence judged must be a mapping of str to int"):
        RuleResult.from_dict({"rule": "ENV-001", "target": "t", "level": "MUST", "outcome": "passed",
                              "evidence": {"judged": {"ends": 1.5}}})
    with pytest.raises(ValueError, match="outcome must be one of"):
        RuleResult.from_dict({"rule": "ENV-001", "target": "t", "level": "MUST", "outcome": "green"})
    with pytest.raises(ValueError, match="raise_on must be one of"):
        Report(()).raise_for_violations("always")  # type: ignore[arg-type]



def test_a_schema_1_record_is_read_with_its_examples_and_steps_as_evidence() -> None:
    record = {"rule": "ENV-011", "target": "t", "level": "MUST", "outcome": "passed", "examples": 3, "steps": 90}
    assert RuleResult.from_dict(record).evidence == Evidence(examples=3, steps=90)


def test_a_pass_says_what_it_observed() -> None:
    evidence = Evidence(examples=15, steps=412, ends=9, judged={"terminal steps replayed": 2})
    result = RuleResult("ENV-011", "t", "MUST", "passed", evidence=evidence)
    assert str(result).endswith("(on 412 steps, 9 episode ends, 15 examples, 2 terminal steps replayed)")
    assert Evidence().describe() == "no calls"
    assert Evidence(renders={"rgb_array": 1}).describe() == "1 frame"


@given(_evidence(), _evidence())
def test_merged_evidence_keeps_the_larger_count_of_each(a: Evidence, b: Evidence) -> None:
    merged = a.merged(b)
    for name in ("steps", "ends", "renders", "examples", "autoreset_envs"):
        assert merged.count(name) >= max(a.count(name), b.count(name))
    assert Evidence.from_dict(merged.to_dict()) == merged


def test_merge_keeps_the_most_severe_phase() -> None:
    call = RuleResult("ENV-001", "t", "MUST", "passed", nodeid="n")
    teardown = RuleResult("ENV-001", "t", "MUST", "error", "teardown broke", nodeid="n")
    assert call.merge(teardown).outcome == "error"
    assert teardown.merge(call).outcome == "error"


def test_table_has_one_sorted_row_per_target() -> None:
    lines = Report(tuple(reversed(sample_results()))).table()
    # The accepted column shows only where a baseline accepted a finding.
    assert lines[0].split() == ["target", *OUTCOMES[:-1], "examples", "steps", "ends", "seconds", "target", "s", "peak", "MiB"]
    accepted = Report((*sample_results(), RuleResult("ENV-009", "env-b", "MUST", "accepted"))).table()
    assert accepted[0].split()[1:7] == list(OUTCOMES)
    rows = [line.split() for line in lines[1:]]
    assert [row[0] for row in rows] == ["env-a", "env-b"]
    assert rows[0][1:6] == ["1", "1", "1", "0", "0"]
    assert rows[1][1:6] == ["0", "0", "0", "1", "1"]


def test_effort_counts_a_shared_trace_once_per_area() -> None:
    shared = [RuleResult(f"ENV-00{i}", "t", "MUST", "passed", evidence=Evidence(examples=15, steps=1200)) for i in (5, 6, 7)]
    own = RuleResult("SEED-001", "t", "MUST", "passed", evidence=Evidence(examples=4, steps=300), seconds=0.5)
    assert Report((*shared, own)).effort() == ["t: ENV 1200 steps/15 examples, SEED 300 steps/4 examples"]


def test_a_target_with_errors_is_not_checked_and_its_isolation_is_noted() -> None:
    results = [*sample_results(), RuleResult("SEED-002", "env-b", "MUST", "error", nodeid="b2", isolation="spawn — 3 threads")]
    report = Report(tuple(results))
    assert report.not_checked == {"env-b": 2}
    assert report.isolation == {"env-b": "spawn — 3 threads"}
    summary = report.summary()
    assert summary["not_checked"] == {"env-b": 2} and summary["isolation"] == {"env-b": "spawn — 3 threads"}


def test_a_rule_not_about_the_target_is_counted_apart_from_the_skips() -> None:
    results = (
        RuleResult("ENV-022", "t", "MUST", "skipped", "ENV-022 not applicable to t: the env declares no step limit"),
        RuleResult("ENV-023", "t", "MUST", "skipped", "ENV-023 not observed on t: no episode ended"),
        RuleResult("VEC-007", "t", "MUST", "skipped", "VEC-007 not checked on t: ... (reported by VEC-001)"),
        RuleResult("ENV-001", "t", "MUST", "failed", "ENV-001 not applicable to t: a failure's text is no skip"),
    )
    assert [result.not_applicable for result in results] == [True, False, False, False]
    pytest_counts = Report(results).summary()["pytest"]
    assert (pytest_counts["skipped"], pytest_counts["not applicable"], pytest_counts["failed"]) == (2, 1, 1)


def test_the_documented_schema_is_the_one_written() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "report.md").read_text(encoding="utf-8")
    assert doc == schema_markdown(), "docs/report.md is stale: python -m conformance --report-schema > docs/report.md"
    record = RuleResult("ENV-001", "t", "MUST", "passed").to_dict()
    summary = Report((RuleResult("ENV-001", "t", "MUST", "passed"),)).summary()
    for key in (*record, *summary):
        assert f"| `{key}` |" in doc, f"{key} is written but not documented"
    evidence = [field.name for field in dataclasses.fields(Evidence)]
    documented = {line.split("`")[1] for line in doc.splitlines() if line.startswith("| `")}
    assert documented == {*record, *summary, *evidence}, "a documented key is no longer written"


@given(st.lists(_results(), max_size=6), st.lists(_results(), max_size=6))
def test_merged_phases_keep_the_worst_outcome(first: list[RuleResult], second: list[RuleResult]) -> None:
    for one, other in zip(first, second):
        merged = one.merge(other)
        assert OUTCOMES.index(merged.outcome) in (OUTCOMES.index(one.outcome), OUTCOMES.index(other.outcome))
        assert merged.seconds == one.seconds + other.seconds
        assert merged == RuleResult.from_dict(json.loads(json.dumps(merged.to_dict())))
