"""Baselines: stable fingerprints, required reasons, accepted / new / fixed findings, and a written file that reads
back with its reasons kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.baseline import Baseline, BaselineError, fingerprint, write_baseline
from conformance.results import RuleResult

_TARGET = "pkg.envs:GridEnv"
_HEAD = "ENV-006 (MUST) violated by pkg.envs:GridEnv: "

numbers = st.one_of(st.integers(-10**9, 10**9).map(str), st.floats(allow_nan=False, allow_infinity=False).map(repr))


@given(numbers, numbers, st.sampled_from(["'a'", "'bb'", '"x y"']))
def test_the_drawn_example_does_not_change_the_fingerprint(first: str, second: str, quoted: str) -> None:
    one = _HEAD + f"the reset at position {first} returned obs[{second}] = {quoted} above the high bound 1.0"
    other = _HEAD + "the reset at position 0 returned obs[3] = 'z' above the high bound 2.5"
    assert fingerprint("ENV-006", _TARGET, one) == fingerprint("ENV-006", _TARGET, other)


def test_another_problem_rule_or_target_has_another_fingerprint() -> None:
    message = _HEAD + "the reset at position 0 returned an observation outside observation_space"
    base = fingerprint("ENV-006", _TARGET, message)
    assert fingerprint("ENV-006", _TARGET, _HEAD + "reset returned a list, not a tuple") != base
    assert fingerprint("ENV-007", _TARGET, message) != base
    assert fingerprint("ENV-006", "pkg.envs:Other", message) != base
    # Only the first line counts: the details below it (actual values, tracebacks) vary.
    assert fingerprint("ENV-006", _TARGET, message + "\n  actual: 3.5") == base


def _file(tmp_path: Path, accepted: object) -> Path:
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"schema": 1, "accepted": accepted}), encoding="utf-8")
    return path


def _entry(reason: str = "tracked in #12", rule: str = "ENV-006") -> dict[str, str]:
    message = _HEAD.replace("ENV-006", rule) + "obs[1] out of bounds"
    return {"target": _TARGET, "rule": rule, "fingerprint": fingerprint(rule, _TARGET, message), "reason": reason}


@pytest.mark.parametrize("reason", ["", "   "])
def test_an_entry_without_a_reason_is_refused(tmp_path: Path, reason: str) -> None:
    with pytest.raises(BaselineError, match=r"entry 0 \(ENV-006 on pkg.envs:GridEnv\) must have a reason"):
        Baseline.load(_file(tmp_path, [_entry(reason)]))


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("{not json", "must be a readable JSON file"),
        ('{"schema": 2, "accepted": []}', "must be"),
        ('{"schema": 1, "accepted": [3]}', "entry 0 must be an object"),
        ('{"schema": 1, "accepted": [{"target": "t", "reason": "r"}]}', "rule, fingerprint"),
    ],
)
def test_malformed_files_are_named(tmp_path: Path, content: str, match: str) -> None:
    path = tmp_path / "b.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(BaselineError, match=match):
        Baseline.load(path)


def test_a_missing_file_says_how_to_write_one(tmp_path: Path) -> None:
    with pytest.raises(BaselineError, match="--conformance-write-baseline"):
        Baseline.load(tmp_path / "none.json")


def test_accepting_and_fixed(tmp_path: Path) -> None:
    baseline = Baseline.load(_file(tmp_path, [_entry(), _entry(rule="SEED-008")]))
    assert baseline.accepting(_TARGET, "ENV-006", _HEAD + "obs[7] out of bounds") is not None
    assert baseline.accepting(_TARGET, "ENV-006", _HEAD + "a different problem") is None
    assert baseline.accepting("other:Env", "ENV-006", _HEAD + "obs[1] out of bounds") is None
    ran = [(_TARGET, "ENV-006"), (_TARGET, "SEED-008")]
    found = [(_TARGET, "ENV-006", baseline.entries[0].fingerprint)]
    assert [e.rule for e in baseline.fixed(ran, found)] == ["SEED-008"]
    # An entry whose item did not run (left out by --rules, another shard) is not fixed.
    assert baseline.fixed([(_TARGET, "ENV-006")], found) == []


def test_written_baselines_read_back_and_keep_reasons(tmp_path: Path) -> None:
    findings = [
        RuleResult("ENV-006", _TARGET, "MUST", "failed", _HEAD + "obs[2] out of bounds"),
        RuleResult("ENV-006", _TARGET, "MUST", "failed", _HEAD + "obs[5] out of bounds"),
        RuleResult("ENV-019", _TARGET, "SHOULD", "warned", "ENV-019 (SHOULD) violated: s"),
        RuleResult("ENV-001", _TARGET, "MUST", "passed"),
    ]
    keep = Baseline.load(_file(tmp_path, [_entry("known since 1.0")]))
    path = write_baseline(tmp_path / "out" / "baseline.json", findings, keep)
    data = json.loads(path.read_text())
    assert [(e["rule"], e["reason"]) for e in data["accepted"]] == [("ENV-006", "known since 1.0"), ("ENV-019", "")]
    with pytest.raises(BaselineError, match="must have a reason"):  # the new entry's reason is still to be written
        Baseline.load(path)
