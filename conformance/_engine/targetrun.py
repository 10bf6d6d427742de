"""What the supervisor learns about one target as its jobs end (:class:`TargetRun`), the requests it runs for it
(:class:`Items`, :class:`Trace`) and how one runs: a first hang confirmed in a fresh process (and, when the first
forked item stalled where the probe did not, in one that never probed the target), a zygote that died constructing
or closing the probe learnt as a fact its later jobs start from (:func:`supervised`).

:class:`~conformance._engine.runner.ItemRunner` keeps one :class:`TargetRun` per target and decides from it which items
run and in which job.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TypeAlias

from conformance._engine.jobs import run_items, run_trace, warm_target
from conformance._engine.messages import (
    Facts,
    Finished,
    Hung,
    Interrupted,
    ItemsJob,
    ObserverVerdict,
    Outcome,
    TraceJob,
    TraceResult,
    WarmJob,
)
from conformance._engine.options import CaseParam
from conformance._engine.supervisor import Supervisor, Ticket
from conformance._engine.verdicts import describe_ending as _ending
from conformance._engine.zygote import Job

__all__ = ["Items", "Request", "TargetRun", "Trace", "jobs_for", "supervised"]


@dataclass(frozen=True)
class Items:
    """Run these items of one target, in order, in one job (the facts are attached when it is submitted)."""

    nodeids: tuple[str, ...]


@dataclass(frozen=True)
class Trace:
    """Run a target's shared work: measure its costs, or run these observers on the shared rollouts."""

    rules: tuple[str, ...] = ()
    items: int = 1
    measure: bool = True


Request: TypeAlias = "Items | Trace"


@dataclass
class TargetRun:
    """What the supervisor learnt about one target, from the jobs that returned and from those that did not.

    Attributes:
        construct_error: Why the target cannot be constructed (its constructor killed or hung the zygote).
        hang: A hang outside any call the suite tracks (nothing started or ended for too long), and the item it hung:
            every later item of the target is decided without a job.
        hangs: Each shape of call (:func:`~conformance._engine.watchdog.call_shape`) that did not return within its
            limit, and the item it hung: a job refuses such a call at once, and the items that never make one run.
        blamed: The shapes whose hang an item reported as its rule's failure (one cause, one failure).
        single_instance: Why the target allows one live instance per process (a call on a second live instance
            never returned), ``""`` while that is not known.
        close_probe: Whether the zygote closes the instance it probed (not when closing it killed or hung one;
            ENV-020 reports that).
        reran_hang: Whether a job of the target has already been run again after it hung (once per target).
        trace: What the target's shared run found (:func:`~conformance._engine.jobs.run_trace`): the verdicts of its
            observers, the measured costs, the profile scaled to the budget, and the examples and steps it took.
        observing: The job running the observers on the shared rollouts, until its verdicts are in ``trace``
            (it runs beside the target's other items, which only need the profile).
        observers: The rules that job decides.
        hang_blamed: Whether a hang first met in the shared rollouts has been reported as an item's failure.
        outcomes: The record outcome of each of the target's items that has reported, by rule id (a skip that says
            another rule reports its cause stands only when that rule failed).
    """

    construct_error: str | None = None
    hang: tuple[Hung, str] | None = None
    hangs: dict[str, tuple[Hung, str]] = field(default_factory=dict[str, tuple[Hung, str]])
    blamed: set[str] = field(default_factory=set[str])
    single_instance: str = ""
    close_probe: bool = True
    reran_hang: bool = False
    trace: TraceResult | None = None
    observing: Ticket | None = None
    observers: frozenset[str] = frozenset()
    outcomes: dict[str, str] = field(default_factory=dict[str, str])
    hang_blamed: bool = False

    def facts(self) -> Facts:
        """What every job of the target learns before it does anything else."""
        trace = self.trace or TraceResult()
        return Facts(
            construct_error=self.construct_error,
            close_probe=self.close_probe,
            profile=trace.profile,
            first_costs=trace.first_costs,
            steady_costs={} if trace.costs is None else dataclasses.asdict(trace.costs),
            verdicts=trace.verdicts,
            hung={shape: f"{_ending(hang)}, first seen in {first}" for shape, (hang, first) in self.hangs.items()},
            single_instance=self.single_instance,
        )

    def shared_verdict(self, rule_id: str | None) -> ObserverVerdict | None:
        """The verdict the shared run reached for ``rule_id`` (``None``: not decided there)."""
        if self.trace is None or rule_id is None:
            return None
        return self.trace.verdicts.get(rule_id)


def jobs_for(param: CaseParam, facts: TargetRun, request: Request) -> tuple[Job, Job]:
    """The zygote's warm-up and the job for ``request`` on ``param``'s target, given what is known of it."""
    target = param.target
    known = facts.facts()
    warm = Job.of(warm_target, WarmJob(target.id, known.for_warm_up()).to_wire())
    if isinstance(request, Items):
        return warm, Job.of(run_items, ItemsJob(target.id, known, request.nodeids).to_wire())
    job = TraceJob(target.id, known, request.rules, request.items, request.measure)
    return warm, Job.of(run_trace, job.to_wire())


def _doubtful(supervisor: Supervisor, param: CaseParam, outcome: Hung) -> bool:
    """Whether a job's hang may be the machine's or the fork's doing rather than the target's, so that it is worth
    running again in a fresh process: not when its processes had their share of a CPU past the limit (a loop: the
    supervisor does not excuse it, and a rerun would only wait as long again, longer under load), nor when they all
    slept in a process that never forked from a warm one (a call blocked for good, not a lock a fork copied)."""
    if outcome.stage == "warm" or outcome.cause == "busy":
        return False
    return not (outcome.cause == "asleep" and supervisor.isolation(param.target.id)[0] == "spawn")


def supervised(
    supervisor: Supervisor, param: CaseParam, facts: TargetRun, request: Request, first: Outcome | None = None
) -> Outcome:
    """Run ``request`` for ``param``'s target in a job under ``supervisor`` (``first``: how it already ended once, to learn from);
    learn from a zygote that could not warm up."""
    target = param.target
    warm, job = jobs_for(param, facts, request)
    outcome = first if first is not None else supervisor.run(target.id, warm, job)
    confirm = isinstance(outcome, Hung) and facts.hang is None and not facts.reran_hang
    if isinstance(outcome, Hung) and confirm and _doubtful(supervisor, param, outcome):
        # A process can stall on a machine under heavy load, where a call of microseconds has been seen to
        # stay unfinished past the limit: the target's first hang is confirmed in a fresh process (a real hang
        # hangs again), once per target, so a hanging target costs one more timeout, not one per item.
        facts.reran_hang = True
        # A process forked from a probed one can stall where the probe did not: its threads or locks (an XLA
        # pool, a GL context) did not survive the fork. When the target's first job stalls, its rerun starts
        # from a process that never probed it; if that one returns, every later job does too.
        isolated = facts.trace is None and supervisor.isolate(
            target.id, f"its first forked item stalled ({_ending(outcome)}) where the probe did not")
        outcome = supervisor.run(target.id, warm, job)
        if isolated and isinstance(outcome, Hung):
            supervisor.unisolate(target.id)  # it hangs anywhere: a real hang, not the fork's
    if isinstance(outcome, Finished) or outcome.stage != "warm" or isinstance(outcome, Interrupted):
        return outcome
    # The zygote ended while constructing and probing the target. When closing the probe did it, a new zygote
    # leaves it open (ENV-020 reports close). Otherwise the constructor (or a property of a fresh instance)
    # kills or hangs a process: items learn it as a construction error, from a new zygote that does not
    # construct again.
    if outcome.board.method == "close" and facts.close_probe:
        facts.close_probe = False
        return supervised(supervisor, param, facts, request)
    if facts.construct_error is None:
        facts.construct_error = _ending(outcome)
        return supervised(supervisor, param, facts, request)
    return outcome

