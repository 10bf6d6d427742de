"""The watchdog returns results, forwards exceptions, and abandons (only) calls that exceed the timeout."""

from __future__ import annotations

import threading
import time

import pytest

from conformance._engine.watchdog import CallTimeout, Watchdog


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
