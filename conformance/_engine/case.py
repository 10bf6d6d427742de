"""One (rule, target) item: the object every conformance test receives as ``conformance_case``, and the decorator that
ties a test to its rule.

**Case.** One (rule, target) item: the object every conformance test receives as ``conformance_case``.

A check describes *what* to verify; the :class:`Case` supplies the *how*: fresh recorded instances
(:meth:`Case.make`), Hypothesis runs under the item's profile (:meth:`Case.explore`, :meth:`Case.once`, or a driver
of one's own through :meth:`Case.conclude`), and the translation of what happened into an outcome:

* a :class:`~conformance._engine.outcomes.RuleFailure` fails a MUST-level item, and is a warning of the rule's own class
  for a SHOULD-level one (the item then counts as "warned");
* an exception raised by the target fails the item when the rule *owns* that call (``step`` for ENV-016, ...),
  and otherwise skips it as not checkable, naming the rule that reports it
  (:data:`~conformance._engine.verdicts.OWNERS`, by target kind), or, when no rule owns that call, is an error: not
  checked (the words of every such ending are :mod:`conformance._engine.verdicts`');
* an exception raised by ``human`` rendering on a machine with no display skips the item, saying how to check it;
* a call that exceeds the timeout fails the item, and every later item of that target fails fast.

Constructions are budgeted (:mod:`conformance._engine.shelf`): for a target costly to construct, :meth:`Case.make`
defers a construction to the handle's first use, which takes an untouched instance from the zygote's shelf, or, for
a seeded ``reset``, an instance an earlier example is done with. A target that refuses a second live instance in a
process gets it in a process of its own (:mod:`conformance._engine.remote`), so the rules that need two instances
still check it; ENV-021 reports the refusal.

**Marks.** The decorator that ties a conformance test to its rule: ``@checks("ENV-016", owns=("step",))``.

Named ``checks`` rather than ``rule`` so that a suite module may also use Hypothesis' stateful ``rule``.
"""

from __future__ import annotations

import contextlib
import functools
import random
import warnings
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, Protocol, TypeVar

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from conformance._engine import remote, shelf
from conformance._engine.describe import describe_exception
from conformance._engine.evidence import Floor, Tally, episode_cap, shortfall
from conformance._engine.handles import ConstructionFailed, Handle, TargetError
from conformance._engine.outcomes import NotCheckable, RuleFailure, Unchecked
from conformance._engine.profiles import Profile, first_choices, given_under
from conformance._engine.record import Trace
from conformance._engine.remote import Remote
from conformance._engine.state import Probe, TargetState
from conformance._engine.verdicts import (
    display_missing,
    display_remedy,
    drawing_through_sdl_dummy,
    from_windowing,
    headless,
    hung_earlier,
    no_return,
    not_checked,
    owner_of,
    reported_by,
    unavailable,
    unconstructible,
    unowned,
)
from conformance._engine.watchdog import CallTimeout, Guard
from conformance._engine.zygote import in_job
from conformance._kit.pristine import WarningState
from conformance.rule_warnings import warning_class
from gymspec.rules import Rule

__all__ = [
    "Assertion",
    "Case",
    "SINGLE_INSTANCE_RULE",
    "checks",
]


# --- Case ----------------------------------------------------------------------------------------------------------


class Assertion(Protocol):
    """The assertion a failure's reproducer ends in, given to :meth:`Case.fail` (the kinds are in
    :mod:`conformance._kit.expectations`, which the engine does not import)."""

    def write(self, case: Case, problem: str) -> None:
        """End ``case``'s reproducer with the assertion, its message saying ``problem`` unless it names its own."""


SINGLE_INSTANCE_RULE = "ENV-021"
"""The rule a target refusing a second live instance breaks; the other rules' second instance lives in a process of
its own then (:mod:`conformance._engine.remote`)."""

def _rule_failure_in(exc: BaseException) -> RuleFailure | None:
    if isinstance(exc, RuleFailure):
        return exc
    for inner in getattr(exc, "exceptions", ()):
        found = _rule_failure_in(inner)
        if found is not None:
            return found
    return None


class Case:
    """The context of one (rule, target) item.

    Args:
        rule: The rule under check.
        state: The target's shared state (probe, construction error, hang).
        profile: The effort profile.
        watchdog: The guard every call into the target goes through.
        owns: Call kinds whose exceptions are violations of this rule rather than reasons to skip.
        floor: The least evidence the rule needs to be judged (:mod:`conformance._engine.evidence`): a run that
            found nothing with less is not checked, never a pass.
    """

    def __init__(
        self, rule: Rule, state: TargetState, profile: Profile, watchdog: Guard, owns: Iterable[str] = (),
        floor: Floor | None = None,
    ) -> None:
        self.rule = rule
        self.state = state
        self.target = state.target
        self.profile = profile
        self.watchdog = watchdog
        self.owns = frozenset(owns)
        self.violations: list[RuleFailure] = []
        self._trace = Trace(self.target.imports)
        self._handles: list[Handle] = []
        self._seed: int | None = None
        self.scratch: dict[str, Any] = {}
        """Per-example memory of the check (cleared by :meth:`new_example`)."""
        self.floor = floor if floor is not None else Floor()
        self.tally = Tally(self.floor, seconds=profile.budget)
        """What the item's calls observed (its evidence), counted as they return."""

    @property
    def examples(self) -> int:
        """How many examples the item ran."""
        return self.tally.examples

    @property
    def steps(self) -> int:
        """How many ``step`` calls the item's examples made."""
        return self.tally.steps

    def exhausted(self, why: str) -> None:
        """Say that a rollout ran as far as it could without the episode event the rule's floor asks for, because
        ``why`` ("the episode ended truncated, not terminated"): an item that ends under its floor is then *not
        observed* (a skip naming ``why``), not unchecked."""
        self.tally.exhaust(why)

    def judged(self, name: str, count: int = 1) -> None:
        """Count ``count`` more of what the check judged under ``name`` (a ``judged`` entry of the rule's floor:
        "terminal steps compared"), where the calls alone do not say it."""
        self.tally.judged(name, count)

    # --- facts about the target ------------------------------------------------------------------------------

    @property
    def mandatory(self) -> bool:
        """Whether a violation fails the item (MUST / MUST NOT)."""
        return self.rule.level.is_mandatory

    def probe(self) -> Probe:
        """What the target exposes; skips the item if the target cannot be constructed, fails it if it hung."""
        self.ensure_alive()
        probe = self.state.probe()
        self.ensure_alive()
        if probe is None and self.target.unavailable is not None:
            pytest.skip(unavailable(self.rule.id, self.target.unavailable))
        if probe is None:
            pytest.skip(unconstructible(self.rule.id, self.target.id, self.state.construct_error))
        return probe

    def ensure_alive(self) -> None:
        """Fail fast when an earlier call into this target hung."""
        if self.state.hung is not None:
            raise Unchecked(hung_earlier(self.rule.id, self.target.id, self.state.hung))

    def require(self, condition: object, reason: str) -> None:
        """Skip the item as not applicable unless ``condition`` holds."""
        if not condition:
            pytest.skip(f"{self.rule.id} not applicable to {self.target.id}: {reason}")

    def skip_if_nondeterministic(self) -> None:
        """Honour ``spec.nondeterministic``: determinism rules do not apply to such targets."""
        if self.probe().nondeterministic:
            pytest.skip(f"{self.rule.id} not applicable to {self.target.id}: its spec declares nondeterministic=True")

    # --- recorded instances ------------------------------------------------------------------------------------

    def make(self, var: str = "env", **kwargs: Any) -> Handle:
        """Construct a fresh instance of the target, recorded as ``var = <constructor>``.

        For a target costly to construct (in a job process), when the shelf or the bin holds an instance of this
        construction, the construction is deferred to the handle's first use, which takes an untouched instance
        from the shelf or, for a seeded ``reset``, a recycled one (:mod:`conformance._engine.shelf`); a construction
        it still has to make that raises surfaces there as :class:`~conformance._engine.handles.ConstructionFailed`,
        which the case translates as it does here.

        Raises:
            TargetError: If construction raised (method ``"construct"``, or ``"render_construct"`` when a
                ``render_mode`` was given).
        """
        expression = self.target.constructor_source(**kwargs)
        self._trace.construct(var, expression)
        self.tally.constructed()
        mode = kwargs.get("render_mode")
        mode_text = mode if isinstance(mode, str) else ""
        method = "render_construct" if mode is not None else "construct"
        key = shelf.key_of(kwargs)
        # ENV-021's second instance is the construction under check: made beside the first, or one of the shelf's
        # (built beside live instances).
        second = self.rule.id == SINGLE_INSTANCE_RULE and bool(self._handles)
        watched = self.rule.id in shelf.CONSTRUCTING_RULES
        untouched = shelf.untouched(key) if second and shelf.costly() is not None and in_job() else None
        if untouched is not None:
            # The shelf's instances were built beside live ones (the probed instance, kept): a second live
            # construction that already succeeded in this target's process, which is what the rule asks for.
            handle = Handle(untouched, var, self._trace, self.watchdog, mode=mode_text, tally=self.tally,
                            instance=True)
            handle.key = key
        elif shelf.costly() is not None and in_job() and shelf.stocked(key) and not second and not watched:
            # Only a construction the shelf or the bin may serve is deferred: one that has no instance of its kind
            # in this process (an undeclared mode, say, which is meant to raise, or warn, right here) is made now.
            fresh_only = self.rule.id in shelf.FRESH_RULES

            def bind(reusable: bool) -> Any:
                found = shelf.recycled(key) if reusable and not fresh_only else None
                if found is None:
                    found = shelf.untouched(key)
                if found is not None:
                    return found
                try:
                    return self._construct(expression, method, mode_text, kwargs)
                except TargetError as error:
                    raise ConstructionFailed(error) from error.error

            handle = Handle(None, var, self._trace, self.watchdog, mode=mode_text, binder=bind, tally=self.tally,
                            instance=True)
            handle.key = key
        else:
            handle = Handle(self._construct(expression, method, mode_text, kwargs), var, self._trace, self.watchdog,
                            mode=mode_text, tally=self.tally, instance=True)
        handle.beside = functools.partial(self._beside, handle)
        if "step" not in self.owns:
            # Another rule (ENV-016) reports an action the env rejects: this one goes on with the actions it accepts.
            handle.on_rejected = self._rejected
        self._handles.append(handle)
        return handle

    def _rejected(self, error: TargetError) -> None:
        self.tally.passed_over(f"{error.call} raised {describe_exception(error.error)}")

    def _beside(self, handle: Handle | None) -> bool:
        """Whether another instance than ``handle``'s is live in this process (a call on one beside another has a
        shape of its own: an emulator allowing one live instance per process blocks there)."""
        if handle is not None and handle.remote is not None:
            return False
        return any(other is not handle and other.held is not None and other.remote is None and not other.closed
                   for other in self._handles)

    def _construct(self, expression: str, method: str, mode: str, kwargs: dict[str, Any]) -> Any:
        """A new instance, or a :class:`~conformance._engine.remote.Remote` one when the target refuses a second
        live instance in this process but constructs alone."""
        beside = self._beside(None)
        if beside and self.state.single_instance:
            # A call on a second live instance never returned earlier in the run: the second lives in a process of
            # its own from the start (ENV-021, whose finding it is, never gets one).
            elsewhere = self._elsewhere(expression, method, mode, kwargs)
            if elsewhere is not None:
                return elsewhere
        try:
            return self.watchdog.call(expression, lambda: self.target.construct(**kwargs), method=method, mode=mode,
                                      beside=beside)
        except (Exception, SystemExit) as exc:  # noqa: BLE001
            elsewhere = self._elsewhere(expression, method, mode, kwargs)
            if elsewhere is None:
                raise TargetError(expression, method, exc, mode=mode) from exc
            return elsewhere

    def _elsewhere(self, expression: str, method: str, mode: str, kwargs: dict[str, Any]) -> Remote | None:
        """After a construction raised with other instances of the target live in this job process: the same
        construction in a process of its own, where those are closed (``None`` when there are none, when it raises
        there too, or for ENV-021, whose finding the refusal is)."""
        live = [handle.held for handle in self._handles if handle.held is not None and not handle.closed]
        if self.rule.id == SINGLE_INSTANCE_RULE or not in_job() or not (live or shelf.holding()):
            return None
        wanted, probe = kwargs.get("render_mode"), self.state.probe()
        if wanted is not None and (probe is None or wanted not in probe.render_modes):
            return None  # a mode nothing declares is meant to be refused, alone or not

        def release() -> None:
            for obj in live:
                with contextlib.suppress(Exception):
                    _close(obj)
            shelf.release(_close)

        try:
            elsewhere = self.watchdog.call(
                f"{expression} (in a process of its own)",
                lambda: remote.start(release, lambda: self.target.construct(**kwargs)), method=method, mode=mode,
            )
            self.tally.another_process()
            return elsewhere
        except (Exception, SystemExit):  # noqa: BLE001 - it does not construct alone either: its own failure stands
            return None

    def probed(self, var: str = "env") -> Probe:
        """What a fresh instance exposes, as the probe read it, with ``var = <constructor>`` in the reproducer.

        For checks that only read a fresh instance's spaces or metadata: the probe read them from one, once per
        target, and constructing another is most of such an item's cost when construction is slow (ALE loads its
        ROM). The probe's objects are shared: checks read them and seed or sample only copies.
        """
        probe = self.probe()
        self._trace.construct(var, self.target.constructor_source())
        self.tally.constructed()
        return probe

    def wrap(
        self, obj: Any, var: str, expression: str, *, imports: Iterable[str] = (), counted: bool = True
    ) -> Handle:
        """Record ``var = expression`` and return a handle on ``obj`` (a space, an inner layer...).

        Args:
            obj: The object the expression evaluates to.
            var: Its name in the reproducer.
            expression: Source that rebuilds it from earlier variables.
            imports: Import lines the expression needs (e.g. ``"import copy"``).
            counted: Whether its calls count as the item's evidence (not those of a model the check builds to
                predict the target: a vector env's sub-envs driven alone).
        """
        for line in imports:
            self._trace.require(line)
        self._trace.construct(var, expression)
        return Handle(obj, var, self._trace, self.watchdog, tally=self.tally if counted else None)

    def note(self, line: str, *, imports: Iterable[str] = ()) -> None:
        """Add a literal line (and the imports it needs) to the reproducer."""
        for import_line in imports:
            self._trace.require(import_line)
        self._trace.line(line)

    def expect(self, *lines: str, imports: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> None:
        """End the reproducer with an assertion that fails while the defect exists (see
        :meth:`~conformance._engine.record.Trace.expect`, which says what ``drop`` leaves out); call it just before
        failing."""
        self._trace.expect(*lines, imports=imports, drop=drop)

    def set_seed(self, seed: int) -> None:
        """Name the example's seed in the failure header when it is not that of the example's first seeded
        ``reset``, which is named without asking (a seed given to a space, say)."""
        self._seed = seed

    # --- outcomes ------------------------------------------------------------------------------------------------

    def failure(self, rule: Rule, problem: str, *, expected: str = "", actual: str = "") -> RuleFailure:
        """A violation of ``rule`` in the current example (with its reproducer), to raise."""
        return RuleFailure(
            rule.id,
            rule.level.value,
            rule.text,
            self.target.id,
            problem,
            expected=expected,
            actual=actual,
            reproducer=self._trace.script() if len(self._trace) else "",
            seed=self._seed if self._seed is not None else self._trace.seed,
        )

    def fail(
        self, problem: str, *, expected: str = "", actual: str = "", assertion: Assertion | None = None
    ) -> NoReturn:
        """Report a violation of the item's rule (with the current example's reproducer); ``assertion`` (one of
        :mod:`conformance._kit.expectations`) is what the reproducer ends in, its message ``problem`` unless it
        names its own: one statement says the finding and what a fixed target makes true."""
        if assertion is not None:
            assertion.write(self, problem)
        raise self.failure(self.rule, problem, expected=expected, actual=actual)

    def not_checkable(self, reason: str) -> NoReturn:
        """Give up on this item: something else (named in ``reason``) prevents checking the rule."""
        raise NotCheckable(reason)

    def _from_target_error(self, error: TargetError) -> BaseException:
        return self.translate(error, self.rule, self.owns)

    def translate(self, error: TargetError, rule: Rule, owns: Iterable[str]) -> BaseException:
        """What an exception the target raised means for ``rule`` (which owns the call kinds ``owns``).

        Returns:
            A :class:`RuleFailure` when the rule owns the call, else a :class:`NotCheckable` naming who reports it
            (an :class:`Unchecked` when nobody can: a call no rule owns, or a mode this machine cannot draw).
        """
        if self.human_without_display(error):
            return NotCheckable(
                f"{error}, in render mode 'human' on a machine with no display (DISPLAY/WAYLAND_DISPLAY unset); "
                "check human rendering under a display, e.g. xvfb-run -a pytest --pyargs conformance ..."
            )
        # Another declared mode that opens a window to draw (pyglet's offscreen frames do) fails here for the same
        # reason: not the env's break on this machine, nor a pass; an error that names the display and the remedy.
        if error.mode not in ("", "human") and not error.worked and display_missing(error.error):
            return Unchecked(not_checked(
                rule.id, self.target.id, f"{error}, in render mode {error.mode!r} on a machine with no display "
                f"(DISPLAY/WAYLAND_DISPLAY unset): the env draws that mode through a window; "
                f"{display_remedy(error.error)}"))
        if error.method in owns:
            failure = self.failure(
                rule,
                f"{error.call} raised {describe_exception(error.error)}",
                expected="the call returns normally",
                actual=f"{describe_exception(error.error)}",
            )
            failure.__cause__ = error.error
            return failure
        owner = owner_of(self.target.kind, error.method, error.mode)
        if owner is None:
            # Nobody reports it, so skipping would hide it: the item could not be checked, and says why.
            return Unchecked(unowned(self.rule.id, self.target.id, self.target.kind, error.method, str(error)))
        return NotCheckable(reported_by(str(error), owner))

    def human_without_display(self, error: TargetError) -> bool:
        """Whether ``error`` is human rendering that never worked on its instance, on a machine with no display: the
        machine's limit, not the env's (unless the env draws with pygame, which SDL's dummy driver serves
        headless)."""
        return (
            error.mode == "human"
            and not error.worked
            and headless()
            and not drawing_through_sdl_dummy()
            and not self._fails_without_a_display(error)
        )

    def _fails_without_a_display(self, error: TargetError) -> bool:
        """Whether a ``human``-mode failure is not the display's: the construction fails the same way in another
        declared mode (highway-env's lane-keeping-v0 rejects ``render_mode`` whatever it is), or the error came
        from no windowing layer (its traceback passes through none, and its message names no display)."""
        if error.method == "render_construct":
            for mode in self.probe().render_modes:
                if mode == "human":
                    continue
                try:
                    env = self.watchdog.call(f"construct(render_mode={mode!r})",
                                             functools.partial(self.target.construct, render_mode=mode))
                except Exception as other:  # noqa: BLE001 - the same failure without a window: the env's own
                    if type(other) is type(error.error):
                        return True
                    continue
                closing: Callable[[], object] = getattr(env, "close", lambda: None)
                with contextlib.suppress(Exception):
                    self.watchdog.call(f"construct(render_mode={mode!r}).close", closing)
                return False  # another mode constructs: the human mode's failure may well be the display's
        return not from_windowing(error.error)

    # --- running examples ------------------------------------------------------------------------------------
    # once() and explore() drive these three; a driver that draws its own examples (conformance._kit.stateful)
    # calls them directly: conclude(run) around the whole run, new_example() before and close_all() after each example.

    def new_example(self) -> None:
        """Start an example: an empty reproducer, no seed named and no open instances.

        Call before each example when driving examples yourself; :meth:`once` and :meth:`explore` already do.
        """
        self.tally.new_example()
        self._trace = Trace(self.target.imports)
        self._handles = []
        self._seed = None
        self.scratch = {}

    def close_all(self) -> None:
        """Close every instance :meth:`make` built since :meth:`new_example`, newest first.

        Exceptions from ``close`` are swallowed (ENV-020 checks ``close`` itself); a hang still raises
        :class:`~conformance._engine.watchdog.CallTimeout`, which :meth:`conclude` turns into a failure.
        """
        for handle in reversed(self._handles):
            obj = handle.held
            elsewhere = handle.remote
            if elsewhere is not None:
                try:
                    handle.call("close", record=False)
                except (TargetError, ConstructionFailed):
                    pass
                finally:
                    elsewhere.stop()
                continue
            if not handle.bound or obj is None:
                continue  # a deferred construction never used: nothing was built
            if handle.key is not None and not (handle.closed or handle.failed or handle.exposed):
                # A costly target's instance the check is done with: kept for a later seeded use (shelf.py).
                shelf.recycle(handle.key, obj, functools.partial(self._close, handle))
                continue
            self._close(handle, obj)
        self._handles = []

    def _close(self, handle: Handle, obj: Any) -> None:
        try:
            self.watchdog.call(f"{handle.var}.close()", lambda: _close(obj), method="close", mode=handle.mode)
        except (Exception, SystemExit):  # noqa: BLE001, S110 - cleanup only; ENV-020 checks close itself
            pass

    def _example(self, body: Callable[..., None], args: tuple[Any, ...]) -> None:
        """Run one example on the worker; translate target errors while Hypothesis can still shrink them."""
        self.new_example()

        def guarded() -> None:
            try:
                body(*args)
            finally:
                self.close_all()

        try:
            self.watchdog.run(guarded)
        except TargetError as error:
            raise self._from_target_error(error) from error.error
        except ConstructionFailed as failed:
            raise self._from_target_error(failed.error) from failed.error.error

    def conclude(self, run: Callable[[], None]) -> None:
        """Run ``run`` (the item's whole Hypothesis run) and turn its ending into the item's outcome.

        The item skips if the target cannot be constructed, fails fast if it hung earlier, and otherwise: a
        :class:`~conformance._engine.outcomes.NotCheckable` skips it, a timeout fails it (and marks the target hung), a
        :class:`~conformance._engine.outcomes.RuleFailure` fails a MUST item and is recorded and warned for a SHOULD
        item. The global ``random`` and NumPy generators are restored afterwards, whatever the target did.

        Args:
            run: Runs every example (each between :meth:`new_example` and :meth:`close_all`).

        Raises:
            RuleFailure: For a MUST-level violation or a hang.
        """
        probe = self.probe()  # a target that cannot be constructed, or hung, ends the item here
        self.tally.cap = episode_cap(self.floor, probe.max_episode_steps, self.profile.name)
        saved_random, saved_numpy = random.getstate(), np.random.get_state()
        user_warnings = WarningState()  # the filters the user chose; the target may change them while it runs
        try:
            try:
                try:
                    run()
                except ConstructionFailed as failed:  # a deferred construction, met outside an example
                    raise self._from_target_error(failed.error) from failed.error.error
                self._weigh_evidence()
            except Exception as exc:
                # Hypothesis wraps a failure that did not reproduce on replay in an exception group.
                inner = _rule_failure_in(exc)
                endings = (NotCheckable, Unchecked, CallTimeout, HypothesisException)  # each handled below
                if inner is None and not isinstance(exc, endings):
                    # A check stopped on a value it could not inspect (e.g. a list where a space belongs): still a
                    # finding of this rule, with its header, never a bare traceback.
                    raise self.failure(
                        self.rule,
                        f"checking the rule stopped on {describe_exception(exc)}",
                        expected="values of the types the API prescribes (the traceback shows the one the check "
                        "met)",
                        actual=describe_exception(exc),
                    ) from exc
                if inner is None or inner is exc:
                    raise
                raise inner  # noqa: B904 - keeps the target error as __cause__
        except NotCheckable as exc:
            pytest.skip(not_checked(self.rule.id, self.target.id, str(exc)))
        except CallTimeout as exc:
            self.state.hung = f"{no_return(exc.label, exc.timeout)}, in {self.rule.id}"
            problem = f"the target hung: {no_return(exc.label, exc.timeout)}"
            self.fail(problem, expected="every call returns", actual="no return (the call was abandoned)")
        except RuleFailure as failure:
            if self.mandatory:
                raise
            self.violations.append(failure)
            with user_warnings.active():
                warnings.warn(warning_class(self.rule.id)(failure.render()), stacklevel=2)
        finally:
            # The suite never changes the global generators, whatever the target does to them.
            random.setstate(saved_random)
            np.random.set_state(saved_numpy)

    def _weigh_evidence(self) -> None:
        """After a run that found nothing: pass only on the evidence the rule's floor asks for. Under it, the item
        was not checked (an error: too little time or too few examples), or, when its rollouts ran to the episode
        cap without the episode ends the rule is about, not observed (a skip: no defect and no pass)."""
        if self.violations:
            return  # a SHOULD rule's violation is a finding, whatever else was seen
        found = shortfall(self.rule.id, self.target.id, self.floor, self.tally)
        if found is None:
            return
        message, checked = found
        if not checked:
            pytest.skip(message)
        raise Unchecked(message)

    def once(self, body: Callable[[], None]) -> None:
        """Run ``body`` a single time (checks with nothing to draw)."""
        self.conclude(lambda: self._example(body, ()))

    def explore(
        self,
        body: Callable[..., None],
        *strategies: st.SearchStrategy[Any],
        max_examples: int | None = None,
        then: Callable[[], None] | None = None,
    ) -> None:
        """Run ``body`` under Hypothesis, drawing one value from each strategy per example, and conclude the item.

        Args:
            body: The check of one example; it takes one positional argument per strategy.
            *strategies: What to draw.
            max_examples: Overrides the profile's example count.
            then: Runs after every example passed (it may still fail the item).
        """

        @given_under(self.profile, st.tuples(*strategies), max_examples=max_examples,
                     first=first_choices(strategies[0]) if strategies else None)
        def example(drawn: tuple[Any, ...]) -> None:
            self._example(body, drawn)

        def run() -> None:
            example()
            if then is not None:
                then()

        self.conclude(run)


def _close(obj: Any) -> None:
    close = getattr(obj, "close", None)
    if callable(close):
        close()


# --- Marks ---------------------------------------------------------------------------------------------------------

F = TypeVar("F", bound=Callable[..., None])


def checks(
    rule_id: str, *, floor: Floor, kinds: Iterable[str] = ("env",), owns: Iterable[str] = ()
) -> Callable[[F], F]:
    """Mark a test as the check of ``rule_id``; the plugin makes one item per target of ``kinds``.

    Args:
        rule_id: The rule, e.g. ``"ENV-016"``.
        floor: The least evidence the rule's statement needs to be judged (``Floor()`` for a fixed fact of the
            target): an item that finds nothing with less is not checked, never a pass
            (:mod:`conformance._engine.evidence`).
        kinds: Target kinds the rule applies to (``"env"``, ``"vector"``, ``"func"``).
        owns: Call kinds (``"construct"``, ``"reset"``, ``"step"``, ``"render"``, ``"close"``) whose exceptions
            are violations of this rule; other rules skip when those calls raise.

    Returns:
        The marker decorator.
    """
    mark = pytest.mark.conformance_rule(rule_id, kinds=tuple(kinds), owns=tuple(owns), floor=floor)

    def decorate(fn: F) -> F:
        decorated: F = mark(fn)
        return decorated

    return decorate
