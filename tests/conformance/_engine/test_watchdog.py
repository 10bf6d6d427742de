"""Call limits by shape of call (a hung shape refused at once); the watchdog returns results, forwards exceptions, and abandons (only) calls that exceed the timeout.
"""

from __future__ import annotations

import os
import threading
import time

import numpy as np
import pytest

from conformance._engine.processes import Board, BoardGuard
from conformance._engine.watchdog import (
    COST_FACTOR,
    FIRST_CALL_GRACE,
    SPREAD_FACTOR,
    CallLimits,
    CallTimeout,
    HungEarlier,
    Watchdog,
    alone,
    call_shape,
    kind_of,
)

# --- Call limits ---------------------------------------------------------------------------------------------------

def test_an_unmeasured_first_call_gets_the_grace_then_the_timeout() -> None:
    limits = CallLimits(2.0)
    assert limits.limit("step") == FIRST_CALL_GRACE * 2.0
    limits.took("step", 0.001)
    assert limits.limit("step") == 2.0


def test_a_slow_kind_keeps_a_limit_of_a_few_times_its_cheapest_call() -> None:
    limits = CallLimits(2.0)
    limits.took("construct", 20.0)
    assert limits.limit("construct") == COST_FACTOR * 20.0
    limits.took("construct", 10.0)
    assert limits.limit("construct") == COST_FACTOR * 10.0


def test_a_heavy_call_whose_cost_spread_may_take_twice_its_slowest_later_call() -> None:
    # Frames rendered in software on a loaded machine: 4 s, then 12 s. The next may take 24 s, not 3 x 4 s.
    limits = CallLimits(10.0)
    limits.took("render rgb_array", 20.0)  # the first builds the renderer: it sets no later limit
    limits.took("render rgb_array", 4.0)
    assert limits.limit("render rgb_array") == COST_FACTOR * 4.0
    limits.took("render rgb_array", 12.0)
    assert limits.limit("render rgb_array") == SPREAD_FACTOR * 12.0


def test_a_cheap_kind_keeps_the_timeout_however_its_calls_spread() -> None:
    limits = CallLimits(10.0)
    for seconds in (0.001, 0.001, 0.5):
        limits.took("step", seconds)
    assert limits.limit("step") == 10.0


def test_measured_first_calls_set_the_first_limit_in_each_process() -> None:
    limits = CallLimits(1.0)
    limits.prime({"reset": 5.0, "step": 0.01}, {"reset": 0.01, "step": 0.01})
    assert limits.limit("reset") == COST_FACTOR * 5.0  # the compile the probe measured, not the flat grace
    assert limits.limit("step") == 1.0  # never below the timeout
    limits.took("reset", 0.01)
    assert limits.limit("reset") == 1.0


def test_a_forked_process_starts_its_first_calls_afresh() -> None:
    limits = CallLimits(1.0)
    limits.took("step", 4.0)
    limits.took("step", 0.01)
    assert limits.limit("step") == 1.0
    pid = os.fork()
    if pid == 0:  # a new process: its first step compiles again, and gets the first step's measured limit
        os._exit(0 if limits.limit("step") == COST_FACTOR * 4.0 else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_a_render_is_a_kind_of_its_own_in_each_mode() -> None:
    assert kind_of("render", "env.render", "depth_array") == "render depth_array"
    assert kind_of("render_construct", "Env(render_mode='rgb_array')", "rgb_array") == "render_construct rgb_array"
    assert kind_of("step", "env.step", "rgb_array") == "step"  # a step's cost does not depend on the mode
    assert kind_of("", "env.render", "") == "render"


def test_a_cheap_frame_in_one_mode_does_not_limit_the_first_frame_of_another() -> None:
    # MuJoCo builds its depth renderer at the first depth_array render: a first call, however cheap rgb_array was.
    guard = BoardGuard(Board(), 1.0)
    guard.call("env.render", lambda: None, method="render", mode="rgb_array")
    assert guard.limits.limit(kind_of("render", "env.render", "rgb_array")) == 1.0
    assert guard.limits.limit(kind_of("render", "env.render", "depth_array")) == FIRST_CALL_GRACE * 1.0


def test_the_watchdog_limits_a_render_by_its_mode() -> None:
    dog = Watchdog(1.0)
    dog.run(lambda: dog.call("env.render", lambda: None, method="render", mode="rgb_array"))
    assert dog.limits.limit("render rgb_array") == 1.0
    assert dog.limits.limit("render depth_array") == FIRST_CALL_GRACE * 1.0
    dog.shutdown()


# --- The in-process watchdog ---------------------------------------------------------------------------------------

def test_results_and_exceptions_pass_through() -> None:
    dog = Watchdog(5.0)
    assert dog.run(lambda: dog.call("f", lambda: 41) + 1) == 42
    empty: dict[str, int] = {}
    with pytest.raises(KeyError):
        dog.run(lambda: dog.call("g", lambda: empty["missing"]))
    dog.shutdown()


def test_calls_run_on_one_worker_thread() -> None:
    dog = Watchdog(5.0)
    first = dog.call("a", threading.get_ident)
    second = dog.run(lambda: dog.call("b", threading.get_ident))
    assert first == second != threading.get_ident()
    dog.shutdown()


def test_a_hanging_call_times_out_and_the_next_body_gets_a_fresh_worker() -> None:
    dog = Watchdog(0.2, poll=0.01)
    dog.limits.prime({"step": 0.001}, {})  # a cheap step, measured: no first-call grace
    started = time.monotonic()
    with pytest.raises(CallTimeout, match="env.step did not return within 0.2 s"):
        dog.run(lambda: dog.call("env.step", lambda: time.sleep(30)))
    assert time.monotonic() - started < 5
    assert dog.call("env.reset", lambda: "alive") == "alive"
    dog.shutdown()


def test_suite_code_between_calls_is_not_timed() -> None:
    dog = Watchdog(0.05, poll=0.01)

    def body() -> str:
        time.sleep(0.2)  # the suite's own work, not a call into the target
        return str(dog.call("fast", lambda: "done"))

    assert dog.run(body) == "done"
    dog.shutdown()


def test_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout must be > 0"):
        Watchdog(0)


def test_the_first_call_of_a_kind_gets_a_grace_and_a_slow_kind_keeps_a_longer_limit() -> None:
    # A compile on the first step (0.3 s) is not a hang under a 0.1 s timeout; the calls after it, as cheap as the
    # timeout expects, are held to it again.
    dog = Watchdog(0.1, poll=0.01)

    def compile_and_step() -> str:
        time.sleep(0.3)
        return "compiled"

    assert dog.call("env.step", compile_and_step, method="step") == "compiled"
    assert dog.call("env.step", lambda: "fast", method="step") == "fast"
    with pytest.raises(CallTimeout, match="did not return within 0.1 s"):
        dog.call("env.step", lambda: time.sleep(30), method="step")
    dog.shutdown()


# --- Call shapes ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("kind", "mode", "arguments", "beside", "shape"),
    [
        ("reset", "", {"seed": 7}, False, "reset"),
        ("reset", "", {"seed": None, "options": None}, False, "reset"),
        ("reset", "", {"seed": 2**32}, False, "reset [seed >= 2**32]"),
        ("reset", "", {"seed": np.uint64(2**63)}, False, "reset [seed >= 2**32]"),
        ("reset", "", {"seed": -1}, False, "reset [negative seed]"),
        ("reset", "", {"seed": "0"}, False, "reset [seed of type str]"),
        ("reset", "", {"seed": [0, 1]}, False, "reset [a seed per sub-env]"),
        ("reset", "", {"options": {"b": 1, "a": 2}}, False, "reset [options: 'a', 'b']"),
        ("reset", "", {"options": {}}, False, "reset"),
        ("reset", "human", {}, True, "reset [mode human; beside another live instance]"),
        ("render human", "human", {}, False, "render human"),  # a render's kind names its mode already
        ("render_construct human", "human", {}, False, "render_construct human"),
        ("construct", "", None, True, "construct [beside another live instance]"),
    ],
)
def test_a_calls_shape_is_its_kind_and_what_of_its_arguments_may_decide_whether_it_returns(
    kind: str, mode: str, arguments: dict[str, object] | None, beside: bool, shape: str
) -> None:
    assert call_shape(kind, mode, arguments, beside=beside) == shape
    assert alone(call_shape(kind, mode, arguments, beside=True)) == call_shape(kind, mode, arguments)


def test_a_shape_has_its_kinds_measured_costs_until_it_has_its_own() -> None:
    limits = CallLimits(1.0)
    limits.prime({"reset": 5.0}, {"reset": 0.01})
    assert limits.limit("reset [seed >= 2**32]") == COST_FACTOR * 5.0  # first of its shape: the first reset's cost
    limits.took("reset [seed >= 2**32]", 2.0)
    limits.took("reset [seed >= 2**32]", 2.0)
    assert limits.limit("reset [seed >= 2**32]") == COST_FACTOR * 2.0
    assert limits.limit("reset") == COST_FACTOR * 5.0  # the plain kind is unmoved


def test_a_shape_that_hung_is_refused_at_once_and_only_that_shape() -> None:
    board = Board()
    board.reset(1)
    guard = BoardGuard(board, 1.0)
    guard.limits.refuse({"reset [seed >= 2**32]": "env.reset() did not return within 1 s, first seen in SEED-007"})
    called: list[int] = []
    with pytest.raises(HungEarlier, match="first seen in SEED-007"):
        guard.call("env.reset()", lambda: called.append(1), method="reset", arguments={"seed": 2**32})
    assert called == [] and guard.limits.refused == "reset [seed >= 2**32]"
    guard.call("env.reset()", lambda: called.append(2), method="reset", arguments={"seed": 3})
    assert called == [2] and board.read().shape == "reset"
    watchdog = Watchdog(1.0)
    watchdog.limits.refuse({"step [mode human]": "env.step() did not return"})
    try:
        with pytest.raises(HungEarlier):
            watchdog.call("env.step()", lambda: None, method="step", mode="human")
    finally:
        watchdog.shutdown()
