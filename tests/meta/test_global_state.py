"""The suite's outcomes do not depend on the process-wide state a target changes (warning filters, logging, NumPy
print options, signal handlers), at import or while it runs: a correct target passes everything, and a SHOULD
violation stays a warning though the target made every warning an error."""

from __future__ import annotations

import pytest

from tests.meta._run import SuiteRun, run_suite

_MODULE = "tests.meta.broken.global_state"
_CORRECT = f"{_MODULE}:HostileCorrect"
_SHOULD = f"{_MODULE}:HostileFloat16"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> SuiteRun:
    args = ["--conformance-profile", "quick", "--env", _CORRECT, "--env", _SHOULD]
    return run_suite(args, tmp_path_factory.mktemp("global_state") / "report.json")


def test_a_correct_target_that_changes_global_state_passes(suite: SuiteRun) -> None:
    outcomes = suite.outcomes(_CORRECT)
    assert "CONSTRUCT" in outcomes and len(outcomes) > 50, outcomes  # every item ran
    problems = {rule: outcome for rule, outcome in outcomes.items() if outcome not in ("passed", "skipped")}
    assert not problems, problems


def test_a_should_violation_stays_a_warning_under_the_targets_error_filter(suite: SuiteRun) -> None:
    outcomes = suite.outcomes(_SHOULD)
    assert outcomes["ENV-010"] == "warned", suite.result(_SHOULD, "ENV-010")["message"]
    problems = {rule: outcome for rule, outcome in outcomes.items() if rule != "ENV-010" and outcome != "passed"
                and outcome != "skipped"}
    assert not problems, problems
