"""Several live instances of one target: interleaved calls stay independent, and a close ends only its instance.

SEED-009 runs programs of calls spread over up to three live instances (Hypothesis state machines: the shrunk
program is the reproducer) and compares each call's result with what the same calls give on an instance that runs
alone; ENV-030 checks that closing one instance leaves the others' ``reset``, ``step`` and ``render`` working.
Both are about instances side by side, which vector envs and evaluation loops rely on.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from hypothesis import stateful
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine

from conformance._kit.api import (
    ENV, SPACES, Call, Case, Floor, Handle, Instance, NotCheckable, Plan, Program, RenderBudget, TargetError,
    begin_program, check_program, checks, elements, end_program, open_instance, owner_of, plans_for, rollout,
    run_machine, run_program, sampler, seeds, target_errors,
)

# SEED-009: how many live instances a program may interleave (closed ones make room for two more), and the render
# modes it renders in (cheap ones only).
_INSTANCES = 3
_CHEAP_MODES = ("ansi", "rgb_array")
# The seeds of the scripted program's two instances (any two different seeds).
_SCRIPT_SEEDS = (11, 22)
# Programs: how many, and how many calls each (an eighth of the profile's rollout length, at least 30: a defect
# shows after a few calls in a row - seed one instance, perturb through another, draw from the first).
_PROGRAMS = 8
_MIN_CALLS = 30
_MAX_CALLS = 100
# The kinds of call a program makes, and how often (relative weights).
# A close ends one instance while others go on (ENV-030 reports a close that makes the others raise).
_CALL_WEIGHTS = (("step", 4), ("reset", 2), ("sample", 2), ("seed", 1), ("render", 1), ("open", 1), ("close", 1))
# ENV-030: examples and their rollout length (a close breaks the next call, not one a hundred steps later).
_CLOSE_EXAMPLES = 2
_CLOSE_STEPS = 40


def _cheap_render_mode(case: Case) -> str | None:
    """A declared mode that renders without a display and quickly (``ansi``, else ``rgb_array``), if any."""
    declared = case.probe().render_modes
    return next((mode for mode in _CHEAP_MODES if mode in declared), None)


def _after_a_close(case: Case, error: TargetError) -> NotCheckable:
    """A reset, step or render that raised after another instance's close: ENV-030's finding when the close caused
    it, else that of the call's own owner (a step given an action the env rejects is ENV-016's, close or not)."""
    owner = owner_of(case.target.kind, error.method, error.mode)
    reporters = "ENV-030" if owner is None else f"{owner} or ENV-030"
    return NotCheckable(f"{error}, after close() on another instance (reported by {reporters})")


def _interleaving_machine(case: Case) -> type[RuleBasedStateMachine]:
    probe = case.probe()
    if probe.action_space is None:
        case.not_checkable("the target has no action_space (reported by ENV-001)")
    actions = elements(probe.action_space)
    mode = _cheap_render_mode(case)
    # A program's render calls are made while the item's render budget lasts (a software-drawn MuJoCo frame takes a
    # second): what is drawn stays what was drawn, only a render drawn past the budget is not made. A failing
    # program makes every later one render in full, so Hypothesis' replay finds what the first run found.
    budget = RenderBudget(case.profile.render_seconds)

    class Interleaving(RuleBasedStateMachine):
        """Calls on two or three live instances in any order; each must be what its own history alone gives."""

        def __init__(self) -> None:
            super().__init__()
            begin_program(case)
            # What is being handled around the program (Hypothesis may run it inside an except clause): teardown
            # sees another exception only when the program itself raised.
            self.context = sys.exc_info()[1]
            self.instances: list[Instance] = []
            self.kwargs: list[dict[str, Any]] = []
            self.calls: list[tuple[int, Call]] = []
            self._open()
            self._open()

        def _open(self) -> None:
            index = len(self.instances)
            # The first instance renders (when a cheap mode is declared), so rendering takes part too.
            kwargs = {"render_mode": mode} if mode is not None and index == 0 else {}
            with target_errors(case):
                self.instances.append(open_instance(case, f"env_{index}", kwargs))
            self.kwargs.append(kwargs)

        def _pick(self, data: st.DataObject, instances: Sequence[Instance]) -> Instance:
            return data.draw(st.sampled_from(instances), label="instance")

        def _perform(self, instance: Instance, call: Call) -> None:
            self.calls.append((self.instances.index(instance), call))
            with target_errors(case):
                try:
                    instance.perform(call)
                except TargetError as error:
                    # A close that raises is close's own finding (ENV-020's, or RENDER-015's after rendering).
                    if call.method != "close" and call.owner == ENV \
                            and any(other.closed for other in self.instances if other is not instance):
                        raise _after_a_close(case, error) from error.error
                    raise

        def _reset(self, data: st.DataObject, instance: Instance) -> None:
            # Seeds another instance used come up often: instances reset with the same seed stay independent too.
            used = sorted({dict(call.kwargs)["seed"] for _, call in self.calls if call.kwargs})
            seeded = st.one_of(seeds(), st.sampled_from(used)) if used else seeds()
            seed = data.draw(st.one_of(st.none(), seeded), label="seed")
            self._perform(instance, Call(ENV, "reset", kwargs=() if seed is None else (("seed", seed),)))

        def _start(self, data: st.DataObject, instance: Instance) -> None:
            self._reset(data, instance)
            for space in SPACES:  # seeded spaces make every later sample comparable
                seed = data.draw(st.one_of(st.none(), seeds()), label=f"{space} seed")
                if seed is not None:
                    self._perform(instance, Call(space, "seed", (seed,)))

        # Both instances start in either order, each seeded or not; the third joins later, if at all.
        @stateful.initialize(data=st.data())
        def start_first(self, data: st.DataObject) -> None:
            self._start(data, self.instances[0])

        @stateful.initialize(data=st.data())
        def start_second(self, data: st.DataObject) -> None:
            self._start(data, self.instances[1])

        @stateful.rule(data=st.data())
        def call(self, data: st.DataObject) -> None:
            # One rule draws the kind of call itself, weighted (Hypothesis would pick rules uniformly): steps, which
            # draw the most randomness, come first and most often. What is drawn never depends on what the target
            # returned (an unseeded episode ends when entropy says), or Hypothesis sees its data generation change;
            # a step drawn for an instance whose episode is over is not made.
            live = [instance for instance in self.instances if not instance.closed]
            rendering = [instance for instance in live if instance.kwargs]
            available = {"render": bool(rendering), "close": len(live) > 1,
                         "open": len(live) < _INSTANCES and len(self.instances) < _INSTANCES + 2}
            kinds = [kind for kind, weight in _CALL_WEIGHTS for _ in range(weight) if available.get(kind, True)]
            kind = data.draw(st.sampled_from(kinds), label="call")
            if kind == "step":
                instance, action = self._pick(data, live), data.draw(actions, label="action")
                if instance.live:
                    self._perform(instance, Call(ENV, "step", (action,)))
            elif kind == "reset":
                self._reset(data, self._pick(data, live))
            elif kind == "render":
                instance = self._pick(data, rendering)
                if budget.allows():
                    with budget.timed():
                        self._perform(instance, Call(ENV, "render"))
            elif kind == "open":
                self._open()
            elif kind == "close":
                self._perform(self._pick(data, live), Call(ENV, "close"))
            else:
                space = data.draw(st.sampled_from(SPACES), label="space")
                args = (data.draw(seeds(), label="seed"),) if kind == "seed" else ()
                self._perform(self._pick(data, live), Call(space, kind, args))

        def teardown(self) -> None:
            try:
                if sys.exc_info()[1] is not self.context:
                    budget.failed = True  # the program itself raised
                else:  # it ran to its end (a failure ends it earlier)
                    program = Program(tuple(self.kwargs), tuple(self.calls))
                    with target_errors(case), budget.example():
                        check_program(case, program, dict(enumerate(self.instances)))
            finally:
                end_program(case)

    return Interleaving


def _scripted_program(case: Case) -> Program | None:
    """The program SEED-009 runs before Hypothesis' ones (``None`` without an action space): two instances seeded
    apart take steps in turn, then each resets without a seed in turn and steps on; both reset with one seed and
    step in turn; each seeds its action space and samples in turn; a third instance is made, stepped and closed
    while they step on, and each resets again after that close. State shared between instances (a generator
    class-wide, module-wide or global, one an unseeded reset hands over, one per seed, a space's; a setting a close
    restores; a table a close empties) shows in it, whichever programs Hypothesis' draws make."""
    space = case.probe().action_space
    if space is None:
        return None
    first, second = _SCRIPT_SEEDS
    action = sampler(space)(np.random.default_rng(first))

    def reset(seed: int | None) -> Call:
        return Call(ENV, "reset", kwargs=() if seed is None else (("seed", seed),))

    step = Call(ENV, "step", (action,))
    calls = [(0, reset(first)), (1, reset(second)), (0, step), (1, step), (0, step), (1, step),
             (0, reset(None)), (1, reset(None)), (0, step), (1, step), (0, step), (1, step), (1, reset(None)),
             (0, step), (1, step)]
    calls += [(0, reset(first)), (1, reset(first)), (0, step), (1, step), (0, step), (1, step)]
    calls += [(0, Call("action_space", "seed", (first,))), (1, Call("action_space", "seed", (second,)))]
    calls += [(index, Call("action_space", "sample")) for index in (0, 1, 0, 1)]
    calls += [(2, reset(second)), (2, step), (2, Call(ENV, "close")), (0, step), (1, step)]
    # A close may clear state the others read only when they start an episode (a class-level table).
    calls += [(0, reset(first)), (0, step), (1, reset(None)), (1, step)]
    return Program(({}, {}, {}), tuple(calls))


def _run_scripted(case: Case) -> None:
    """Run :func:`_scripted_program` and check it; an env whose episode ends before a scripted step leaves it to
    Hypothesis' programs."""
    program = _scripted_program(case)
    if program is None:
        return
    try:
        instances = run_program(case, program)
    except TargetError as error:
        # The script closes an instance while the others go on: a reset, step or render that raises may be that
        # close's doing (ENV-030's finding) as much as the call's own owner's.
        if error.method in ("reset", "step", "render"):
            raise _after_a_close(case, error) from error.error
        raise
    if instances is not None:
        check_program(case, program, instances)


@checks("SEED-009", floor=Floor(instances=2, steps=10))
def test_instances_interleave_independently(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()
    # The check shortens a failing program itself (cheaply: no strategy to re-draw), so Hypothesis need not.
    calls = min(_MAX_CALLS, max(_MIN_CALLS, case.profile.max_steps // 8))
    run_machine(case, _interleaving_machine(case), max_examples=min(case.profile.max_examples, _PROGRAMS),
                calls=calls, shrink=False, first=lambda: _run_scripted(case))


def _renders(env: Handle) -> bool:
    """Whether an instance made with a render mode renders after a reset (a renderer that cannot start on this
    machine, e.g. MuJoCo without an OpenGL platform, leaves ENV-030 to the calls that work)."""
    try:
        env.reset(seed=0)
        env.render()
    except TargetError:
        return False
    return True


@checks("ENV-030", floor=Floor(instances=2, steps=10), owns=("reset", "step", "render"))
def test_close_leaves_other_instances_working(conformance_case: Case) -> None:
    case = conformance_case
    mode = _cheap_render_mode(case)
    rendering: list[bool] = []  # decided in the first example (on the worker, where every call is guarded)
    # The first example always renders; a later one renders only while the item's render budget lasts, deciding at
    # its start so its two runs (without and with the close) render alike (a software-drawn MuJoCo frame takes a
    # second, and the first in each instance makes its GL context). After a failure, every later example renders.
    budget = RenderBudget(case.profile.render_seconds)
    drawing: list[bool] = [False]  # whether the current example renders

    def render(env: Handle) -> None:
        if drawing[0]:
            with budget.timed():
                env.render()

    def calls(env: Handle, plan: Plan, actions: list[Any], middle: Callable[[], None]) -> None:
        # Each kind of call once after the close (render once before it too): a close that releases something
        # shared breaks the next call that needs it, whichever it is.
        half = len(actions) // 2
        rollout.run(env, plan.seed, actions[:half])
        render(env)
        middle()
        rollout.run(env, None, actions[half:])
        render(env)
        env.reset(seed=plan.seed)

    def first_instance() -> Handle:
        """``env``, made with the cheap render mode when one renders here (decided by the first example)."""
        if not rendering and mode is not None:
            env = case.make("env", render_mode=mode)
            with budget.timed():  # a render too (after a reset)
                rendering.append(_renders(env))
            if rendering[0]:
                return env
            case.close_all()
            case.new_example()
        if not rendering:
            rendering.append(False)
        return case.make("env", **({"render_mode": mode} if rendering[0] else {}))

    def example(plan: Plan) -> None:
        with budget.example():
            checked(plan)

    def checked(plan: Plan) -> None:
        actions = plan.actions()
        drawing[0] = budget.allows()
        env = first_instance()
        drawing[0] = drawing[0] and rendering[0]
        # The same calls first with no close at all: what fails there is not this rule's finding (their own rules
        # report it). Then, on the same instance (its seeded reset starts over, SEED-005), with another instance
        # made, reset and closed in the middle. Two constructions in all: a target costly to construct (seconds an
        # instance) pays for two, and no instance here was built before a close (a constructor may restore what a
        # close released).
        try:
            calls(env, plan, actions, lambda: None)
        except TargetError as error:
            raise case.translate(error, case.rule, ()) from error.error
        other = case.make("other", **({"render_mode": mode} if rendering[0] else {}))
        other.reset(seed=plan.seed)
        render(other)
        calls(env, plan, actions, other.close)

    short = plans_for(case, max_steps=min(case.profile.max_steps, _CLOSE_STEPS))
    case.explore(example, short, max_examples=min(case.profile.max_examples, _CLOSE_EXAMPLES))
