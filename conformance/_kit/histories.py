"""Per-instance call histories, and the check that an instance's results are a function of its own history alone.

SEED-009's model: several live instances of one target take calls in any interleaving (resets with and without a
seed, steps, renders, their spaces' ``seed`` and ``sample``, and ``close``, after which an instance takes no call); each instance's results must be what a fresh instance
returns when it takes that instance's calls alone. An :class:`Instance` records each call made on an env instance or
one of its spaces with a copy of the result; :func:`check_alone` repeats the calls on a fresh instance and compares.

Only *determined* results are compared: an env's results once its history holds a seeded ``reset`` (before that they
come from entropy), a space's samples once its history holds a ``seed(int)``. A frame is determined only when every
frame the instance drew was drawn after its seeded reset: a renderer may keep state from its earlier frames (MuJoCo's
free camera is aimed, once, at the scene as the first frame found it), so a frame drawn from an entropy-drawn state
leaves every later frame of the instance undetermined, seeded resets or not. A difference is confirmed by a second
fresh instance before it is reported: when two instances that each took the calls alone disagree as well, the target
is not a function of its history even in isolation (SEED-001, SEED-002 and SEED-005 report that), so the check
stops as not checkable instead of reporting the same defect twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, NoReturn

from conformance._engine.case import Case
from conformance._engine.describe import summarize
from conformance._engine.handles import Handle, TargetError
from conformance._engine.outcomes import NotCheckable
from conformance._engine.record import copied, source
from conformance._kit import global_generators
from conformance._kit.expectations import Equal
from conformance._kit.assertions import read
from conformance._kit.freeze import Freezer
from conformance._kit.rollout import (
    Record,
    ended,
    first_difference,
    unpack_reset,
    unpack_step,
)

__all__ = ["ENV", "SPACES", "Call", "Dependence", "Instance", "Program", "Result", "check_program", "open_instance",
           "run_program"]

ENV = "env"
"""The owner of the env's own calls in a :class:`Call`."""

SPACES: tuple[str, ...] = ("action_space", "observation_space")
"""The spaces whose ``seed`` and ``sample`` histories take part."""


@dataclass(frozen=True)
class Call:
    """One call of a history.

    Attributes:
        owner: :data:`ENV` or a name of :data:`SPACES`.
        method: ``"reset"``, ``"step"``, ``"render"``, ``"seed"`` or ``"sample"``.
        args: Positional arguments.
        kwargs: Keyword arguments, as ``(name, value)`` pairs.
    """

    owner: str
    method: str
    args: tuple[Any, ...] = ()
    kwargs: tuple[tuple[str, Any], ...] = ()

    def text(self, var: str) -> str:
        """The call as source, on the instance named ``var`` (e.g. ``"env_1.action_space.seed(3)"``)."""
        parts = [source(arg) for arg in self.args] + [f"{key}={source(value)}" for key, value in self.kwargs]
        target = var if self.owner == ENV else f"{var}.{self.owner}"
        return f"{target}.{self.method}({', '.join(parts)})"


@dataclass(frozen=True)
class Result:
    """What a call returned (a copy): one value, compared whole."""

    kind: str
    parts: tuple[Any, ...]

    FIELDS: ClassVar[tuple[str, ...]] = ("result",)

    def values(self) -> tuple[Any, ...]:
        """The compared parts, in the order of ``FIELDS``."""
        return self.parts


@dataclass(frozen=True)
class _ResetResult(Result):
    FIELDS: ClassVar[tuple[str, ...]] = ("observation", "info")


@dataclass(frozen=True)
class _StepResult(Result):
    FIELDS: ClassVar[tuple[str, ...]] = Record.FIELDS


@dataclass
class Instance:
    """A live instance of the target, with the calls it took and what they returned.

    Attributes:
        env: The instance.
        spaces: Its spaces by name (read once, when it was made).
        kwargs: The keyword arguments it was made with.
        calls: Its calls, in order.
        results: What each call returned (copies).
        determined: Whether each result must be a function of the calls before it.
        anchored: Owners whose history holds a seeding call (a seeded ``reset``, a ``seed(int)``).
        drew_unanchored: Whether the env rendered before its history held a seeded ``reset`` (its later frames are
            not determined: see the module).
        started: Whether the env was reset at least once.
        live: Whether an episode is running (reset, and no step ended it since).
        closed: Whether ``close`` was called (a closed instance takes no further calls).
    """

    env: Handle
    spaces: Mapping[str, Handle]
    kwargs: Mapping[str, Any]
    calls: list[Call] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    determined: list[bool] = field(default_factory=list)
    anchored: set[str] = field(default_factory=set)
    drew_unanchored: bool = False
    started: bool = False
    live: bool = False
    closed: bool = False
    _keep: Freezer = field(default_factory=Freezer)

    @property
    def var(self) -> str:
        """The instance's name in the reproducer."""
        return self.env.var

    def perform(self, call: Call) -> Result:
        """Make ``call`` on this instance, record it, and return what it returned (a copy).

        Raises:
            TargetError: If the target raised.
            NotCheckable: If ``reset`` or ``step`` returned a malformed tuple (ENV-005 and ENV-008 report that).
        """
        owner = self.env if call.owner == ENV else self.spaces[call.owner]
        raw = owner.call(call.method, *call.args, **dict(call.kwargs))
        result = self._result(call, raw)
        if _seeds(call):
            self.anchored.add(call.owner)
        self.calls.append(call)
        self.results.append(result)
        determined = call.owner in self.anchored
        if call.owner == ENV and call.method == "render":
            self.drew_unanchored = self.drew_unanchored or not determined
            determined = not self.drew_unanchored
        # What close returns is not compared (None by convention, nothing a caller uses).
        self.determined.append(determined and result.kind != "close")
        return result

    def _result(self, call: Call, raw: Any) -> Result:
        kind = call.method if call.owner == ENV else f"{call.owner}.{call.method}"
        if call.owner == ENV and call.method == "reset":
            obs, info = unpack_reset(raw)
            self.started = self.live = True
            return _ResetResult(kind, (self._keep(obs), self._keep(info)))
        if call.owner == ENV and call.method == "step":
            obs, reward, terminated, truncated, info = unpack_step(raw)
            self.live = not ended(terminated, truncated)
            return _StepResult(kind, (self._keep(obs), self._keep(reward), terminated, truncated, self._keep(info)))
        if call.owner == ENV and call.method == "close":
            self.closed, self.live = True, False
        return Result(kind, (self._keep(raw),))


def _seeds(call: Call) -> bool:
    """Whether ``call`` seeds its owner: a ``reset`` with an int seed, or a space's ``seed`` with one."""
    if call.owner == ENV:
        return call.method == "reset" and dict(call.kwargs).get("seed") is not None
    return call.method == "seed" and bool(call.args) and call.args[0] is not None


def open_instance(case: Case, var: str, kwargs: Mapping[str, Any], spaces: Iterable[str] = SPACES) -> Instance:
    """Make a fresh instance named ``var`` (with ``kwargs``) and read its spaces once.

    Raises:
        TargetError: If construction raised.
        NotCheckable: If a space cannot be read (ENV-001 reports that).
    """
    env = case.make(var, **kwargs)
    handles = {name: case.wrap(read(case, env, name), f"{var}_{name}", f"{var}.{name}") for name in spaces}
    return Instance(env, handles, dict(kwargs))


@dataclass(frozen=True)
class Dependence:
    """A determined result of ``instance`` that a fresh instance which took the same calls alone did not return.

    Attributes:
        index: Which instance of its program ``instance`` is.
        instance: The instance that took its calls interleaved with other instances' calls.
        alone: The fresh instance that took them alone.
        position: The call (in ``instance``'s own history) whose results differ.
        how: How they differ.
    """

    index: int
    instance: Instance
    alone: Instance
    position: int
    how: str


_PARTED = (-1, "the fresh instance's episode ended at another step before any result was determined")


def _repeat(reference: Instance, fresh: Instance, until: int) -> tuple[int, str] | None:
    """Make ``reference``'s first ``until`` calls on ``fresh``; the first determined result that differs, and how.

    Returns :data:`_PARTED` when the two part ways before any result is determined (an unseeded episode of the
    fresh instance ends at another step, say): a history that entropy decided cannot be repeated.
    """
    for position, call in enumerate(reference.calls[:until]):
        if call.owner == ENV and call.method == "step" and not fresh.live:
            return _PARTED
        result = fresh.perform(call)
        if reference.determined[position]:
            found = first_difference([result], [reference.results[position]])
            if found is not None:
                return position, found[1]
    return None


def _replay_alone(case: Case, index: int, instance: Instance) -> Dependence | None:
    """Repeat ``instance``'s calls on a fresh instance (``alone_<index>``); the first determined result that differs.

    Histories without a determined result, and histories entropy decided (:func:`_repeat`), are not compared.
    """
    if not any(instance.determined):
        return None
    alone = open_instance(case, f"alone_{index}", instance.kwargs, tuple(instance.spaces))
    found = _repeat(instance, alone, len(instance.calls))
    if found is None or found == _PARTED:
        return None
    return Dependence(index, instance, alone, *found)


def _unconfirmed(case: Case, dependence: Dependence) -> str | None:
    """``None`` when a second fresh instance that takes the calls alone agrees with the first up to the difference;
    else what the two fresh instances show, stated plainly: the call whose results differ, how, and whether their
    calls moved a global generator."""
    alone = dependence.alone
    # The construction too: a target may draw its task from a global generator there.
    before = global_generators.state()
    again = open_instance(case, f"{alone.var}_again", alone.kwargs, tuple(alone.spaces))
    found = _repeat(alone, again, dependence.position + 1)
    moved = global_generators.advanced(before, global_generators.state())
    if found is None:
        return None
    call = alone.calls[found[0]].text(alone.var) if found[0] >= 0 else "a call"
    drew = (f"; their constructions and calls advanced {moved}, which the target draws from (SEED-008 forbids it: "
            "reported by SEED-008)" if moved else f" (reported by {_REPLAY_RULES})")
    return (f"two fresh instances that took the same calls alone disagree ({call}, call {found[0] + 1} of "
            f"{alone.var}, returned other than on {again.var}: {found[1]}), so the target's results are not a "
            f"function of its own history even without other instances{drew}")


@dataclass(frozen=True)
class Program:
    """Calls on several instances of one target, in the order they were made.

    Attributes:
        kwargs: How each instance is made (the keyword arguments of its construction), by index.
        calls: ``(instance index, call)`` pairs, in order.
    """

    kwargs: tuple[Mapping[str, Any], ...]
    calls: tuple[tuple[int, Call], ...]

    def upto(self, dependence: Dependence) -> Program:
        """The program up to the call that showed ``dependence`` (the later calls cannot matter)."""
        seen = -1
        for end, (index, _) in enumerate(self.calls):
            seen += index == dependence.index
            if index == dependence.index and seen == dependence.position:
                return Program(self.kwargs, self.calls[: end + 1])
        return self

    def without(self, position: int) -> Program:
        """The program without its call at ``position``."""
        return Program(self.kwargs, self.calls[:position] + self.calls[position + 1 :])


def run_program(case: Case, program: Program) -> dict[int, Instance] | None:
    """Make ``program``'s calls on fresh instances (``env_<index>``, each made before its first call).

    Returns:
        The instances by index (those without calls are not made), or ``None`` when a call cannot be made in
        this program (a step on an instance whose episode is not running: a shortened program can lose its reset).

    Raises:
        TargetError: If the target raised.
        NotCheckable: If ``reset`` or ``step`` returned a malformed tuple.
    """
    instances: dict[int, Instance] = {}
    for index, call in program.calls:
        if index not in instances:
            instances[index] = open_instance(case, f"env_{index}", program.kwargs[index])
        instance = instances[index]
        if instance.closed or (call.owner == ENV and ((call.method == "step" and not instance.live) or
                                                      (call.method == "render" and not instance.started))):
            return None
        instance.perform(call)
    return instances


def _dependence(case: Case, instances: Mapping[int, Instance]) -> tuple[Dependence | None, str | None]:
    """The first confirmed dependence among ``instances``, and what the first unconfirmed one showed (two fresh
    instances that disagree, see :func:`_unconfirmed`), if one was seen."""
    unconfirmed: str | None = None
    for index, instance in sorted(instances.items()):
        found = _replay_alone(case, index, instance)
        if found is None:
            continue
        shown = _unconfirmed(case, found)
        if shown is None:
            return found, unconfirmed
        unconfirmed = unconfirmed or shown
    return None, unconfirmed


def _still_fails(case: Case, program: Program) -> bool:
    """Run ``program`` as a new example and say whether it shows a confirmed dependence."""
    case.close_all()
    case.new_example()
    try:
        instances = run_program(case, program)
        return instances is not None and _dependence(case, instances)[0] is not None
    except (TargetError, NotCheckable):
        return False


def _shortest(case: Case, program: Program, dependence: Dependence) -> Program:
    """A shorter program that still fails: cut after the difference, then drop each call that is not needed."""
    best = program.upto(dependence)
    if not _still_fails(case, best):
        return program
    for position in range(len(best.calls) - 2, -1, -1):  # the last call shows the difference: it stays
        candidate = best.without(position)
        if _still_fails(case, candidate):
            best = candidate
    return best


def _returned(instance: Instance, position: int) -> str:
    """The reproducer's copy of what ``instance``'s call at ``position`` returned: each owner's ``reset`` and
    ``step`` results form one list, each other method's its own (a copy: a buffer may be written again later)."""
    call = instance.calls[position]
    if call.owner == ENV and call.method in ("reset", "step"):
        earlier = sum(c.owner == ENV and c.method in ("reset", "step") for c in instance.calls[:position])
        return f"{copied(instance.var)}[{earlier}]"
    earlier = sum(c.owner == call.owner and c.method == call.method for c in instance.calls[:position])
    var = instance.var if call.owner == ENV else f"{instance.var}_{call.owner}"
    return f"{copied(var, call.method)}[{earlier}]"


def _fail(case: Case, found: Dependence) -> NoReturn:
    instance, alone, position = found.instance, found.alone, found.position
    call = instance.calls[position].text(instance.var)
    case.fail(f"{call} (call {position + 1} of {instance.var}) returned a different result from the same call on "
              f"{alone.var}, a fresh instance that took {instance.var}'s calls alone ({found.how}): calls on other "
              "instances changed it", expected=f"{alone.var}: {summarize(alone.results[position].values())}",
              actual=f"{instance.var}: {summarize(instance.results[position].values())}",
              assertion=Equal(_returned(alone, position), _returned(instance, position),
                              problem=f"{call} (call {position + 1} of {instance.var}) returned other than on "
                              f"{alone.var}, which took its calls alone"))


_REPLAY_RULES = "SEED-001, SEED-002, SEED-003 or SEED-005"
"""The rules that show a target whose results are not a function of its own calls."""


def check_program(case: Case, program: Program, instances: Mapping[int, Instance]) -> None:
    """Fail unless each instance's determined results are what a fresh instance taking its calls alone returns.

    A difference is confirmed by a second fresh instance first. The failure is reported on the shortest program
    found by cutting ``program`` after the difference and dropping each call the difference does not need, run as
    a new example, so the reproducer holds just those calls.

    Args:
        case: The item.
        program: The calls the instances took.
        instances: The instances that took them, by their index in ``program``.

    Raises:
        RuleFailure: An instance's results depend on calls on other instances.
        NotCheckable: Two fresh instances that took the same calls alone disagree: the target is not a function of
            its own history even in isolation (SEED-001, SEED-002, SEED-003 and SEED-005 report that).
    """
    found, unconfirmed = _dependence(case, instances)
    if found is None:
        if unconfirmed is not None:
            case.not_checkable(unconfirmed)
        return
    shortest = _shortest(case, program, found)
    case.close_all()
    case.new_example()
    rerun = run_program(case, shortest)
    again = None if rerun is None else _dependence(case, rerun)[0]
    if again is None:
        # Whatever that is (entropy, global state, a reset that keeps part of the history), the rules that replay
        # one instance's or two fresh instances' calls are the ones to show it.
        case.not_checkable("a dependence between instances showed once and not when the program ran again: the "
                           f"target depends on something besides its calls (reported by {_REPLAY_RULES})")
    _fail(case, again)
