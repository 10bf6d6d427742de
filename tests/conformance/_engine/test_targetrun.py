"""The jobs the runner asks for a target carry what it has learnt of that target."""

from __future__ import annotations

from typing import Any

from conformance._engine.jobs import run_items, run_trace, warm_target
from conformance._engine.messages import ItemsJob, TraceJob, WarmJob
from conformance._engine.options import CaseParam
from conformance._engine.targetrun import Items, TargetRun, Trace, jobs_for
from conformance._engine.targets import Target
from conformance._engine.zygote import Job


def _target() -> Target:
    def factory(**kwargs: Any) -> object:
        del kwargs
        return object()

    return Target("walk", "env", factory, (), "Walk")


def test_the_jobs_carry_what_is_known_of_the_target() -> None:
    facts = TargetRun(construct_error="the constructor hung", close_probe=False)
    param = CaseParam("ENV-004", _target())
    warm, job = jobs_for(param, facts, Items(("a", "b")))
    assert warm == Job.of(warm_target, WarmJob("walk", facts.facts().for_warm_up()).to_wire())
    assert job == Job.of(run_items, ItemsJob("walk", facts.facts(), ("a", "b")).to_wire())
    _, trace = jobs_for(param, facts, Trace(("ENV-006",), 3, measure=False))
    assert trace == Job.of(run_trace, TraceJob("walk", facts.facts(), ("ENV-006",), 3, False).to_wire())
