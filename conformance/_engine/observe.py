"""Rules that only observe a rollout: one shared trace per target checks them all, each keeps its own item.

Most ENV rules look at what ``reset`` and ``step`` return (types, shapes, membership, flags, infos, aliasing) and
change nothing; running a separate set of rollouts for each would pay the target's step cost a dozen times over.
Such a rule is an *observer*: a :class:`Watch` that sees every raw result, every record and the end of each example
of a rollout, through a :class:`View` that fails under the observer's own rule.

Observers run in two ways, with the same code:

* **shared** (:func:`run_shared`, in one job per target, started by the supervisor before the target's items):
  every selected observer watches the same Hypothesis-driven rollouts; a violation (or a reason it cannot check)
  ends only that observer's watch and becomes its *verdict*. An observer whose verdict is "passed" or "skipped" is
  reported from the verdict, without running again;
* **dedicated** (the observer's own pytest item, :func:`run_dedicated`): the observer alone, under
  :meth:`Case.explore <conformance._engine.case.Case.explore>`, so a violation shrinks to a minimal reproducer of
  its own. Items whose shared verdict is a violation run this way; so does every observer item where no shared
  verdict exists (thread isolation, or a shared run that crashed or hung — then each observer meets the problem
  itself and it is attributed as for any other item). If the dedicated search does not find the violation again,
  the shared run's failure is reported as it was found.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any, NoReturn, TypeAlias

from conformance._engine.case import Case, checks
from conformance._engine.describe import describe_exception
from conformance._engine.evidence import Floor, Tally, episode_cap, passed_over_note, shortfall, strongest
from conformance._engine.handles import Handle, TargetError
from conformance._engine.messages import ObserverVerdict
from conformance._engine.outcomes import NotCheckable, RuleFailure
from conformance._engine.profiles import first_choices, given_under
from conformance._engine.verdicts import not_checked
from conformance._kit import rollout
from conformance._kit.assertions import plans_for
from conformance._kit.vector_checks import run_plan, vector_facts
from gymspec.rules import RULES, Rule

__all__ = [
    "OBSERVERS",
    "Observer",
    "View",
    "Watch",
    "observer",
    "run_dedicated",
    "run_shared",
    "watcher",
]

TestFunction: TypeAlias = Callable[[Case], None]


class View:
    """One observer's window on one example: the env, its spaces, and failing under the observer's rule.

    Args:
        case: The item (or the shared run) the example belongs to.
        rule: The observer's rule.
        env: The example's env.
    """

    def __init__(self, case: Case, rule: Rule, env: Handle, facts: Any = None) -> None:
        self.case = case
        self.rule = rule
        self.env = env
        self.facts = facts
        """For a vector target, what the instance declares (:class:`~conformance._kit.vector_checks.VecFacts`)."""

    def fail(self, problem: str, *, expected: str = "", actual: str = "") -> NoReturn:
        """Report a violation of the observer's rule in this example."""
        raise self.case.failure(self.rule, problem, expected=expected, actual=actual)

    def space(self, name: str) -> Any:
        """``env.<name>`` (read once per example by whoever asks first); not checkable when it cannot be read."""
        cache: dict[str, Any] = self.case.scratch.setdefault("spaces", {})
        if name not in cache:
            try:
                cache[name] = self.env.get(name)
            except TargetError as error:
                cache[name] = NotCheckable(f"{error} (reported by ENV-001 or ENV-002)")
        found = cache[name]
        if isinstance(found, NotCheckable):
            raise NotCheckable(str(found))
        return found


class Watch:
    """What an observer does during one example; each hook is optional.

    Args:
        view: The observer's view of the example.
    """

    def __init__(self, view: View) -> None:
        self.view = view

    def result(self, index: int, kind: str, raw: Any) -> None:
        """A raw ``reset``/``step`` result, before it is unpacked (``kind`` is ``"reset"`` or ``"step"``)."""

    def record(self, record: Any) -> None:
        """An unpacked result (a :class:`~conformance._kit.rollout.Record`), with the objects as returned."""

    def end(self) -> None:
        """The rollout is over."""


@dataclass(frozen=True)
class Observer:
    """A registered observer.

    Attributes:
        rule_id: Its rule.
        watch: Builds its watch for one example.
        floor: The least evidence its rule needs (the shared run is driven to the strongest of its observers').
        owns: Call kinds whose exceptions violate its rule.
        kinds: Target kinds it observes (``"env"`` rollouts of ``reset``/``step``, or ``"vector"`` ones).
    """

    rule_id: str
    watch: Callable[[View], Watch]
    floor: Floor
    owns: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ("env",)


OBSERVERS: dict[str, Observer] = {}
"""Every observer, by rule id (filled when the suite's test modules are imported)."""


def _register(
    rule_id: str, watch: Callable[[View], Watch], owns: Iterable[str], name: str, kinds: Iterable[str], floor: Floor
) -> TestFunction:
    OBSERVERS[rule_id] = Observer(rule_id, watch, floor, tuple(owns), tuple(kinds))

    @checks(rule_id, kinds=kinds, owns=owns, floor=floor)
    def test(conformance_case: Case) -> None:
        run_dedicated(conformance_case, OBSERVERS[rule_id])

    test.__name__ = test.__qualname__ = name
    test.__doc__ = f"{rule_id}, checked on every reset and step of the target's rollouts."
    return test


def watcher(
    rule_id: str,
    watch: Callable[[View], Watch],
    *,
    name: str,
    floor: Floor,
    owns: Iterable[str] = (),
    kinds: Iterable[str] = ("env",),
) -> TestFunction:
    """Register a stateful observer and return its pytest test function (assign it to ``name`` in the module);
    ``floor``: the least evidence its rule needs."""
    return _register(rule_id, watch, owns, name, kinds, floor)


def observer(
    rule_id: str,
    *,
    floor: Floor,
    on: str = "step",
    raw: bool = False,
    owns: Iterable[str] = (),
    kinds: Iterable[str] = ("env",),
) -> Callable[[Callable[[View, Any], None]], TestFunction]:
    """Register a per-result check as an observer; the decorated function becomes its pytest test function.

    Args:
        rule_id: The rule.
        floor: The least evidence the rule needs to be judged.
        on: Which results it sees: ``"reset"``, ``"step"``, ``"partial"`` (a vector reset with a mask), or
            ``"any"``.
        raw: Whether it sees the raw results (``check(view, (index, kind, raw))``) instead of records.
        owns: Call kinds whose exceptions violate the rule.
        kinds: Target kinds it observes.
    """

    def decorate(check: Callable[[View, Any], None]) -> TestFunction:
        class _Check(Watch):
            if raw:

                def result(self, index: int, kind: str, raw: Any) -> None:
                    if on in ("any", kind):
                        check(self.view, (index, kind, raw))

            else:

                def record(self, record: Any) -> None:
                    if on in ("any", record.kind):
                        check(self.view, record)

        return _register(rule_id, _Check, owns, check.__name__, kinds, floor)

    return decorate


# --- running ------------------------------------------------------------------------------------------------------


def _plans(case: Case) -> Any:
    return plans_for(case)


def _example(
    case: Case, observers: Mapping[str, Observer], plan: Any, verdicts: MutableMapping[str, Any] | None
) -> None:
    """One example: a fresh env, one rollout, every observer in ``observers`` watching.

    With ``verdicts`` (shared mode), an observer's violation or reason to stop is stored there and ends its watch
    (for this and later examples); without, it propagates (dedicated mode).
    """
    case.scratch.clear()
    watches: dict[str, Watch] = {}

    def settle(rule_id: str, exc: BaseException) -> None:
        if verdicts is None:
            raise exc
        verdicts[rule_id] = exc

    def dispatch(hook: str, *args: Any) -> None:
        for rule_id, watch in list(watches.items()):
            try:
                getattr(watch, hook)(*args)
            except (RuleFailure, NotCheckable) as exc:
                del watches[rule_id]
                settle(rule_id, exc)

    def on_result(index: int, kind: str, raw: Any) -> None:
        dispatch("result", index, kind, raw)

    def on_record(record: Any) -> None:
        dispatch("record", record)

    def on_rejected(error: TargetError) -> None:
        # The observers that own step (ENV-016) fail on an action the env rejects; the others go on without it.
        for rule_id in [rule_id for rule_id in watches if "step" in observers[rule_id].owns]:
            del watches[rule_id]
            settle(rule_id, case.translate(error, RULES[rule_id], observers[rule_id].owns))
        case.tally.passed_over(f"{error.call} raised {describe_exception(error.error)}")

    try:
        env = case.make()
        if verdicts is not None and env.on_rejected is not None:
            env.on_rejected = on_rejected
        case.set_seed(plan.seed)
        facts = None
        if case.target.kind == "vector":
            facts = vector_facts(case, env)
        for rule_id, obs in observers.items():
            try:
                watches[rule_id] = obs.watch(View(case, RULES[rule_id], env, facts))
            except (RuleFailure, NotCheckable) as exc:
                settle(rule_id, exc)
        if facts is None:
            rollout.run(env, plan.seed, plan.actions(), on_result=on_result, on_record=on_record)
        else:
            run_plan(case, env, facts, plan, on_result=on_result, on_record=on_record)
        dispatch("end")
    except TargetError as error:
        if verdicts is None:
            raise
        for rule_id in [r for r in observers if r not in verdicts]:
            settle(rule_id, case.translate(error, RULES[rule_id], observers[rule_id].owns))
    except NotCheckable as exc:
        if verdicts is None:
            raise
        for rule_id in [r for r in observers if r not in verdicts]:
            settle(rule_id, exc)


def run_dedicated(case: Case, obs: Observer) -> None:
    """The observer's own item: explore its rollouts alone; fall back on the shared run's failure if any."""
    shared = case.state.verdicts.get(obs.rule_id)

    def example(plan: Any) -> None:
        _example(case, {obs.rule_id: obs}, plan, None)

    def fallback() -> None:
        if shared is not None and shared.failure is not None:
            # The shared run saw a violation this search did not meet again (a rare or nondeterministic example):
            # report it as it was found.
            raise RuleFailure.from_report(shared.failure)

    case.explore(example, _plans(case), then=fallback)


def run_shared(case: Case, rule_ids: Iterable[str]) -> dict[str, ObserverVerdict]:
    """The shared run: every observer of ``rule_ids`` watches the same rollouts; their verdicts as JSON.

    ``case`` is a case of the target (its rule is irrelevant: observers fail under their own).
    """
    kind = case.target.kind
    observers = {
        rule_id: OBSERVERS[rule_id] for rule_id in rule_ids if rule_id in OBSERVERS and kind in OBSERVERS[rule_id].kinds
    }
    outcomes: dict[str, Any] = {}
    probe = case.probe()
    # The shared rollouts are driven to what the most demanding observer needs (ENV-023's episode ends).
    case.floor = strongest(obs.floor for obs in observers.values())
    case.tally = Tally(case.floor, seconds=case.profile.budget, also=tuple(obs.floor for obs in observers.values()))
    case.tally.cap = episode_cap(case.floor, probe.max_episode_steps, case.profile.name)
    plans = _plans(case)

    @given_under(case.profile, plans, first=first_choices(plans))
    def example(plan: Any) -> None:
        active = {rule_id: obs for rule_id, obs in observers.items() if rule_id not in outcomes}
        if not active:
            return
        case.new_example()
        try:
            _example(case, active, plan, outcomes)
        finally:
            case.close_all()

    example()
    verdicts: dict[str, ObserverVerdict] = {}
    for rule_id in observers:
        found = outcomes.get(rule_id)
        if found is None:
            short = shortfall(rule_id, case.target.id, observers[rule_id].floor, case.tally)
            if short is None:
                # A pass that passed over actions the env rejects says so (ENV-016 reports them).
                note = passed_over_note(rule_id, case.tally.evidence(), case.tally.rejected)
                verdicts[rule_id] = ObserverVerdict("passed", note)
            elif not short[1]:
                verdicts[rule_id] = ObserverVerdict("skipped", short[0])  # not observed: its episodes do not end
            # else: under its floor; its item runs on its own and reaches it, or says it could not
        elif isinstance(found, RuleFailure):
            verdicts[rule_id] = ObserverVerdict("failed", failure=found.to_report())
        else:
            message = not_checked(rule_id, case.target.id, str(found))  # as a dedicated item says it
            verdicts[rule_id] = ObserverVerdict("skipped", message)
    return verdicts
