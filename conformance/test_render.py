"""RENDER rules: render modes are declared, fixed at construction, and each returns frames of its kind.

Which rules apply is decided by the target's own ``metadata["render_modes"]``; an env is constructed once per
declared mode (``render_mode=`` is passed to the factory, or to ``make`` for ids). ``"human"`` rollouts are kept
to a few steps, since such envs usually pace themselves to ``render_fps``.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from conformance._kit.api import (
    CONSTRUCTION, FACT, FRAMES, PROFILES, Case, Equal, Floor, Handle, History, Holds, Plan, RenderBudget, TargetError,
    checks, copied, describe_exception, difference, expect_raises, expect_same_results, expect_true, full_first,
    is_array, is_list, is_list_or_tuple, is_mapping, plans_for, read, reproducibility_gate, returned, rollout,
    snapshot, summarize, surely_unchanged, type_name,
)
from gymspec.errors import UnsupportedMode, matches

_UNDECLARED = "conformance-undeclared-mode"
_HUMAN_STEPS = 0
# Every rollout renders after each reset, and after its steps as the item's render budget allows
# (conformance/_kit/frames.py: every step while frames are cheap, else at a stride).
_FRAME_STEPS = 20
# RENDER-001: render() calls after the rollout, each followed by a look at render_mode.
_MODE_RENDERS = 3
_FRAME_EXAMPLES = 3
# The deep rollouts of RENDER-012/013/014: past 100 steps and across two episodes (the first is cut at half way
# by an unseeded reset when it runs longer), when the target's budget was not cut.
_DEEP_STEPS = 130
_DEEP_EXAMPLES = 1  # the depth is in the length: one long rollout finds what these shapes hide
_FRAME_BYTES = 32 << 20  # frames RENDER-013 keeps (with their copies) before it drops the oldest


def _modes(case: Case) -> tuple[str, ...]:
    return case.probe().render_modes


def _renders_nothing(case: Case) -> bool:
    """Whether the target declares no render mode (``metadata["render_modes"] == []``): then a constructor that
    rejects ``render_mode=None`` (it has no such parameter) takes nothing from a caller that renders."""
    metadata = case.probe().metadata
    return is_mapping(metadata) and is_list_or_tuple(metadata.get("render_modes")) and not metadata["render_modes"]


def _frame_problem(mode: str, frame: Any) -> str | None:
    """Why ``frame`` breaks the frame rule of ``mode`` (``None``: fine, or a mode without a frame rule)."""
    if mode == "rgb_array":
        ok = is_array(frame) and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        if not ok or not is_array(frame) or frame.shape[0] == 0 or frame.shape[1] == 0:
            return "an rgb_array frame must be a uint8 ndarray of shape (H, W, 3) with H, W > 0"
    elif mode == "ansi" and not isinstance(frame, str):
        return "an ansi frame must be a str"
    elif mode == "human" and frame is not None:
        return "render() in human mode must return None"
    elif mode == "depth_array" and not (is_array(frame) and frame.ndim == 2):
        return "a depth_array frame must be a 2-D ndarray"
    elif mode.endswith("_list"):
        if not is_list(frame):
            return f"a {mode} frame must be a list"
        for item in frame:
            found = _frame_problem(mode.removesuffix("_list"), item)
            if found is not None:
                return f"an item of the {mode} list breaks its rule: {found}"
    return None


def _frame_condition(mode: str, frame: str) -> str:
    """:func:`_frame_problem` as the source of a condition on the expression ``frame`` (for reproducers)."""
    if mode == "rgb_array":
        return (f"isinstance({frame}, np.ndarray) and {frame}.dtype == np.uint8 and {frame}.ndim == 3 and "
                f"{frame}.shape[2] == 3 and {frame}.shape[0] > 0 and {frame}.shape[1] > 0")
    if mode == "ansi":
        return f"isinstance({frame}, str)"
    if mode == "human":
        return f"{frame} is None"
    if mode == "depth_array":
        return f"isinstance({frame}, np.ndarray) and {frame}.ndim == 2"
    if mode.endswith("_list"):
        return f"isinstance({frame}, list) and all({_frame_condition(mode.removesuffix('_list'), 'item')} " \
               f"for item in {frame})"
    return "True"


def _expect_frame(case: Case, env: Handle, condition: str, problem: str) -> None:
    """End the reproducer with ``condition`` on ``frame``, the latest frame ``env`` rendered; the message shows the
    frame's type, dtype and shape (of each item of a list) rather than its pixels."""
    expect_true(
        case, condition, problem, "[described(item) for item in frame] if isinstance(frame, (list, tuple)) else "
        "described(frame)",
        given=(f"frame = {returned(env.var, 'render')}[-1]",
               "described = lambda x: f'{type(x).__name__}(shape={x.shape}, dtype={x.dtype})' if hasattr(x, 'dtype') "
               "else x"),
    )


FrameHook = Callable[[Handle, Any, str], None]


def _budget(case: Case) -> RenderBudget:
    """The item's render budget (its profile's)."""
    return RenderBudget(case.profile.render_seconds)


def _budgeted(budget: RenderBudget, body: Callable[[Plan], None]) -> Callable[[Plan], None]:
    """``body`` as an example that draws nothing once the item's render budget is spent (unless one failed)."""

    def example(plan: Plan) -> None:
        if budget.spent_out():
            return
        with budget.example():
            body(plan)

    return example


def _render_rollout(case: Case, mode: str, plan: Plan, on_frame: FrameHook, budget: RenderBudget) -> None:
    """Construct with ``mode``, then render after the reset and after the steps of the plan ``budget`` affords."""
    env = case.make(render_mode=mode)
    steps = _HUMAN_STEPS if mode == "human" else _FRAME_STEPS
    actions = plan.actions()[:steps]
    budget.start(len(actions))
    counter = [0]

    def render(record: rollout.Record) -> None:
        forced = record.kind == "reset"
        if budget.due(counter[0], forced=forced):
            on_frame(env, budget.render(env, forced=forced), record.where())
        counter[0] += 1

    rollout.run(env, plan.seed, actions, on_record=render, max_episodes=1)


def _deep_steps(case: Case) -> int:
    """Steps of a deep rollout: :data:`_DEEP_STEPS` unless the target's costs cut its profile."""
    nominal = PROFILES.get(case.profile.name)
    cut = nominal is not None and case.profile.max_steps < nominal.max_steps
    return case.profile.max_steps if cut else max(_DEEP_STEPS, case.profile.max_steps)


def _deep_plans(case: Case) -> Any:
    """Plans of exactly :func:`_deep_steps` actions (a shorter one could not reach the depth these checks need)."""
    steps = _deep_steps(case)
    return full_first(plans_for(case, max_steps=steps).map(lambda plan: dataclasses.replace(plan, length=steps)),
                      (steps,))


def _deep_run(env: Handle, plan: Plan, actions: Sequence[Any], *, on_record: rollout.RecordHook | None = None,
              between: Callable[[int], None] | None = None) -> list[rollout.Record]:
    """``actions`` from ``reset(seed=plan.seed)`` over at least two episodes: the first ends at half way at the
    latest (the second starts with an unseeded reset), the rest run across episode ends."""
    half = len(actions) // 2
    first = rollout.run(env, plan.seed, actions[:half], on_record=on_record, between=between, max_episodes=1)
    taken = sum(record.kind == "step" for record in first)
    return first + rollout.run(env, None, actions[taken:], on_record=on_record, between=between)


def _deep_render_rollout(case: Case, mode: str, plan: Plan, on_frame: FrameHook, budget: RenderBudget) -> None:
    """Construct with ``mode`` and run a deep rollout, rendering after resets and at the steps ``budget`` affords."""
    env = case.make(render_mode=mode)
    actions = plan.actions()
    budget.start(len(actions))
    counter = [0]

    def render(record: rollout.Record) -> None:
        counter[0] += 1
        forced = record.kind == "reset"
        if budget.due(counter[0], forced=forced):
            on_frame(env, budget.render(env, forced=forced), f"{record.kind} at position {counter[0] - 1}")

    _deep_run(env, plan, actions, on_record=render)


def _frame_rule(case: Case, mode: str) -> None:
    case.require(mode in _modes(case), f'"{mode}" is not in metadata["render_modes"] {list(_modes(case))}')

    def check(env: Handle, frame: Any, where: str) -> None:
        problem = _frame_problem(mode, frame)
        if problem is not None:
            _expect_frame(case, env, _frame_condition(mode, "frame"), f"render() after the {where}: {problem}")
            case.fail(f"render() after the {where}: {problem}", expected=problem.split(" must ")[-1],
                      actual=summarize(frame))

    examples = 1 if mode == "human" else min(case.profile.max_examples, _FRAME_EXAMPLES)
    budget = _budget(case)

    def example(plan: Plan) -> None:
        _render_rollout(case, mode, plan, check, budget)

    # At least one step: a target whose frames are costly may afford a single example, which then still draws a
    # frame after a step, not only the reset's.
    stepping = full_first(plans_for(case, max_steps=_FRAME_STEPS).map(
        lambda plan: plan if plan.length else dataclasses.replace(plan, length=1)), (_FRAME_STEPS,))
    case.explore(_budgeted(budget, example), stepping, max_examples=examples)


@checks("RENDER-001", floor=CONSTRUCTION, owns=("render_construct",))
def test_render_mode_fixed_at_construction(conformance_case: Case) -> None:
    case = conformance_case

    def example(plan: Plan) -> None:
        # render_mode=None given explicitly is how a caller asks for no rendering (gymnasium.make(id,
        # render_mode=args.render_mode)); a constructor that rejects it cannot be given its own "no mode".
        try:
            case.make("env_none", render_mode=None)
        except TargetError as error:
            if _renders_nothing(case):
                # An env that declares no mode renders nothing whatever it is given: a constructor without a
                # render_mode parameter is at most RENDER-003's concern (a SHOULD: how it refuses a mode).
                pass
            else:
                # The replayed construction raises the finding itself (no assertion to add).
                case.fail("the constructor rejects render_mode=None, the mode that renders nothing",
                          expected="a construction with render_mode=None (no rendering)", actual=str(error))
        for mode in (None, *_modes(case)):
            env = case.make(f"env_{mode}" if mode else "env", **({} if mode is None else {"render_mode": mode}))
            # A construction naming no mode receives the one the target binds (--env-kwargs), if any; without one,
            # the env's own default is fixed at construction (whether that default is None is RENDER-018's).
            received = case.target.default_render_mode if mode is None else mode
            if mode is None and received is None:
                received = read(case, env, "render_mode", "RENDER-001")

            def verify(when: str) -> None:
                current = read(case, env, "render_mode", "RENDER-001")
                if current != received:
                    case.fail(f"render_mode is {current!r} {when}", expected=repr(received), actual=repr(current),
                              assertion=Holds(f"{env.var}.render_mode == {received!r}", shown=f"{env.var}.render_mode",
                                              problem=f"render_mode changed {when}"))

            verify("right after construction")
            rollout.run(env, plan.seed, plan.actions(), on_record=lambda r: verify(f"after the {r.where()}"))
            # More than one frame: a render() may switch the mode on a later frame only (a recorder toggled on).
            for count in range(1, _MODE_RENDERS + 1):
                try:
                    env.render()
                except TargetError:
                    break  # render() raising is RENDER-004's finding (RENDER-005's when the mode is None)
                verify(f"after render() call {count}")

    case.explore(example, plans_for(case, max_steps=_HUMAN_STEPS), max_examples=1)


def _undeclared_construction(case: Case) -> tuple[Handle | None, TargetError | None, bool]:
    """Construct with a mode nothing declares: the instance (``None`` when construction raised), the error, and
    whether a warning during construction named the mode."""
    # "always": a constructor (or make) that warned once in this process still warns here, and the question is
    # whether *this* construction tells its caller.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            env = case.make("env_undeclared", render_mode=_UNDECLARED)
        except TargetError as error:
            return None, error, False
    return env, None, any(_UNDECLARED in str(warning.message) for warning in caught)


def _declared_modes(case: Case, env: Handle) -> Any:
    metadata = read(case, env, "metadata", "ENV-003")
    return metadata.get("render_modes") if is_mapping(metadata) else None


# What RENDER-003 accepts a refusal to raise, as a condition on ``raised`` (gymspec's UnsupportedMode is matched by
# name, as gymspec.errors.matches does, so the script holds for any library's).
_REFUSALS = ("isinstance(raised, (ValueError, AssertionError)) or "
             "any(kind.__name__ == 'UnsupportedMode' for kind in type(raised).__mro__)")


def _expect_refused(case: Case, problem: str, accepted: str = "") -> None:
    """End the reproducer with the construction in an undeclared mode, which must raise (``accepted``: what);
    the check's own construction of it (``env_undeclared``) leaves the replay, since a fixed target raises there."""
    expect_raises(case, f"env_undeclared = {case.target.constructor_source(render_mode=_UNDECLARED)}", problem,
                  accepted=accepted, drop=("env_undeclared",))


@checks("RENDER-002", floor=CONSTRUCTION)
def test_render_mode_is_declared(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        # No argument (the target's default, or the mode --env-kwargs binds), None given explicitly, each mode.
        constructions: list[tuple[str, dict[str, str | None]]] = [("env", {}), ("env_none", {"render_mode": None})]
        for mode in _modes(case):
            constructions.append((f"env_{mode}", {"render_mode": mode}))
        for var, kwargs in constructions:
            try:
                env = case.make(var, **kwargs)
            except TargetError as error:
                if "render_mode" not in kwargs:
                    raise
                if kwargs == {"render_mode": None} and _renders_nothing(case):
                    continue  # no mode declared, and none taken (RENDER-001 lets that be)
                case.not_checkable(f"{error} (reported by RENDER-001)")
            current = read(case, env, "render_mode", "RENDER-001")
            modes = _declared_modes(case, env)
            if current is not None and (not isinstance(modes, (list, tuple)) or current not in modes):
                case.fail(f"render_mode {current!r} is not declared", expected=f"None or one of {modes!r}",
                          actual=repr(current),
                          assertion=Holds(f"{env.var}.render_mode is None or {env.var}.render_mode in "
                                          f"{env.var}.metadata.get('render_modes', ())",
                                          shown=f"({env.var}.render_mode, {env.var}.metadata.get('render_modes'))",
                                          problem="render_mode is not declared"))
        undeclared, _, warned = _undeclared_construction(case)
        if undeclared is None or warned:
            return  # refused or flagged at construction (RENDER-003 judges how)
        current = read(case, undeclared, "render_mode", "RENDER-001")
        modes = _declared_modes(case, undeclared)
        if current is None or (isinstance(modes, (list, tuple)) and current in modes):
            return  # the undeclared mode was dropped or mapped (RENDER-003 asks for a word about it)
        try:
            undeclared.reset(seed=0)
            frame = undeclared.render()
        except TargetError:
            return  # refused at the first use (RENDER-003 asks for an earlier refusal)
        _expect_refused(case, f"render_mode={_UNDECLARED!r} was taken up silently")
        case.fail(f"render_mode={_UNDECLARED!r} was taken up silently: construction neither raised nor warned, "
                  "render_mode reads it back and render() returned",
                  expected="an error at construction (best), a warning naming the mode, or render() refusing it",
                  actual=f"render_mode={current!r} (declared: {modes!r}); render() returned {summarize(frame)}")

    case.once(body)


@checks("RENDER-003", floor=CONSTRUCTION)
def test_undeclared_mode_rejected(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        env, error, warned = _undeclared_construction(case)
        if error is not None:
            if isinstance(error.error, (ValueError, AssertionError)) or matches(error.error, UnsupportedMode):
                return
            _expect_refused(case, "construction with an undeclared render_mode raised another error", _REFUSALS)
            case.fail(f"construction with an undeclared render_mode raised {type(error.error).__name__}",
                      expected="ValueError or UnsupportedMode (or the AssertionError of an assert on render_modes)",
                      actual=f"{describe_exception(error.error)}")
        if warned or env is None:
            return
        _expect_refused(case, f"render_mode={_UNDECLARED!r} was accepted at construction", _REFUSALS)
        case.fail(f"render_mode={_UNDECLARED!r} was accepted at construction without an error or a warning",
                  expected="ValueError or UnsupportedMode at construction, or at least a warning naming the mode",
                  actual=f"an env with render_mode={read(case, env, 'render_mode', 'RENDER-001')!r}")

    case.once(body)


@checks("RENDER-004", floor=Floor(renders=1), owns=("render", "reset"))
def test_render_takes_no_arguments(conformance_case: Case) -> None:
    case = conformance_case
    case.require(_modes(case), 'metadata["render_modes"] is empty')

    # Human mode last: on a machine with no display it cannot be drawn, and the other modes are checked first
    # rather than left unchecked with it.
    modes = sorted(_modes(case), key=lambda mode: mode == "human")

    def body() -> None:
        for mode in modes:
            env = case.make(f"env_{mode}", render_mode=mode)
            try:
                env.reset(seed=0)
                # render() raising is the finding: the replayed render() raises it (no assertion to add).
                env.render()
            except TargetError as error:
                if len(modes) > 1 and case.human_without_display(error):
                    return  # every other mode was checked; RENDER-001 says human mode could not be drawn here
                if error.method == "reset" and not _resets_without_a_mode(case):
                    case.not_checkable(f"{error}, and reset raises without a render mode too (reported by ENV-004)")
                raise  # a declared mode the env cannot reset, or render, in

    case.once(body)


def _resets_without_a_mode(case: Case) -> bool:
    """Whether an instance made without a render mode resets (then a reset that raises in a mode is that mode's)."""
    plain = case.make("plain")
    try:
        plain.reset(seed=0)
    except TargetError:
        return False
    return True


@checks("RENDER-005", floor=CONSTRUCTION, owns=("render",))
def test_render_without_mode_returns_none(conformance_case: Case) -> None:
    case = conformance_case

    bound = case.target.default_render_mode
    case.require(bound is None, f"every construction of the target receives render_mode={bound!r}")

    def body() -> None:
        env = case.make()
        mode = read(case, env, "render_mode", "RENDER-001")
        if mode is not None:
            # Not applicable (this rule is about an env that renders nothing by default); whether the default should
            # be None is RENDER-018's question, a SHOULD, so this skip names no reporter.
            case.require(False, f"constructed without a render_mode, the env has render_mode {mode!r}, not None "
                                "(RENDER-018 is the rule about that default)")
        env.reset(seed=0)
        # render() raising here is this rule's finding (it owns the call): a SHOULD, since no frame was asked for.
        try:
            frame = env.render()
        except TargetError as error:
            if isinstance(error.error, NotImplementedError) and not _modes(case):
                return  # an env that renders in no mode keeps gymnasium.Env.render's default
            raise
        if frame is not None:
            _expect_frame(case, env, "frame is None", "render() without a render_mode returned a value")
            case.fail(f"render() with render_mode {mode!r} returned a value", expected="None",
                      actual=summarize(frame))

    case.once(body)


@checks("RENDER-018", floor=CONSTRUCTION)
def test_render_mode_none_by_default(conformance_case: Case) -> None:
    case = conformance_case
    bound = case.target.default_render_mode
    case.require(bound is None, f"every construction of the target receives render_mode={bound!r}")

    def body() -> None:
        env = case.make()
        mode = read(case, env, "render_mode", "RENDER-001")
        if mode is not None:
            case.fail(f"constructed without a render_mode, the env has render_mode {mode!r}", expected="None",
                      actual=repr(mode),
                      assertion=Holds(f"{env.var}.render_mode is None", shown=f"{env.var}.render_mode",
                                      problem="constructed without a render_mode, the env has one"))

    case.once(body)


@checks("RENDER-006", floor=FRAMES)
def test_rgb_array_frames(conformance_case: Case) -> None:
    _frame_rule(conformance_case, "rgb_array")


@checks("RENDER-007", floor=FRAMES)
def test_ansi_frames(conformance_case: Case) -> None:
    _frame_rule(conformance_case, "ansi")


@checks("RENDER-008", floor=Floor(renders=1))
def test_human_render_returns_none(conformance_case: Case) -> None:
    _frame_rule(conformance_case, "human")


@checks("RENDER-009", floor=FRAMES)
def test_depth_array_frames(conformance_case: Case) -> None:
    _frame_rule(conformance_case, "depth_array")


def _list_modes(case: Case) -> list[str]:
    modes = [mode for mode in _modes(case) if mode.endswith("_list")]
    case.require(modes, 'no "*_list" mode in metadata["render_modes"]')
    return modes


@checks("RENDER-010", floor=FRAMES)
def test_list_mode_frames(conformance_case: Case) -> None:
    case = conformance_case
    for mode in _list_modes(case):
        _frame_rule(case, mode)


@checks("RENDER-011", floor=FRAMES)
def test_list_mode_collects_one_frame_per_call(conformance_case: Case) -> None:
    case = conformance_case
    modes = _list_modes(case)

    def example(plan: Plan) -> None:
        for mode in modes:
            env = case.make(render_mode=mode)
            actions = plan.actions()
            records = rollout.run(env, plan.seed, actions, max_episodes=1)
            frames = env.render()
            if not is_list(frames):
                case.not_checkable(f"render() returned {type_name(frames)}, not a list (reported by RENDER-010)")
            frames_of = returned(env.var, "render")
            if len(frames) != len(records):
                case.fail(f"{mode}: render() after 1 reset and {len(records) - 1} steps holds {len(frames)} frames",
                          expected=f"{len(records)} frames", actual=f"{len(frames)} frames",
                          assertion=Holds(f"len({frames_of}[-1]) == {len(records)}", shown=f"len({frames_of}[-1])",
                                          problem=f"{mode}: render() after 1 reset and "
                                          f"{len(records) - 1} steps does not hold one frame per call"))
            again = env.render()
            if again != []:
                case.fail(f"{mode}: a second render() straight away is not empty", expected="[]",
                          actual=summarize(again),
                          assertion=Holds(f"{frames_of}[-1] == []", shown=f"len({frames_of}[-1])"))
            # Two more episodes without a render() in between: the frames of the one before the latest reset go.
            rollout.run(env, None, actions, max_episodes=1)
            latest = rollout.run(env, None, actions, max_episodes=1)
            frames = env.render()
            if is_list(frames) and len(frames) != len(latest):
                case.fail(f"{mode}: render() after two unseeded episodes ({len(latest)} results since the latest "
                          f"reset) holds {len(frames)} frames: the reset did not clear the frames of the episode "
                          "before it", expected=f"{len(latest)} frames (one per reset and step since the latest reset)",
                          actual=f"{len(frames)} frames",
                          assertion=Holds(f"len({frames_of}[-1]) == {len(latest)}", shown=f"len({frames_of}[-1])",
                                          problem=f"{mode}: render() after two unseeded "
                                          "episodes does not hold one frame per call since the latest reset"))

    case.explore(
        example, plans_for(case, max_steps=_FRAME_STEPS), max_examples=min(case.profile.max_examples, _FRAME_EXAMPLES)
    )


@checks("RENDER-012", floor=Floor(renders=3, renders_after_step=2))
def test_rgb_array_shape_constant(conformance_case: Case) -> None:
    case = conformance_case
    case.require("rgb_array" in _modes(case), 'no "rgb_array" in metadata["render_modes"]')

    def example(plan: Plan) -> None:
        shapes: list[tuple[str, Any]] = []

        def check(env: Handle, frame: Any, where: str) -> None:
            shape = getattr(frame, "shape", None)
            if shapes and shape != shapes[0][1]:
                first_where, first_shape = shapes[0]
                frames_of = returned(env.var, "render")
                case.fail(f"the frame after the {where} has shape {shape}",
                          expected=f"{first_shape} (as after the {first_where})", actual=str(shape),
                          assertion=Holds(f"{frames_of}[-1].shape == {frames_of}[0].shape",
                                          shown=f"({frames_of}[0].shape, {frames_of}[-1].shape)",
                                          problem=f"the frame after the {where} has another shape than the first"))
            shapes.append((where, shape))

        _deep_render_rollout(case, "rgb_array", plan, check, budget)

    budget = _budget(case)
    case.explore(_budgeted(budget, example), _deep_plans(case),
                 max_examples=min(case.profile.max_examples, _DEEP_EXAMPLES))


def _array_modes(case: Case) -> list[str]:
    base = {"rgb_array", "depth_array", "ansi"}
    return [mode for mode in _modes(case) if mode.removesuffix("_list") in base]


@checks("RENDER-013", floor=Floor(renders=3, renders_after_step=2))
def test_frames_not_mutated_later(conformance_case: Case) -> None:
    case = conformance_case
    modes = _array_modes(case)
    case.require(modes, "no frame-returning mode (rgb_array, depth_array, ansi or their _list) is declared")

    def example(plan: Plan) -> None:
        for mode in modes:

            def verify(where: str, frame: Any, copy: Any, now: str, mode: str = mode) -> None:
                if surely_unchanged(frame, copy):
                    return
                found = difference(frame, copy, "frame")
                if found is not None:
                    # Every frame the script's render() calls returned, beside the copy it took of each at once.
                    case.fail(f"the {mode} frame returned after the {where} changed, found after {now} ({found})",
                              expected="frames keep their pixels", actual=summarize(frame),
                              assertion=Equal(returned("env", "render"), copied("env", "render"),
                                              problem="a frame render() returned changed later (each frame against "
                                              "the copy taken when it was returned)"))

            # Every frame is kept (within _FRAME_BYTES), so a ring buffer of frames is seen a lap later.
            history = History(verify, _FRAME_BYTES // 2)
            _deep_render_rollout(case, mode, plan, lambda env, frame, where: history.add(where, frame,
                                                                                          snapshot(frame)), budget)
            history.sweep("the end of the rollout")

    budget = _budget(case)
    case.explore(_budgeted(budget, example), _deep_plans(case),
                 max_examples=min(case.profile.max_examples, _DEEP_EXAMPLES))


@checks("RENDER-014", floor=Floor(steps=30, renders_after_step=1))
def test_rendering_does_not_change_dynamics(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()
    modes = [mode for mode in _modes(case) if mode != "human"] or list(_modes(case))
    case.require(modes, 'metadata["render_modes"] is empty')
    mode = modes[0]
    human = mode == "human"

    def example(plan: Plan) -> None:
        # Across two episodes: a render() that draws from the env's generator in an env whose steps draw nothing
        # shows only in the start of the next (unseeded) episode.
        actions = plan.actions()[:_HUMAN_STEPS] if human else plan.actions()

        def quiet_run(var: str) -> list[rollout.Record]:
            return _deep_run(case.make(var, render_mode=mode), plan, actions)

        quiet = quiet_run("quiet")
        env = case.make("rendered", render_mode=mode)
        budget.start(len(actions))
        counter = [0]

        def render(record: rollout.Record) -> None:
            # After every result, the terminal step's too (its frame, a goal reached, is where an env may draw what
            # no other frame does), and always at an episode's end, whatever the stride.
            counter[0] += 1
            forced = record.kind == "step" and rollout.ended(record.terminated, record.truncated)
            if budget.due(counter[0], forced=forced):
                budget.render(env, forced=forced)

        rendered = _deep_run(env, plan, actions, on_record=render)
        found = rollout.first_difference(quiet, rendered)
        if found is not None:
            reproducibility_gate(case, lambda: quiet_run("quiet_again"), quiet)
            expect_same_results(case, ("quiet", "rendered"), quiet, rendered,
                                "render() after resets and steps changed the trajectory")
            case.fail(f"render() after resets and steps changed the trajectory at position {found[0]} ({found[1]})",
                      expected="the same trajectory as without render()", actual=found[1])

    budget = _budget(case)
    case.explore(_budgeted(budget, example), _deep_plans(case),
                 max_examples=min(case.profile.max_examples, _DEEP_EXAMPLES))


@checks("RENDER-015", floor=Floor(renders=1), owns=("close",))
def test_close_after_rendering(conformance_case: Case) -> None:
    case = conformance_case
    case.require(_modes(case), 'metadata["render_modes"] is empty')

    def body() -> None:
        for mode in _modes(case):
            env = case.make(f"env_{mode}", render_mode=mode)
            env.reset(seed=0)
            try:
                env.render()
            except TargetError:
                pass  # RENDER-004 reports render() itself
            # close() raising is the finding: the replayed close() raises it (no assertion to add).
            env.close()

    case.once(body)


def _metadata(case: Case) -> Any:
    probe = case.probed()
    if "metadata" in probe.errors:
        case.not_checkable(f"env.metadata raised {probe.errors['metadata']} (reported by ENV-003)")
    metadata = probe.metadata
    if not is_mapping(metadata):
        case.not_checkable(f"metadata is {type_name(metadata)}, not a mapping (reported by ENV-003)")
    return metadata


@checks("RENDER-016", floor=FACT)
def test_render_modes_declared(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        modes = _metadata(case).get("render_modes", "<missing>")
        if not is_list_or_tuple(modes) or not all(isinstance(mode, str) for mode in modes):
            case.fail('metadata["render_modes"] is not a list or tuple of str', expected="e.g. ['human', 'rgb_array']",
                      actual=summarize(modes),
                      assertion=Holds("isinstance(env.metadata.get('render_modes'), (list, tuple)) and "
                                      "all(isinstance(mode, str) for mode in env.metadata['render_modes'])",
                                      shown="env.metadata.get('render_modes')"))

    case.once(body)


@checks("RENDER-017", floor=FACT)
def test_render_fps_declared(conformance_case: Case) -> None:
    case = conformance_case
    case.require(_modes(case), 'metadata["render_modes"] is empty')

    def body() -> None:
        fps = _metadata(case).get("render_fps", "<missing>")
        real = isinstance(fps, (int, float, np.integer, np.floating)) and not isinstance(fps, (bool, np.bool_))
        if not real or not fps > 0:
            case.fail('metadata["render_fps"] is not a positive number', expected="a number > 0", actual=summarize(fps),
                      assertion=Holds("isinstance(env.metadata.get('render_fps'), (int, float, np.integer, "
                                      "np.floating)) and not isinstance(env.metadata['render_fps'], (bool, np.bool_)) "
                                      "and env.metadata['render_fps'] > 0",
                                      shown="env.metadata.get('render_fps')"))

    case.once(body)
