"""Traces become runnable scripts with consecutive steps folded into a loop."""

from __future__ import annotations

import numpy as np

from conformance._engine.record import Trace, snapshot


def test_script_folds_steps_and_runs() -> None:
    trace = Trace(("from tests.meta.broken._base import Walk",))
    trace.construct("env", "Walk()")
    trace.call("env", "reset", seed=3)
    for action in [np.int64(0), np.int64(2), np.int64(1)]:
        trace.call("env", "step", action)
    trace.call("env", "reset")
    trace.call("env", "step", np.int64(1))
    script = trace.script()
    assert script.splitlines() == [
        "import random",
        "import numpy as np",
        "np.random.seed(0)",
        "random.seed(0)",
        "from tests.meta.broken._base import Walk",
        "env = Walk()",
        "env.reset(seed=3)",
        "for action in [",
        "    np.int64(0), np.int64(2), np.int64(1),",
        "]:",
        "    env.step(action)",
        "env.reset()",
        "env.step(np.int64(1))",
    ]
    exec(compile(script, "<trace>", "exec"), {})  # noqa: S102 - the trace's own output


def test_expectations_record_results_and_end_the_script() -> None:
    trace = Trace(("from tests.meta.broken._base import Walk",))
    trace.construct("env", "Walk()")
    trace.call("env", "reset", seed=3)
    trace.call("env", "step", np.int64(1))
    trace.call("env", "step", np.int64(2))
    trace.expect("assert len(results['env']) == 3, 'three results'")
    lines = trace.script().splitlines()
    assert "results = {}  # what each env's reset and step returned, in order" in lines
    assert "results.setdefault('env', []).append(env.reset(seed=3))" in lines
    assert "    results.setdefault('env', []).append(env.step(action))" in lines
    assert lines[-1] == "assert len(results['env']) == 3, 'three results'"
    exec(compile(trace.script(), "<trace>", "exec"), {})  # noqa: S102 - the trace's own output


def test_arguments_are_snapshotted() -> None:
    action = np.zeros(2)
    trace = Trace()
    trace.construct("env", "object()")
    trace.call("env", "step", action)
    action[:] = 7  # the env (or anyone) mutating the action afterwards does not change the record
    assert "np.array([0.0, 0.0], dtype=np.float64)" in trace.script()
    assert snapshot({"a": [action]})["a"][0] is not action


def test_the_first_seeded_reset_names_the_seed() -> None:
    trace = Trace()
    trace.call("env", "reset")
    assert trace.seed is None
    trace.call("env", "reset", seed=7)
    trace.call("env", "reset", seed=9)
    trace.call("other", "reset", seed=True)  # a bool is no seed
    assert trace.seed == 7
