"""Traces become runnable scripts with consecutive steps folded into a loop.

``conformance._engine.record.source`` renders values as source that evaluates back to an identical value.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from conformance._engine.record import Trace, snapshot, source
from conformance.equality import difference

# --- The trace -----------------------------------------------------------------------------------------------------

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


# --- Values as source ----------------------------------------------------------------------------------------------

_NAMESPACE = {"np": np, "float": float}
_DTYPES = st.sampled_from([np.float32, np.float64, np.int8, np.int64, np.uint8, np.bool_])


def _round_trip(value: Any) -> Any:
    return eval(source(value), dict(_NAMESPACE))  # noqa: S307 - evaluating our own rendering is the test


@settings(max_examples=60, deadline=None)
@given(_DTYPES.flatmap(lambda dtype: hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, max_side=3))))
def test_arrays_round_trip_exactly(array: np.ndarray[Any, Any]) -> None:
    assert difference(_round_trip(array), array) is None


@settings(max_examples=60, deadline=None)
@given(_DTYPES.flatmap(lambda dtype: hnp.from_dtype(np.dtype(dtype)).map(lambda v: np.dtype(dtype).type(v))))
def test_numpy_scalars_round_trip_exactly(scalar: Any) -> None:
    assert difference(_round_trip(scalar), scalar) is None


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3),
        max_leaves=8,
    )
)
def test_python_values_round_trip(value: Any) -> None:
    assert difference(_round_trip(value), value) is None


def test_unrenderable_values_are_marked_not_literal() -> None:
    text = source([1, object()])
    assert text.startswith("[1, not_literal(")


def test_a_snapshot_keeps_a_dict_subclass_type() -> None:
    found = snapshot(defaultdict(list, {"a": [1]}))
    assert type(found) is defaultdict and found == {"a": [1]} and found["missing"] == []
