"""What crosses the process boundary between the supervisor and the processes it forks, typed and serialised here.

A job receives a JSON payload and returns JSON (:mod:`.zygote` carries both). Their shapes are defined once, as frozen
dataclasses that write and read their own JSON (``to_wire`` / ``from_wire``), so neither side indexes a string-keyed
dict:

* :class:`Facts` — what is known of one target that every process working on it needs: whether it can be
  constructed, whether the probe may be closed, the profile scaled to its budget, what its calls cost, and the
  verdicts of its observers. The supervisor (:class:`~conformance._engine.runner.ItemRunner`) builds it from what
  jobs told it; a job hands it to the target's :class:`~conformance._engine.state.TargetState` before anything else.
* :class:`WarmJob`, :class:`TraceJob`, :class:`ItemsJob` — the payloads of :mod:`.jobs`' three functions.
* :class:`TraceResult` — what a target's shared run found (:func:`~conformance._engine.jobs.run_trace`).
* :data:`Outcome` — how a supervised job ended: it returned (:class:`Finished`, carrying its JSON value), or it did
  not (a :data:`Failure`: :class:`Died`, :class:`Hung`, :class:`OverMemory`, :class:`Interrupted`), as the
  :class:`~conformance._engine.supervisor.Supervisor` saw it.

A wire value that does not have the shape written here is the suite's own bug, met only between two processes of
one run: it raises ``ValueError`` naming the field, never passes as a default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from conformance._engine.describe import is_list_or_tuple, is_mapping
from conformance._engine.processes import Snapshot
from conformance._engine.profiles import Costs, Profile
from conformance._engine.zygote import JSON
from conformance.results import Evidence

__all__ = [
    "Died",
    "Facts",
    "Failure",
    "Finished",
    "Hung",
    "Interrupted",
    "ItemsJob",
    "ObserverVerdict",
    "Outcome",
    "OverMemory",
    "TraceJob",
    "TraceResult",
    "WarmJob",
]


@dataclass(frozen=True)
class ObserverVerdict:
    """An observer's verdict from the shared run (:mod:`.observe`): its item reports a pass or a skip without a job of
    its own; a failure is run again by the item, which falls back on ``failure`` when its search misses it.

    Attributes:
        outcome: ``"passed"``, ``"failed"`` or ``"skipped"``.
        message: Why it skipped.
        failure: The violation (:meth:`~conformance._engine.outcomes.RuleFailure.to_report`) when it failed.
    """

    outcome: Literal["passed", "failed", "skipped"]
    message: str = ""
    failure: Mapping[str, JSON] | None = None

    def to_wire(self) -> dict[str, JSON]:
        return {"outcome": self.outcome, "message": self.message, "failure": self.failure}

    @classmethod
    def from_wire(cls, data: JSON) -> ObserverVerdict:
        outcome = data.get("outcome") if is_mapping(data) else None
        if outcome not in ("passed", "failed", "skipped"):
            raise ValueError(f"ObserverVerdict must be a mapping with an outcome passed/failed/skipped, got {data!r}")
        failure = data.get("failure")
        return cls(outcome, str(data.get("message") or ""), dict(failure) if is_mapping(failure) else None)


def _seconds(value: JSON, name: str) -> dict[str, float]:
    if value is None:
        return {}
    if not is_mapping(value):
        raise ValueError(f"Facts {name} must be a mapping of call kind to seconds, got {value!r}")
    return {str(key): float(seconds) for key, seconds in value.items()}


def _texts(value: JSON, name: str) -> dict[str, str]:
    if value is None:
        return {}
    if not is_mapping(value):
        raise ValueError(f"Facts {name} must be a mapping of text to text, got {value!r}")
    return {str(key): str(text) for key, text in value.items()}


def _verdicts(value: JSON) -> dict[str, ObserverVerdict]:
    if value is None:
        return {}
    if not is_mapping(value):
        raise ValueError(f"Facts verdicts must be a mapping of rule id to verdict, got {value!r}")
    return {str(rule_id): ObserverVerdict.from_wire(verdict) for rule_id, verdict in value.items()}


def _profile(value: JSON) -> Profile | None:
    if value is None:
        return None
    if not is_mapping(value):
        raise ValueError(f"Facts profile must be a mapping of Profile's fields, got {value!r}")
    return Profile(**{str(key): item for key, item in value.items()})


@dataclass(frozen=True)
class Facts:
    """What every process working on one target learns from the supervisor before it does anything else.

    Attributes:
        construct_error: Why the target cannot be constructed (its constructor killed or hung a zygote).
        close_probe: Whether a zygote closes the instance it probed (not when closing one killed or hung a process;
            ENV-020 reports close).
        profile: The profile scaled to the target's budget by its cost probe (``None`` until that ran).
        first_costs: Seconds of the first call of each kind in the cost probe (a compile, a slow constructor): the
            first call of that kind in every job gets a limit from it.
        steady_costs: Seconds of a later call of each kind.
        verdicts: The observers' verdicts from the shared run, by rule id.
        hung: The shapes of call (:func:`~conformance._engine.watchdog.call_shape`) that did not return earlier in
            the run, each with what is known of its hang: a job refuses such a call at once.
        single_instance: Why the target is known to allow one live instance per process (a call on a second live
            instance never returned), ``""`` when it is not: a second instance is then built in a process of its
            own (:mod:`conformance._engine.remote`).
    """

    construct_error: str | None = None
    close_probe: bool = True
    profile: Profile | None = None
    first_costs: Mapping[str, float] = field(default_factory=dict[str, float])
    steady_costs: Mapping[str, float] = field(default_factory=dict[str, float])
    verdicts: Mapping[str, ObserverVerdict] = field(default_factory=dict[str, ObserverVerdict])
    hung: Mapping[str, str] = field(default_factory=dict[str, str])
    single_instance: str = ""

    def basis(self) -> Facts:
        """What a job's outcome depends on: all but the observers' verdicts (only their own items use them)."""
        return dataclasses.replace(self, verdicts={})

    def for_warm_up(self) -> Facts:
        """What a zygote's warm-up depends on: a zygote warmed with other facts is stale (the supervisor replaces
        it), one warmed before the shared run is not."""
        return Facts(construct_error=self.construct_error, close_probe=self.close_probe)

    def to_wire(self) -> dict[str, JSON]:
        return {
            "construct_error": self.construct_error,
            "close_probe": self.close_probe,
            "profile": None if self.profile is None else dataclasses.asdict(self.profile),
            "first_costs": dict(self.first_costs),
            "steady_costs": dict(self.steady_costs),
            "verdicts": {rule_id: verdict.to_wire() for rule_id, verdict in self.verdicts.items()},
            "hung": dict(self.hung),
            "single_instance": self.single_instance,
        }

    @classmethod
    def from_wire(cls, data: JSON) -> Facts:
        if not is_mapping(data):
            raise ValueError(f"Facts must be a mapping, got {data!r}")
        error = data.get("construct_error")
        return cls(
            construct_error=None if error is None else str(error),
            close_probe=bool(data.get("close_probe", True)),
            profile=_profile(data.get("profile")),
            first_costs=_seconds(data.get("first_costs"), "first_costs"),
            steady_costs=_seconds(data.get("steady_costs"), "steady_costs"),
            verdicts=_verdicts(data.get("verdicts")),
            hung=_texts(data.get("hung"), "hung"),
            single_instance=str(data.get("single_instance") or ""),
        )


@dataclass(frozen=True)
class WarmJob:
    """A zygote's warm-up for a target (:func:`~conformance._engine.jobs.warm_target`)."""

    target: str
    facts: Facts

    def to_wire(self) -> dict[str, JSON]:
        return {"target": self.target, "facts": self.facts.to_wire()}

    @classmethod
    def from_wire(cls, data: Mapping[str, JSON]) -> WarmJob:
        return cls(str(data["target"]), Facts.from_wire(data["facts"]))


def _strings(value: JSON, name: str) -> tuple[str, ...]:
    if not is_list_or_tuple(value):
        raise ValueError(f"job {name} must be a list of strings, got {value!r}")
    return tuple(str(part) for part in value)


@dataclass(frozen=True)
class TraceJob:
    """A target's shared run (:func:`~conformance._engine.jobs.run_trace`).

    Attributes:
        target: The target's id.
        facts: What is known of it.
        rules: The observers to run on the shared rollouts (none: only measure).
        items: How many items of the target there are (the profile is scaled to the budget of them all).
        measure: Whether to measure the calls' costs and scale the profile (false once that was done).
    """

    target: str
    facts: Facts
    rules: tuple[str, ...] = ()
    items: int = 1
    measure: bool = True

    def to_wire(self) -> dict[str, JSON]:
        return {"target": self.target, "facts": self.facts.to_wire(), "rules": list(self.rules),
                "items": self.items, "measure": self.measure}

    @classmethod
    def from_wire(cls, data: Mapping[str, JSON]) -> TraceJob:
        return cls(str(data["target"]), Facts.from_wire(data["facts"]), _strings(data.get("rules", []), "rules"),
                   int(data.get("items", 1)), bool(data.get("measure", True)))


@dataclass(frozen=True)
class ItemsJob:
    """Items of one target, run in order in one process (:func:`~conformance._engine.jobs.run_items`)."""

    target: str
    facts: Facts
    nodeids: tuple[str, ...]

    def to_wire(self) -> dict[str, JSON]:
        return {"target": self.target, "facts": self.facts.to_wire(), "nodeids": list(self.nodeids)}

    @classmethod
    def from_wire(cls, data: Mapping[str, JSON]) -> ItemsJob:
        return cls(str(data["target"]), Facts.from_wire(data["facts"]), _strings(data["nodeids"], "nodeids"))


@dataclass(frozen=True)
class TraceResult:
    """What a target's shared run found.

    Attributes:
        verdicts: The observers' verdicts, by rule id.
        profile: The profile scaled to the target's budget (``None`` when the run measured nothing).
        costs: What a construction, a seeded reset and a step cost (``None``: not measured, or a call failed).
        first_costs: What the first call of each kind cost in that process.
        observation_bytes: How many bytes the first observation holds (``None``: not measured).
        evidence: What the observers' shared run observed (every observer it decided passed on it).
        error: Why the shared run ended early (its observers then run on their own), ``None`` if it did not.
    """

    verdicts: Mapping[str, ObserverVerdict] = field(default_factory=dict[str, ObserverVerdict])
    profile: Profile | None = None
    costs: Costs | None = None
    first_costs: Mapping[str, float] = field(default_factory=dict[str, float])
    observation_bytes: int | None = None
    evidence: Evidence = field(default_factory=Evidence)
    error: str | None = None

    def observed(self, other: TraceResult) -> TraceResult:
        """This (the cost probe's) result, with the observers' verdicts and evidence from ``other``."""
        return dataclasses.replace(self, verdicts=other.verdicts, evidence=other.evidence, error=other.error)

    def to_wire(self) -> dict[str, JSON]:
        return {
            "verdicts": {rule_id: verdict.to_wire() for rule_id, verdict in self.verdicts.items()},
            "profile": None if self.profile is None else dataclasses.asdict(self.profile),
            "costs": None if self.costs is None else dataclasses.asdict(self.costs),
            "first_costs": dict(self.first_costs),
            "observation_bytes": self.observation_bytes,
            "evidence": self.evidence.to_dict(),
            "error": self.error,
        }

    @classmethod
    def from_wire(cls, data: JSON) -> TraceResult:
        if not is_mapping(data):
            raise ValueError(f"TraceResult must be a mapping, got {data!r}")
        costs = data.get("costs")
        if costs is not None and not is_mapping(costs):
            raise ValueError(f"TraceResult costs must be a mapping of Costs' fields, got {costs!r}")
        weight, error, evidence = data.get("observation_bytes"), data.get("error"), data.get("evidence")
        if evidence is not None and not is_mapping(evidence):
            raise ValueError(f"TraceResult evidence must be a mapping of Evidence's counts, got {evidence!r}")
        return cls(
            verdicts=_verdicts(data.get("verdicts")),
            profile=_profile(data.get("profile")),
            costs=None if costs is None else Costs(**{str(key): float(value) for key, value in costs.items()}),
            first_costs=_seconds(data.get("first_costs"), "first_costs"),
            observation_bytes=None if weight is None else int(weight),
            evidence=Evidence() if evidence is None else Evidence.from_dict(evidence),
            error=None if error is None else str(error),
        )


# --- Endings -------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Finished:
    """The job returned; ``value`` is what its function returned (JSON data), ``imported`` the top-level modules it
    imported that its zygote had not, ``peak_mib`` its largest resident memory (the kernel's high-water mark),
    ``parts`` what it handed over with :func:`~conformance._engine.zygote.emit` on the way, in order."""

    value: JSON
    seconds: float
    imported: tuple[str, ...] = ()
    peak_mib: float = 0.0
    parts: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Died:
    """The process ended without returning: a signal, ``os._exit``, an abort in native code.

    Attributes:
        status: E.g. ``"SIGSEGV"`` or ``"exit code 3"``.
        board: What it was doing.
        detail: An internal error's traceback (the suite's own code failed in the job process), else ``""``.
        stage: ``"warm"`` when the zygote died while warming up (the job never ran), else ``"job"``.
        traceback: The Python stacks at a fatal signal (from ``faulthandler``), else ``""``.
        parts: What the job handed over with :func:`~conformance._engine.zygote.emit` before it died.
    """

    status: str
    board: Snapshot
    seconds: float
    detail: str = ""
    stage: str = "job"
    traceback: str = ""
    parts: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Hung:
    """The process was killed for taking too long.

    Attributes:
        limit: The timeout it exceeded, in seconds.
        board: What it was doing (``board.active`` false: no call was in progress, nothing made progress).
        stage: ``"warm"`` when it was the zygote, warming up (the job never ran), else ``"job"``.
        traceback: The Python stacks of the job's threads when it was stopped (from ``faulthandler``), else ``""``.
        parts: What the job handed over with :func:`~conformance._engine.zygote.emit` before it hung.
        cause: What its processes did past the limit: ``"busy"`` (they had their share of a CPU: a loop),
            ``"asleep"`` (none was runnable: blocked), ``"starved"`` (runnable without a CPU, past the grace a
            loaded machine gets), ``""`` (not known).
    """

    limit: float
    board: Snapshot
    seconds: float
    stage: str = "job"
    traceback: str = ""
    parts: tuple[JSON, ...] = ()
    cause: str = ""


@dataclass(frozen=True)
class OverMemory:
    """The process was killed for holding more than the memory cap (``rss`` and ``cap`` in bytes; ``stage`` and
    ``parts`` as for :class:`Hung`)."""

    rss: int
    cap: int
    board: Snapshot
    seconds: float
    stage: str = "job"
    parts: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Interrupted:
    """The user interrupted the run (Ctrl-C) while the process worked; it has been killed (``stage`` as for
    :class:`Hung`)."""

    board: Snapshot
    seconds: float
    stage: str = "job"


Failure: TypeAlias = Died | Hung | OverMemory | Interrupted
"""Every way a job can end without returning."""
Outcome: TypeAlias = Finished | Failure
