"""pytest items under the :class:`~conformance._engine.supervisor.Supervisor`: what each process runs, and how an
ending that is not a normal return becomes a rule-tagged report.

In the supervisor (the pytest process), :class:`ItemRunner` replaces pytest's own run of a conformance item: it asks
the supervisor to run the item in a fresh process forked from the target's zygote, then logs the reports that
process made, exactly as pytest would have. When the process crashed, hung, outgrew the memory cap or was
interrupted, it writes the report itself, tagged with the item's rule and naming the call in progress (from the
board). Facts learnt that way about a target (it hung; its constructor kills the process;
:mod:`conformance._engine.targetrun`) travel to the target's later items in the job payload, so they fail fast or
skip instead of paying for the same hang again.

What those processes run is in :mod:`conformance._engine.jobs`: in the zygote,
:func:`~conformance._engine.jobs.warm_target` imports, constructs and probes the target once; in each job process,
:func:`~conformance._engine.jobs.run_items` runs pytest's own protocol for a few items of one target, one after the
other, and hands over each one's serialized reports and warnings as soon as it has them.

A cheap target's items run in batches of a few per process (the fork and the first touches of a warm process cost
more than such an item): an ending that is not a return is still the item's in progress (the items before it have
handed over their results, those after it run again, together, in a new batch), and each item's peak memory is its
own. A target costly to construct runs one item per process when forked (each item gets its zygote's whole shelf of
untouched instances) and many per process when spawned (they share its recycled instances;
:mod:`conformance._engine.shelf`). Spawned jobs run in their zygote's worker, one after another
(:mod:`conformance._engine.worker`): the batches are what a crash ends, not what pays the import.
"""

from __future__ import annotations

import dataclasses
import functools
import warnings
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from conformance._engine.case import SINGLE_INSTANCE_RULE
from conformance._engine.describe import is_dict
from conformance._engine.jobs import share, warm_supervisor
from conformance._engine.messages import (
    Died,
    Facts,
    Failure,
    Finished,
    Hung,
    Interrupted,
    Outcome,
    TraceResult,
)
from conformance._engine.observe import OBSERVERS
from conformance._engine.options import CaseParam, item_param
from conformance._engine.processes import Snapshot
from conformance._engine.report import PROPERTY, TARGET_WARNINGS, record_of, with_record
from conformance._engine.shelf import COSTLY_SECONDS
from conformance._engine.supervisor import Supervisor, Ticket
from conformance._engine.targetrun import Items, TargetRun, Trace, jobs_for, supervised
from conformance._engine.verdicts import REPORTED_BY, RULE_ID, unreported, worse
from conformance._engine.verdicts import Verdict as _Verdict
from conformance._engine.verdicts import describe_ending as _ending
from conformance._engine.verdicts import owning_rule as _owner
from conformance._engine.verdicts import verdict as _verdict
from conformance._engine.watchdog import BESIDE, alone, kind_of
from conformance._engine.zygote import JSON
from conformance.results import CONSTRUCT, Evidence, RuleResult, rule_level
from conformance.rule_warnings import ConformanceWarning, warning_class

__all__ = ["ItemRunner"]

# Warning categories the supervisor may import by name: its own, and libraries the suite itself imports. A target's
# own category is not imported here (that would run target code in the supervisor): it is shown as a UserWarning.
_SAFE_CATEGORY_MODULES = ("builtins", "warnings", "conformance", "numpy", "hypothesis", "pytest", "_pytest")
_TOOLS = ("conformance", "hypothesis", "pytest", "_pytest")  # whose warnings are about the item, shown per item

_NO_CALL = Snapshot(0, False, 0.0, 0.0, 0, "", "", "", "")
_SHARED = "the shared rollouts"  # where a hang was first met when no item was in progress
_LOOKAHEAD = 64  # how far past the current item to look for items to start ahead
# Batches: a target whose construction, reset and step are this cheap, with observations this small, runs this many
# items per process.
_BATCH = 8
_BATCH_CALL_SECONDS = 0.05
_BATCH_STEP_SECONDS = 0.002
_BATCH_OBSERVATION_BYTES = 1 << 20
_COSTLY_SPAWN_BATCH = 24  # items per spawned job of a target costly to construct (shelf.py)


def _category(module: str, name: str) -> type[Warning] | None:
    if module.split(".")[0] not in _SAFE_CATEGORY_MODULES:
        return None
    try:
        found: Any = __import__(module, fromlist=[name])
        for part in name.split("."):
            found = getattr(found, part)
    except Exception:  # noqa: BLE001 - an unknown category is shown as a UserWarning
        return None
    return found if isinstance(found, type) and issubclass(found, Warning) else None


def _per_item(category: type[Warning]) -> bool:
    """Whether a warning is about the item (a SHOULD violation, the test tools' own), not about the target as a whole."""
    return issubclass(category, ConformanceWarning) or category.__module__.split(".")[0] in _TOOLS


@dataclass(frozen=True)
class _Ahead:
    """An item whose job started before pytest reached it: the job, the target facts it was given, and the item's
    place in the job's batch."""

    ticket: Ticket
    given: Facts
    index: int


def _recorded(data: Mapping[str, Any]) -> str:
    """The outcome a serialized report's record holds (``""`` without one)."""
    for key, value in data.get("user_properties") or ():
        if key == PROPERTY and is_dict(value):
            return str(value.get("outcome", ""))
    return ""


def _part(outcome: Outcome, index: int) -> Outcome | None:
    """Item ``index``'s outcome within the outcome of its batch's job: its own result, the job's ending when the item
    was in progress then, or ``None`` when it never ran (an earlier item ended the process)."""
    if isinstance(outcome, Interrupted):
        return outcome
    if index < len(outcome.parts):
        part: JSON = outcome.parts[index]
        if not is_dict(part) or "unreadable" in part:  # a part file the supervisor could not read (zygote.collect)
            why = part.get("unreadable") if is_dict(part) else "it holds no JSON object"
            return Died("exit code 0", _NO_CALL, outcome.seconds, detail=f"the item's result could not be read: {why}")
        peak: JSON = part.get("peak_mib")
        imported = outcome.imported if isinstance(outcome, Finished) else ()
        return Finished(part, outcome.seconds, imported, float(peak) if peak is not None else _peak_of(outcome))
    if isinstance(outcome, Finished):  # returned without handing over every item's result: the suite's own bug
        detail = f"the job returned without a result for its item {index}"
        return Died("exit code 0", _NO_CALL, outcome.seconds, detail=detail)
    # The item in progress when the job ended: the ending is its own, the parts handed over before are the earlier
    # items' (left on it, a later _part(outcome, 0) would take the first of them for this item's result).
    return dataclasses.replace(outcome, parts=()) if index == len(outcome.parts) else None


def _shape(outcome: Hung) -> str:
    """The shape of the call that hung (``""``: none was in progress, a hang outside any call the suite tracks)."""
    board = outcome.board
    if not board.active:
        return ""
    return board.shape or kind_of(board.method, board.label, board.mode)


def _refused(outcome: Finished) -> str:
    """The shape of the call an item's job refused because it hung earlier (``""``: none)."""
    value: JSON = outcome.value
    return str(value.get("hung_earlier") or "") if is_dict(value) else ""


def _peak_of(outcome: Outcome) -> float:
    return outcome.peak_mib if isinstance(outcome, Finished) else 0.0


def _worker_queue(config: pytest.Config) -> Callable[[], list[int]] | None:
    """On a pytest-xdist worker: a function listing the indices (into the session's items) of the items the controller
    has sent this worker and it has not started, next first; ``None`` where that cannot be read.

    xdist keeps no public record of them: its worker plugin holds the next item's index (``nextitem_index``, taken
    from the queue before the current item runs) and the rest in a locked queue (``torun``). Anything unexpected
    there means "unknown", never an error: the items then simply start in their turn.
    """
    interactor = next(
        (plugin for plugin in config.pluginmanager.get_plugins()
         if hasattr(plugin, "nextitem_index") and callable(getattr(getattr(plugin, "torun", None), "lock", None))),
        None,
    )
    if interactor is None:
        return None

    def queued() -> list[int]:
        try:
            with interactor.torun.lock() as pending:
                indices = [interactor.nextitem_index, *pending]
        except Exception:  # noqa: BLE001 - xdist changed: nothing is known to come next
            return []
        return [index for index in indices if isinstance(index, int) and not isinstance(index, bool)]

    return queued


@dataclass
class ItemRunner:
    """Runs conformance items under a supervisor and logs their reports in this (the pytest) process.

    Args:
        config: The run's config.
        supervisor: Where items run.
    """

    config: pytest.Config
    supervisor: Supervisor
    facts: MutableMapping[str, TargetRun] = field(default_factory=dict[str, TargetRun])
    interrupted: str | None = None
    _params: list[CaseParam] = field(default_factory=list)
    # The run's conformance items in pytest's order, and each one's place in it.
    _order: list[tuple[str, CaseParam]] = field(default_factory=list)
    _position: dict[str, int] = field(default_factory=dict)
    # Items whose job started before their turn: in a batch with an earlier item, or ahead of the item pytest is on.
    _ahead: dict[str, _Ahead] = field(default_factory=dict[str, "_Ahead"])
    # Whether items may start before their turn (batched, or queued ahead), and on an xdist worker, how to read which
    # items are queued to it (indices into _items), the only ones that may.
    _early: bool = True
    _queued: Callable[[], list[int]] | None = None
    _items: list[pytest.Item] = field(default_factory=list[pytest.Item])
    _last: dict[str, str] = field(default_factory=dict[str, str])  # target id -> its last item's node id

    def bind(self, items: list[pytest.Item]) -> None:
        """Make the run's items known to the processes forked from now on."""
        share(self.config, items)
        warm_supervisor(self.config)
        self._order = [(item.nodeid, param) for item in items if (param := item_param(item)) is not None]
        self._position = {nodeid: index for index, (nodeid, _) in enumerate(self._order)}
        self._params = [param for _, param in self._order]
        self._last = {param.target.id: nodeid for nodeid, param in self._order}
        self._items = list(items)
        if getattr(self.config, "workerinput", None) is not None:
            # On an xdist worker most later items are other workers': only those queued to this one may start early
            # (starting the others' cost a quarter more CPU on the reference registry, for nothing). Where the
            # queue cannot be read, items run one per job as they come.
            self._queued = _worker_queue(self.config)
            self._early = self._queued is not None

    def run(self, item: pytest.Item, param: CaseParam) -> list[pytest.TestReport]:
        """Run one item; its reports (as pytest would have made them, or written here for a crash)."""
        reports = self._vet(item, param, self._run(item, param))
        facts = self.facts.setdefault(param.target.id, TargetRun())
        mode, why = self.supervisor.isolation(param.target.id)
        for report in reports:
            record = record_of(report)
            if record is None:
                continue
            if mode == "spawn":
                record = dataclasses.replace(record, isolation=f"spawn — {why}")
                with_record(report, record)
            facts.outcomes[record.rule] = worse(facts.outcomes.get(record.rule), record.outcome)
        if self._last.get(param.target.id) == item.nodeid and self.interrupted is None:
            # The target's last item: its zygotes (a heavy env's can hold hundreds of MiB each) go now, not when a
            # sweep of many targets ends.
            self.supervisor.discard(param.target.id)
        return reports

    def _run(self, item: pytest.Item, param: CaseParam) -> list[pytest.TestReport]:
        target = param.target
        facts = self.facts.setdefault(target.id, TargetRun())
        self._drop_stale(item.nodeid)
        interrupted: Interrupted | None = None
        if param.rule_id is not None and facts.trace is None:
            interrupted = self._trace(param, facts)
        if interrupted is None and facts.observing is not None and param.rule_id in facts.observers:
            interrupted = self._observed(param, facts, item.nodeid)
        if interrupted is not None:  # Ctrl-C during the target's shared work: this item records it
            verdict = _verdict(param, interrupted, None, False)
            self.interrupted = verdict.message
            return [self._report(item, param, verdict, interrupted.seconds)]
        if facts.hang is not None and param.rule_id is not None:
            # A call of this target hangs: every item that would make it again is decided here, without waiting
            # for the timeout once more (the construction check still runs: the probe never made that call).
            hang, first = facts.hang
            first_item: str | None = first
            if first == _SHARED and not facts.hang_blamed and _owner(param, hang.board) is None:
                # Met in the shared rollouts, where no item was in progress: the first item to meet it reports it
                # as its rule's failure (one cause, one failure); the others are not checked.
                facts.hang_blamed = True
                first_item = None
            verdict = _verdict(param, hang, first_item, self._owner_failed(param, hang.board))
            return [self._report(item, param, verdict, 0.0)]
        shared = facts.shared_verdict(param.rule_id)
        if facts.trace is not None and shared is not None and shared.outcome != "failed":
            verdict = _Verdict(shared.outcome, shared.outcome, shared.message)
            return [self._report(item, param, verdict, 0.0, facts.trace.evidence)]
        outcome = self._item_outcome(param, facts, item.nodeid)
        if isinstance(outcome, Hung) and self._learn(facts, outcome, param.rule_id or CONSTRUCT, item.nodeid):
            outcome = self._alone(param, facts, item.nodeid, outcome)
        if isinstance(outcome, Finished):
            refused = _refused(outcome)
            if refused in facts.hangs:
                return [self._met_hang(item, param, facts, refused)]
            return self._finished(item, outcome)
        if isinstance(outcome, Hung) and _shape(outcome) in facts.hangs:
            return [self._met_hang(item, param, facts, _shape(outcome), outcome)]
        failed = False if isinstance(outcome, Interrupted) else self._owner_failed(param, outcome.board)
        verdict = _verdict(param, outcome, None, failed, self._owner_known(param, outcome.board))
        if isinstance(outcome, Interrupted):
            self.interrupted = verdict.message
        return [self._report(item, param, verdict, outcome.seconds)]

    def _learn(self, facts: TargetRun, outcome: Hung, first: str, nodeid: str = "") -> bool:
        """Remember a hang: of its call's shape, or of the whole target when it hung outside any tracked call. Jobs
        started ahead with what was known before would meet it again: they are dropped. Whether it was the first
        hang of a call on a second live instance, which marks the target as allowing one live instance per process
        until the item that met it, run again with its second instance in a process of its own, says otherwise
        (:meth:`_alone`)."""
        shape = _shape(outcome)
        if not shape:
            if facts.hang is None:
                facts.hang = (outcome, first)
        elif shape not in facts.hangs:
            facts.hangs[shape] = (outcome, first)
        single = BESIDE in shape and not facts.single_instance
        if single:
            facts.single_instance = f"a call on a second live instance never returned ({_ending(outcome)})"
        if nodeid:
            self._drop_stale(nodeid)
        return single

    def _alone(self, param: CaseParam, facts: TargetRun, nodeid: str, hung: Hung) -> Outcome:
        """The item ``nodeid`` hung in a call on a second live instance (``hung``): run it again with its second
        instance in a process of its own (remote.py). When that call returns there, the target allows one live
        instance per process (ENV-021 says so) and the item's outcome is the new run's; when it does not return alone
        either, the hang was not the live instances' doing (a construction in human mode that stalls), and it is
        learnt without them."""
        again = self._item_outcome(param, facts, nodeid)
        if not (isinstance(again, Hung) and _shape(again) == alone(_shape(hung))):
            if isinstance(again, Hung):
                self._learn(facts, again, param.rule_id or CONSTRUCT, nodeid)
            return again
        facts.single_instance = ""
        self._learn(facts, again, param.rule_id or CONSTRUCT, nodeid)
        return hung

    def _met_hang(self, item: pytest.Item, param: CaseParam, facts: TargetRun, shape: str,
                  own: Hung | None = None) -> pytest.TestReport:
        """The report of an item that made a call of a shape that hung: its own process hung there (``own``), or an
        earlier item's did and its job refused the call. The rule that owns the call fails it, or the first item to
        meet the hang reports it as its rule's failure; the others are not checked. ENV-021 warns: the target allows
        one live instance per process."""
        hang, first = facts.hangs[shape]
        rule = param.rule_id or CONSTRUCT
        if rule == SINGLE_INSTANCE_RULE and BESIDE in shape and facts.single_instance:
            return self._single_instance(item, param, own or hang)
        failed = self._owner_failed(param, hang.board)
        # A call no rule owns, or of a shape the owner of its kind may never make (a huge seed, an options dict, a
        # render mode), needs another item to report it; a plain call's owner makes one, and fails it.
        unowned = _owner(param, hang.board) is None or "[" in alone(shape)
        reports = unowned and not failed and shape not in facts.blamed and param.rule_id is not None
        verdict = _verdict(param, own or hang, None if own is not None else first, failed,
                           self._owner_known(param, hang.board), shape=shape, reports=reports)
        if verdict.outcome == "failed":
            facts.blamed.add(shape)
        return self._report(item, param, verdict, own.seconds if own is not None else 0.0)

    def _single_instance(self, item: pytest.Item, param: CaseParam, hang: Hung) -> pytest.TestReport:
        """ENV-021's report on a target whose second live instance never returned from a call: it warns, as it does
        when the second construction raises (the other rules check the target with the second instance elsewhere)."""
        message = (f"{SINGLE_INSTANCE_RULE} (SHOULD) violated by {param.target.id}: the target allows one live "
                   f"instance per process: {_ending(hang)} on a second instance while the first was live; the rules "
                   "that need two live instances check it with the second in a process of its own")
        category = warning_class(SINGLE_INSTANCE_RULE)
        warning = warnings.WarningMessage(category(message), category, str(item.path), item.location[1] or 0)
        self.config.hook.pytest_warning_recorded.call_historic(
            kwargs={"warning_message": warning, "nodeid": item.nodeid, "when": "runtest", "location": None}
        )
        return self._report(item, param, _Verdict("passed", "warned", message), hang.seconds)

    def _vet(self, item: pytest.Item, param: CaseParam, reports: list[pytest.TestReport]) -> list[pytest.TestReport]:
        """Turn a skip that names another rule as the reporter of its cause into an error when that rule did not
        fail: the cause then goes unreported, and the item was not checked (unchecked is never a pass)."""
        for report in reports:
            record = record_of(report)
            if not report.skipped or record is None:
                continue
            found = REPORTED_BY.search(record.message)
            if found is None:
                continue
            owners = RULE_ID.findall(found["rules"]) if found["rules"] else [CONSTRUCT]
            if (param.rule_id or CONSTRUCT) in owners or any(self._decided_failed(param, one) for one in owners):
                continue
            owner = owners[0]
            known = self.facts[param.target.id].outcomes.get(owner, "not run here")
            message = unreported(record.message, owner, param.target.id, known, param.rule_id or CONSTRUCT)
            with_record(report, dataclasses.replace(record, outcome="error", message=message))
            report.outcome = "failed"
            report.longrepr = message
        return reports

    def _owner_failed(self, param: CaseParam, board: Snapshot) -> bool:
        """Whether the rule owning the call in progress on ``board`` failed (or fails) on ``param``'s target."""
        owner = _owner(param, board)
        if owner is None or owner == (param.rule_id or CONSTRUCT):
            return False
        return self._decided_failed(param, owner)

    def _owner_known(self, param: CaseParam, board: Snapshot) -> str:
        """The outcome in this run of the rule owning the call in progress on ``board`` (``"not run here"`` when it
        did not run), for a remedy that never sends the user to run a rule that passed."""
        owner = _owner(param, board)
        if owner is None:
            return "not run here"
        return self.facts[param.target.id].outcomes.get(owner, "not run here")

    def _decided_failed(self, param: CaseParam, owner: str) -> bool:
        """Whether ``owner``'s item on ``param``'s target failed: as it reported, or — when it is still to come in
        this run — as it ends when run now (its reports wait for pytest to reach it). ``False`` when it does not
        run here (deselected, or another worker's)."""
        target = param.target.id
        facts = self.facts.setdefault(target, TargetRun())
        known = facts.outcomes.get(owner)
        if known is None:
            nodeid = next((nodeid for nodeid, other in self._order
                           if other.target.id == target and (other.rule_id or CONSTRUCT) == owner), None)
            if nodeid is None or (self._queued is not None and nodeid not in self._queued_nodeids()):
                return False
            known = self._decide(nodeid, facts)
            if known != "unknown":
                facts.outcomes[owner] = known
        # A SHOULD rule that warned reported the cause as much as a MUST rule that failed.
        return known in ("failed", "error", "warned")

    def _decide(self, nodeid: str, facts: TargetRun) -> str:
        """Run the item ``nodeid`` ahead of its turn and read its outcome (its reports are logged in its turn)."""
        param = self._order[self._position[nodeid]][1]
        if param.rule_id is not None:  # the construction check always runs a job of its own
            if facts.trace is None:
                return "unknown"  # no shared run yet: it runs in its turn
            if facts.hang is not None:
                return "failed" if _owner(param, facts.hang[0].board) == param.rule_id else "unknown"
            shared = facts.shared_verdict(param.rule_id)
            if shared is not None and shared.outcome != "failed":
                return shared.outcome
            if not self._needs_job(param, facts):
                return "unknown"
        entry = self._ahead.get(nodeid) or self._submit(nodeid, param, facts)
        self._ahead[nodeid] = entry
        outcome = _part(self.supervisor.wait(entry.ticket), entry.index)
        if not isinstance(outcome, Finished):
            return "failed"  # its own process ended without a return: its item reports that, as a failure
        refused = _refused(outcome)
        if refused in facts.hangs:  # it met a hang: it failed if it owns that call (else it is worded in its turn)
            return "failed" if _owner(param, facts.hangs[refused][0].board) == param.rule_id else "unknown"
        value: Mapping[str, Any] = outcome.value
        phases = [str(data.get("outcome")) for data in value.get("reports", [])]
        if "failed" in phases:
            return "failed"
        if "skipped" in phases:
            return "skipped"
        # A SHOULD item that warned passed as far as pytest knows; its record says it warned (it reported a cause).
        return "warned" if any(_recorded(data) == "warned" for data in value.get("reports", [])) else "passed"

    @staticmethod
    def _needs_job(param: CaseParam, facts: TargetRun) -> bool:
        """Whether a rule item, once its target's shared run is done, runs a job (not decided by the shared run or
        by an earlier hang)."""
        if param.rule_id is None or facts.trace is None or facts.hang is not None:
            return False
        if facts.observing is not None and param.rule_id in facts.observers:
            return False  # decided by the shared run, or run on its own once that failed: not known yet
        shared = facts.shared_verdict(param.rule_id)
        return shared is None or shared.outcome == "failed"

    def _item_outcome(self, param: CaseParam, facts: TargetRun, nodeid: str) -> Outcome:
        """How item ``nodeid`` ended: from the job started for it earlier (or now, with a batch of the items of its
        target that follow it); run again alone when an earlier item of its batch ended the process first."""
        entry = self._ahead.pop(nodeid, None) or self._submit(nodeid, param, facts)
        outcome = self._wait(nodeid, entry)
        if outcome is None and self._early:
            # An earlier item of its batch ended the process before this one ran (a mode that aborts on this
            # machine, say): it and the rest of that batch go into a new batch, which pays one start (an import
            # and a probe, under spawn) for all of them again, not one each.
            for later, other in list(self._ahead.items()):
                if other.ticket is entry.ticket:
                    del self._ahead[later]
            outcome = self._wait(nodeid, self._submit(nodeid, param, facts))
        if isinstance(outcome, Finished):
            return outcome
        outcome = supervised(self.supervisor, param, facts, Items((nodeid,)), first=outcome)
        return _part(outcome, 0) or outcome

    def _wait(self, nodeid: str, entry: _Ahead) -> Outcome | None:
        """Item ``nodeid``'s outcome from the job of ``entry`` (queueing the jobs of later items meanwhile); ``None``
        when an earlier item of the batch ended the process before it ran."""
        self._start_ahead(nodeid, entry.ticket)
        refill = functools.partial(self._start_ahead, nodeid, entry.ticket)
        return _part(self.supervisor.wait(entry.ticket, refill), entry.index)

    def _batch_size(self, facts: TargetRun, key: str) -> int:
        trace = facts.trace
        if trace is None or trace.costs is None or trace.observation_bytes is None:
            return 1
        costs = trace.costs
        cheap = costs.construct + costs.reset <= _BATCH_CALL_SECONDS and costs.step <= _BATCH_STEP_SECONDS
        # A job that imports and probes its target anew (spawn) pays that start for each process: its items share it,
        # and when constructing is costly, so do many (its recycled instances serve them all). Forked from a warm
        # zygote, a costly target's items run one per job instead: each gets the zygote's whole shelf.
        spawned = self.supervisor.isolation(key)[0] == "spawn"
        if costs.construct >= COSTLY_SECONDS:
            return _COSTLY_SPAWN_BATCH if spawned else 1
        return _BATCH if (cheap or spawned) and trace.observation_bytes <= _BATCH_OBSERVATION_BYTES else 1

    def _submit(self, nodeid: str, param: CaseParam, facts: TargetRun) -> _Ahead:
        """Start the job of ``nodeid`` and, for a cheap target, of the next items of its target with it."""
        nodeids = [nodeid]
        size = self._batch_size(facts, param.target.id) if self._early else 1
        for later, other in self._upcoming(nodeid):
            if len(nodeids) >= size:
                break
            if other.target.id == param.target.id and later not in self._ahead and self._needs_job(other, facts):
                nodeids.append(later)
        warm, job = jobs_for(param, facts, Items(tuple(nodeids)))
        ticket = self.supervisor.submit(param.target.id, warm, job)
        given = facts.facts().basis()
        for index, later in enumerate(nodeids[1:], start=1):
            self._ahead[later] = _Ahead(ticket, given, index)
        return _Ahead(ticket, given, 0)

    def _start_ahead(self, nodeid: str, current: Ticket) -> None:
        """Queue the jobs of the items after ``nodeid``, so they run while its own does: twice as many as there are
        slots, so a slot that frees up while pytest waits for this item finds work at once."""
        if not self._early:
            return
        for later, param in self._upcoming(nodeid):
            unfinished = {id(entry.ticket) for entry in self._ahead.values() if entry.ticket.outcome is None}
            if current.outcome is None:
                unfinished.add(id(current))
            if len(unfinished) >= 2 * self.supervisor.lanes():
                return
            facts = self.facts.get(param.target.id)
            if later in self._ahead or facts is None or not self._needs_job(param, facts):
                continue
            self._ahead[later] = self._submit(later, param, facts)

    def _upcoming(self, nodeid: str) -> list[tuple[str, CaseParam]]:
        """The conformance items expected to run after ``nodeid`` (up to :data:`_LOOKAHEAD`), next first: those after
        it in collection order, or on an xdist worker, those queued to this worker."""
        if self._queued is None:
            first = self._position.get(nodeid, len(self._order)) + 1
            return self._order[first:first + _LOOKAHEAD]
        upcoming: list[tuple[str, CaseParam]] = []
        for later in self._queued_nodeids()[:_LOOKAHEAD]:
            position = self._position.get(later)
            if position is not None and later != nodeid:
                upcoming.append(self._order[position])
        return upcoming

    def _queued_nodeids(self) -> list[str]:
        """On an xdist worker, the node ids of the items queued to it, next first (elsewhere none)."""
        indices = self._queued() if self._queued is not None else []
        return [self._items[index].nodeid for index in indices if 0 <= index < len(self._items)]

    def _drop_stale(self, nodeid: str) -> None:
        """Forget jobs started early that will not be used as they are: of items pytest went past (it runs items in
        another order than collected, or deselected them), or given facts about their target that have changed
        since; a job no item waits for any more is cancelled."""
        here = self._position.get(nodeid, -1)
        # A worker's items come in the order its groups were sent (largest first, by default), not collection order:
        # there an item has been passed when it is no longer queued.
        queued = None if self._queued is None else set(self._queued_nodeids())
        for later, entry in list(self._ahead.items()):
            facts = self.facts.get(entry.ticket.key)
            if queued is None:
                passed = later != nodeid and self._position.get(later, -1) <= here
            else:
                passed = later != nodeid and later not in queued
            if passed or facts is None or facts.hang is not None or facts.facts().basis() != entry.given:
                del self._ahead[later]
                if all(other.ticket is not entry.ticket for other in self._ahead.values()):
                    self.supervisor.cancel(entry.ticket)

    def _trace(self, param: CaseParam, facts: TargetRun) -> Interrupted | None:
        """Measure the target's costs (once per target, before its items, which need the profile), then start the job
        that runs its observers on one shared trace."""
        mine = [p for p in self._params if p.target.id == param.target.id and p.rule_id is not None]
        observers = sorted({str(p.rule_id) for p in mine if p.rule_id in OBSERVERS})
        items = len(mine) - max(0, len(observers) - 1)
        outcome = supervised(self.supervisor, param, facts, Trace(items=items))
        if isinstance(outcome, Interrupted):
            return outcome
        if not isinstance(outcome, Finished):
            self._shared_failed(facts, outcome)
            return None
        facts.trace = TraceResult.from_wire(outcome.value)
        if observers and facts.hang is None:
            warm, job = jobs_for(param, facts, Trace(tuple(observers), items, measure=False))
            facts.observing = self.supervisor.submit(param.target.id, warm, job)
            facts.observers = frozenset(observers)
        return None

    def _observed(self, param: CaseParam, facts: TargetRun, nodeid: str) -> Interrupted | None:
        """Wait for the observers' shared run (item ``nodeid`` is one of them) and take in its verdicts."""
        ticket = facts.observing
        if ticket is None:
            return None
        outcome = self.supervisor.wait(ticket, functools.partial(self._start_ahead, nodeid, ticket))
        facts.observing = None
        if isinstance(outcome, Interrupted):
            return outcome
        if not isinstance(outcome, Finished):
            again = Trace(tuple(sorted(facts.observers)), measure=False)
            outcome = supervised(self.supervisor, param, facts, again, first=outcome)
        if isinstance(outcome, Finished):
            facts.trace = (facts.trace or TraceResult()).observed(TraceResult.from_wire(outcome.value))
        elif isinstance(outcome, Interrupted):
            return outcome
        else:
            self._shared_failed(facts, outcome)
        return None

    def _shared_failed(self, facts: TargetRun, outcome: Failure) -> None:
        # The shared run crashed, hung or overflowed: every observer runs on its own (and meets the problem, which
        # is then attributed as for any item); a hang is remembered as any hang is.
        facts.trace = dataclasses.replace(facts.trace or TraceResult(), verdicts={}, error=_ending(outcome))
        if isinstance(outcome, Hung):
            self._learn(facts, outcome, _SHARED)

    def _finished(self, item: pytest.Item, outcome: Finished) -> list[pytest.TestReport]:
        value: Mapping[str, Any] = outcome.value
        targets: list[JSON] = []
        for record in value.get("warnings", []):
            category = _category(record["module"], record["name"])
            if category is None or not _per_item(category):
                # The target's own warning (a deprecation, a UserWarning of its package): it would come up in every
                # item of the target, so it travels with the report and is shown once per target, with a count.
                targets.append({key: record[key] for key in ("module", "name", "message", "filename", "lineno")})
                continue
            warning = warnings.WarningMessage(category(record["message"]), category, record["filename"], record["lineno"])
            self.config.hook.pytest_warning_recorded.call_historic(
                kwargs={"warning_message": warning, "nodeid": item.nodeid, "when": "runtest", "location": None}
            )
        reports: list[pytest.TestReport] = []
        for data in value.get("reports", []):
            if isinstance(data.get("longrepr"), list):
                data["longrepr"] = tuple(data["longrepr"])  # a skip's (path, line, reason); JSON made it a list
            report = self.config.hook.pytest_report_from_serializable(config=self.config, data=data)
            record = record_of(report)
            if record is not None:
                with_record(report, dataclasses.replace(record, peak_mib=round(outcome.peak_mib, 1)))
            if targets and report.when == "call":
                report.user_properties = [*report.user_properties, (TARGET_WARNINGS, targets)]
            reports.append(report)
        return reports

    @staticmethod
    def _report(
        item: pytest.Item, param: CaseParam, verdict: _Verdict, seconds: float, evidence: Evidence | None = None
    ) -> pytest.TestReport:
        rule_id = param.rule_id or CONSTRUCT
        longrepr: Any = verdict.message or None
        if verdict.kind == "skipped":
            longrepr = (str(item.path), (item.location[1] or 0) + 1, f"Skipped: {verdict.message}")
        record = RuleResult(rule_id, param.target.id, rule_level(rule_id), verdict.outcome, verdict.message,
                            nodeid=item.nodeid, evidence=evidence or Evidence(), seconds=round(seconds, 4))
        return pytest.TestReport(
            item.nodeid,
            item.location,
            {name: 1 for name in item.keywords},
            verdict.kind,
            longrepr,
            "call",
            duration=seconds,
            user_properties=[(PROPERTY, record.to_dict())],
        )
