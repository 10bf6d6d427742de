from __future__ import annotations

import os

from conformance._engine.limits import COST_FACTOR, FIRST_CALL_GRACE, CallLimits


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
