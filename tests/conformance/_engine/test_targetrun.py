"""The jobs the runner asks for a target carry what it has learnt of that target."""

from __future__ import annotations

from typing import Any, cast

import pytest

from conformance._engine.jobs import run_items, run_trace, warm_target
from conformance._engine.messages import Finished, Hung, ItemsJob, TraceJob, WarmJob
from conformance._engine.options import CaseParam
from conformance._engine.processes import Snapshot
from conformance._engine.supervisor import Supervisor
from conformance._engine.targetrun import Items, TargetRun, Trace, jobs_for, supervised
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


class _Supervisor:
    """What supervised() asks of a supervisor: it runs each job again to a return, and counts the runs."""

    def __init__(self, mode: str) -> None:
        self.mode, self.runs = mode, 0

    def isolation(self, key: str) -> tuple[str, str]:
        return self.mode, ""

    def isolate(self, key: str, reason: str) -> bool:
        return False

    def run(self, key: str, warm: Job, job: Job) -> Finished:
        self.runs += 1
        return Finished(None, 0.0)


_HUNG_CALL = Snapshot(1, True, 1.0, 1.0, 1, "reset", "", "env.reset()", "")


@pytest.mark.parametrize(
    ("cause", "mode", "rerun"),
    [
        ("busy", "fork", False),  # a loop that had its CPU: a rerun waits as long again (longer under load)
        ("asleep", "spawn", False),  # blocked in a process that never forked from a warm one: no lock was copied
        ("asleep", "fork", True),  # a fork may have copied a lock its process then waits for
        ("starved", "spawn", True),  # the machine stalled it: it may pass now
        ("", "fork", True),
    ],
)
def test_a_first_hang_is_run_again_only_when_it_may_not_be_the_targets(cause: str, mode: str, rerun: bool) -> None:
    supervisor = _Supervisor(mode)
    facts = TargetRun()
    hung = Hung(6.0, _HUNG_CALL, 7.0, cause=cause)
    outcome = supervised(cast(Supervisor, supervisor), CaseParam("ENV-004", _target()), facts, Items(("a",)),
                         first=hung)
    assert supervisor.runs == int(rerun) and facts.reran_hang is rerun
    assert outcome == (Finished(None, 0.0) if rerun else hung)
