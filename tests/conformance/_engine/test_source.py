"""``conformance._engine.source.source`` renders values as source that evaluates back to an identical value."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from conformance._engine.source import source
from conformance.equality import difference

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
