"""Observers: the shared run gives each its own verdict; a failure there shrinks again in the observer's item."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import conformance.test_env  # noqa: F401 - registers the ENV observers
from conformance._engine.case import Case
from conformance._engine.messages import ObserverVerdict
from conformance._engine.observe import OBSERVERS, run_dedicated, run_shared
from conformance._engine.outcomes import RuleFailure
from conformance._engine.profiles import PROFILES
from conformance._engine.state import TargetState
from conformance._engine.targets import TargetsRequest, resolve_targets
from conformance._engine.watchdog import Watchdog
from gymspec.rules import RULES

_BROKEN = "tests.meta.broken"
_ENV_RULES = [rule_id for rule_id in OBSERVERS if rule_id.startswith("ENV-")]


@pytest.fixture
def watchdog() -> Iterator[Watchdog]:
    dog = Watchdog(30.0)
    yield dog
    dog.shutdown()


def _case(spec: str, rule_id: str, watchdog: Watchdog) -> Case:
    (target,) = resolve_targets(TargetsRequest(envs=[spec]))
    state = TargetState(target, watchdog)
    owns = OBSERVERS[rule_id].owns if rule_id in OBSERVERS else ()
    return Case(RULES[rule_id], state, PROFILES["quick"], watchdog, owns=owns)


def test_every_observer_passes_on_a_correct_env(watchdog: Watchdog) -> None:
    case = _case(f"{_BROKEN}._base:Walk", "ENV-009", watchdog)
    verdicts = watchdog.run(lambda: run_shared(case, _ENV_RULES))
    assert set(verdicts) == set(_ENV_RULES)
    assert {rule: verdict.outcome for rule, verdict in verdicts.items()} == dict.fromkeys(_ENV_RULES, "passed")
    assert case.steps > 0 and case.examples > 0


def test_only_the_broken_rule_fails_and_it_keeps_a_reproducer(watchdog: Watchdog) -> None:
    case = _case(f"{_BROKEN}.env:Env009StepOutside", "ENV-009", watchdog)
    verdicts = watchdog.run(lambda: run_shared(case, _ENV_RULES))
    failed = {rule for rule, verdict in verdicts.items() if verdict.outcome == "failed"}
    assert failed == {"ENV-009"}
    report = verdicts["ENV-009"].failure
    assert report is not None
    failure = RuleFailure.from_report(report)
    assert failure.rule_id == "ENV-009" and "env.step" in failure.reproducer
    assert failure.message() == report["message"]


def test_an_exception_of_step_fails_its_owner_and_skips_the_others(watchdog: Watchdog) -> None:
    case = _case(f"{_BROKEN}.env:Env016RejectsAction", "ENV-016", watchdog)
    verdicts = watchdog.run(lambda: run_shared(case, _ENV_RULES))
    assert verdicts["ENV-016"].outcome == "failed"
    others = {verdict.outcome for rule, verdict in verdicts.items() if rule != "ENV-016"}
    assert others <= {"passed", "skipped"} and "skipped" in others
    skipped = next(v for r, v in verdicts.items() if v.outcome == "skipped")
    assert "reported by ENV-016" in skipped.message


def test_a_dedicated_run_shrinks_the_shared_failure_again(watchdog: Watchdog) -> None:
    case = _case(f"{_BROKEN}.env:Env009StepOutside", "ENV-009", watchdog)
    with pytest.raises(RuleFailure) as raised:
        run_dedicated(case, OBSERVERS["ENV-009"])
    assert raised.value.rule_id == "ENV-009"


def test_a_shared_failure_the_search_misses_is_reported_as_found(watchdog: Watchdog) -> None:
    case = _case(f"{_BROKEN}._base:Walk", "ENV-011", watchdog)
    shared = _case(f"{_BROKEN}.env:Env009StepOutside", "ENV-009", watchdog)
    verdicts = watchdog.run(lambda: run_shared(shared, ["ENV-009"]))
    found = verdicts["ENV-009"].failure
    assert found is not None
    case.state.verdicts = {"ENV-011": ObserverVerdict("failed", failure={**found, "rule_id": "ENV-011"})}
    with pytest.raises(RuleFailure) as raised:
        run_dedicated(case, OBSERVERS["ENV-011"])
    assert raised.value.rule_id == "ENV-011"
