"""What the supervisor learns about a target: which items build their own instances, and the jobs it asks for."""

from __future__ import annotations

from typing import Any

import pytest

from conformance._engine.jobs import run_items, run_trace, warm_target
from conformance._engine.messages import ItemsJob, TraceJob, TraceResult, WarmJob
from conformance._engine.options import CaseParam
from conformance._engine.profiles import Costs
from conformance._engine.shelf import CONSTRUCTING_RULES, COSTLY_SECONDS
from conformance._engine.targetrun import (
    Items,
    TargetRun,
    Trace,
    builds_its_own,
    jobs_for,
)
from conformance._engine.targets import Target
from conformance._engine.zygote import Job


def _target() -> Target:
    def factory(**kwargs: Any) -> object:
        del kwargs
        return object()

    return Target("walk", "env", factory, (), "Walk")


def _measured(construct: float) -> TargetRun:
    return TargetRun(trace=TraceResult(costs=Costs(construct, 0.001, 0.001)))


@pytest.mark.parametrize("rule", sorted(CONSTRUCTING_RULES))
def test_a_rule_that_constructs_in_its_item_builds_its_own_on_a_costly_target_only(rule: str) -> None:
    param = CaseParam(rule, _target())
    assert builds_its_own(param, _measured(COSTLY_SECONDS))
    assert not builds_its_own(param, _measured(COSTLY_SECONDS / 10))  # cheap: nothing to schedule around
    assert not builds_its_own(param, TargetRun())  # not measured yet


def test_a_rule_the_shelf_serves_does_not_build_its_own() -> None:
    assert not builds_its_own(CaseParam("ENV-004", _target()), _measured(20.0))
    assert not builds_its_own(CaseParam(None, _target()), _measured(20.0))


def test_the_jobs_carry_what_is_known_of_the_target() -> None:
    facts = TargetRun(construct_error="the constructor hung", close_probe=False)
    param = CaseParam("ENV-004", _target())
    warm, job = jobs_for(param, facts, Items(("a", "b")))
    assert warm == Job.of(warm_target, WarmJob("walk", facts.facts().for_warm_up()).to_wire())
    assert job == Job.of(run_items, ItemsJob("walk", facts.facts(), ("a", "b")).to_wire())
    _, trace = jobs_for(param, facts, Trace(("ENV-006",), 3, measure=False))
    assert trace == Job.of(run_trace, TraceJob("walk", facts.facts(), ("ENV-006",), 3, False).to_wire())
