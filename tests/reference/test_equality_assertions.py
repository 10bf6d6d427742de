"""tests/reference/_equality.py: each assertion fails on the difference it exists to catch, and only on it."""

from __future__ import annotations

import numpy as np
import pytest

from reference.spaces import GraphInstance
from tests.reference._equality import assert_equal_values, assert_identical


def _graph(dtype: type[np.generic] = np.float32) -> GraphInstance:
    return GraphInstance(np.zeros((2, 1), dtype), None, np.zeros((0, 2), np.int64))


# conformance.equality words the differences (and may reword them): these tests match only what this module adds.


def test_identical_values_pass_and_any_type_dtype_or_value_difference_fails() -> None:
    value = {"a": (np.arange(3, dtype=np.int32), 1.5), "b": [_graph()]}
    assert_identical(value, {"b": [_graph()], "a": (np.arange(3, dtype=np.int32), 1.5)})
    with pytest.raises(AssertionError, match="^step 3: "):
        assert_identical(value, {"a": (np.arange(3), 1.5), "b": [_graph()]}, "step 3")
    with pytest.raises(AssertionError):
        assert_identical(value, {"a": [np.arange(3, dtype=np.int32), 1.5], "b": [_graph()]})
    with pytest.raises(AssertionError):
        assert_identical(value, {"a": (np.arange(3, dtype=np.int32), 1.5), "b": [_graph(np.float64)]})
    with pytest.raises(AssertionError):
        assert_identical(np.float64(1.0), 1.0)


def test_key_order_is_compared_only_when_asked() -> None:
    assert_identical({"x": 1, "y": 2}, {"y": 2, "x": 1})
    with pytest.raises(AssertionError, match="dict key orders"):
        assert_identical({"x": 1, "y": {"p": 0, "q": 1}}, {"x": 1, "y": {"q": 1, "p": 0}}, key_order=True)


def test_scalars_as_arrays_keeps_dtypes_strict() -> None:
    with pytest.raises(AssertionError):
        assert_identical(np.uint8(3), np.array(3, np.uint8))
    assert_identical([np.uint8(3)], [np.array(3, np.uint8)], scalars_as_arrays=True)
    with pytest.raises(AssertionError):
        assert_identical(np.uint8(3), np.array(3), scalars_as_arrays=True)


@pytest.mark.gymnasium
def test_gymnasiums_graph_instance_stands_for_ours_field_by_field() -> None:
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    theirs = gym_spaces.GraphInstance(np.zeros((2, 1), np.float32), None, np.zeros((0, 2), np.int64))
    assert_identical((_graph(),), (theirs,))
    changed = gym_spaces.GraphInstance(np.ones((2, 1), np.float32), None, np.zeros((0, 2), np.int64))
    with pytest.raises(AssertionError):
        assert_identical((_graph(),), (changed,))


def test_equal_values_ignore_scalar_types_and_dtypes_but_not_values_or_shapes() -> None:
    assert_equal_values({"r": np.float32(0.5), "o": np.arange(2, dtype=np.int8)}, {"r": 0.5, "o": [0, 1]})
    with pytest.raises(AssertionError, match="^reward: "):
        assert_equal_values({"r": 0.5}, {"r": 0.25}, "reward")
    with pytest.raises(AssertionError):
        assert_equal_values(np.zeros(2), np.zeros(3))
