"""Histories: which results are determined, how programs are cut, and the check that each instance's results are a
function of its own calls (confirmed by a second fresh instance, reported on a shortened program)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance._engine.case import Case
from conformance._engine.outcomes import NotCheckable, RuleFailure
from conformance._engine.profiles import PROFILES
from conformance._engine.state import TargetState
from conformance._engine.targets import TargetsRequest, resolve_targets
from conformance._engine.watchdog import Watchdog
from conformance._kit.histories import (
    ENV,
    SPACES,
    Call,
    Program,
    check_program,
    open_instance,
    run_program,
)
from gymspec.rules import RULES

_BROKEN = "tests.meta.broken"
_WALK = f"{_BROKEN}._base:Walk"
_SHARED = f"{_BROKEN}.seeding_shared:Seed009ModuleGlobalGenerator"


@pytest.fixture(scope="module")
def watchdog() -> Iterator[Watchdog]:
    dog = Watchdog(30.0)
    yield dog
    dog.shutdown()


def _case(spec: str, watchdog: Watchdog) -> Case:
    (target,) = resolve_targets(TargetsRequest(envs=[spec]))
    return Case(RULES["SEED-009"], TargetState(target, watchdog), PROFILES["quick"], watchdog)


def _reset(seed: int | None = None) -> Call:
    return Call(ENV, "reset", kwargs=() if seed is None else (("seed", seed),))


_STEP = Call(ENV, "step", (np.int64(2),))


def _check(case: Case, program: Program) -> None:
    """Run ``program`` as a new example and check it."""
    case.new_example()
    instances = run_program(case, program)
    assert instances is not None
    check_program(case, program, instances)


def test_calls_read_as_source() -> None:
    assert Call("action_space", "seed", (3,)).text("env_1") == "env_1.action_space.seed(3)"
    assert _reset(7).text("env_0") == "env_0.reset(seed=7)"
    assert _STEP.text("env") == "env.step(np.int64(2))"


def test_results_are_determined_once_their_owner_is_seeded(watchdog: Watchdog) -> None:
    case = _case(_WALK, watchdog)
    instance = watchdog.run(lambda: open_instance(case, "env_0", {}))
    calls = [_reset(), _STEP, _reset(3), _STEP, Call("action_space", "sample"), Call("action_space", "seed", (1,)),
             Call("action_space", "sample"), Call("observation_space", "sample")]
    watchdog.run(lambda: [instance.perform(call) for call in calls])
    assert instance.determined == [False, False, True, True, False, True, True, False]
    assert instance.anchored == {ENV, "action_space"} and instance.started and instance.live


def test_frames_after_one_drawn_from_entropy_are_not_determined(watchdog: Watchdog) -> None:
    # Issue 37 item 7: a renderer may keep state from its first frame (MuJoCo aims its free camera at the scene as the
    # first render finds it), so frames drawn after a seeded reset are determined only when no frame came before it.
    case = _case(f"{_BROKEN}.odd:ControlCameraAimedOnce", watchdog)
    render, push = Call(ENV, "render"), Call(ENV, "step", (np.array([0.5], dtype=np.float32),))
    drawn_late = watchdog.run(lambda: open_instance(case, "env_0", {"render_mode": "rgb_array"}))
    watchdog.run(lambda: [drawn_late.perform(call) for call in (_reset(), push, _reset(3), render, push, render)])
    assert drawn_late.determined == [False, False, True, True, True, True]
    drawn_early = watchdog.run(lambda: open_instance(case, "env_1", {"render_mode": "rgb_array"}))
    watchdog.run(lambda: [drawn_early.perform(call) for call in (_reset(), render, _reset(3), render, push, render)])
    assert drawn_early.determined == [False, False, True, False, True, False]
    program = Program(({"render_mode": "rgb_array"},), tuple((0, call) for call in drawn_early.calls))
    # The frames differ from a fresh instance's (another entropy-drawn start), and are not compared.
    watchdog.run(lambda: _check(case, program))


def test_a_program_is_cut_after_a_call_and_thinned_call_by_call() -> None:
    program = Program(({}, {}), ((0, _reset(1)), (1, _reset(2)), (0, _STEP), (1, _STEP), (0, _STEP)))
    assert len(program.without(1).calls) == 4 and program.without(1).calls[1] == (0, _STEP)


def test_a_program_whose_step_lost_its_reset_cannot_run(watchdog: Watchdog) -> None:
    case = _case(_WALK, watchdog)
    assert watchdog.run(lambda: run_program(case, Program(({},), ((0, _STEP),)))) is None
    instances = watchdog.run(lambda: run_program(case, Program(({}, {}), ((1, _reset(1)), (1, _STEP)))))
    assert instances is not None and list(instances) == [1] and instances[1].var == "env_1"


_CALLS = st.one_of(
    st.sampled_from([_STEP, _STEP, _reset(), Call(ENV, "render"), *(Call(space, "sample") for space in SPACES)]),
    st.integers(0, 3).map(_reset),
    st.tuples(st.sampled_from(SPACES), st.integers(0, 3)).map(lambda pair: Call(pair[0], "seed", (pair[1],))),
)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), _CALLS), max_size=20))
def test_a_correct_env_passes_any_program(watchdog: Watchdog, calls: list[tuple[int, Call]]) -> None:
    case = _case(_WALK, watchdog)
    program = Program(({"render_mode": "ansi"}, {}), ((0, _reset(0)), (1, _reset(0)), *calls))

    def body() -> None:
        case.new_example()
        instances = run_program(case, program)
        if instances is not None:
            check_program(case, program, instances)
        case.close_all()

    watchdog.run(body)


def test_a_shared_generator_fails_on_the_calls_that_show_it(watchdog: Watchdog) -> None:
    case = _case(_SHARED, watchdog)
    noise = [(1, Call("action_space", "sample")), (0, Call("observation_space", "seed", (4,)))]
    program = Program(({}, {}), ((0, _reset(1)), *noise, (1, _reset(2)), *noise, (0, _STEP), (1, _STEP)))

    with pytest.raises(RuleFailure) as caught:
        watchdog.run(lambda: _check(case, program))
    reproducer = caught.value.reproducer
    assert "env_0.reset(seed=1)" in reproducer and "env_1.reset(seed=2)" in reproducer
    assert "sample()" not in reproducer and "seed(4)" not in reproducer  # the shortened program drops the noise
    assert "env_0.step(np.int64(2))" in caught.value.problem and "alone_0" in reproducer


def test_a_target_that_is_no_function_of_its_own_history_is_not_checkable(watchdog: Watchdog) -> None:
    case = _case(f"{_BROKEN}.seeding:Seed001PerInstance", watchdog)
    program = Program(({},), ((0, _reset(1)), (0, _STEP)))

    with pytest.raises(NotCheckable, match="SEED-001"):
        watchdog.run(lambda: _check(case, program))


def test_two_fresh_instances_that_disagree_are_stated_plainly(watchdog: Watchdog) -> None:
    # Issue 37 item 8: the item states what it saw (the call, how the results differ, the global generator the
    # calls advanced) and names the rule of that cause, SEED-008 for a draw from NumPy's global generator.
    case = _case(f"{_BROKEN}.seeding:Seed008LateGlobalDraws", watchdog)
    program = Program(({},), ((0, _reset(1)), *((0, Call(ENV, "step", (np.int64(1),))) for _ in range(6))))

    with pytest.raises(NotCheckable) as caught:
        watchdog.run(lambda: _check(case, program))
    message = str(caught.value)
    assert "alone_0.step(np.int64(1)), call 5 of alone_0" in message, message
    assert "advanced numpy's legacy global generator" in message and message.endswith("reported by SEED-008)")
