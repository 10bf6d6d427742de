"""Exact and value-level comparisons name the first difference and its path."""

from __future__ import annotations

import numpy as np

from conformance.equality import difference, value_difference


def test_identical_values_have_no_difference() -> None:
    value = {"a": (np.float32(1.5), [np.arange(3)]), "b": float("nan")}
    assert difference(value, {"a": (np.float32(1.5), [np.arange(3)]), "b": float("nan")}) is None


def test_types_must_match_exactly() -> None:
    assert difference(np.float32(1.0), 1.0) == "value: type float32 != float"
    assert value_difference(np.float32(1.0), 1.0) is None


def test_array_dtype_shape_and_values() -> None:
    assert "dtype" in str(difference(np.zeros(2, np.float32), np.zeros(2, np.float64)))
    assert "shape" in str(difference(np.zeros(2), np.zeros(3)))
    found = difference({"obs": np.zeros(2)}, {"obs": np.ones(2)})
    assert found is not None and found.startswith("['obs']")


def test_containers() -> None:
    assert "keys" in str(difference({"a": 1}, {"b": 1}))
    assert "length" in str(difference((1, 2), (1, 2, 3)))
    assert difference([1, (2, 3)], [1, (2, 4)]) == "[1][1]: 3 != 4"


def test_objects_without_equality_compare_by_type() -> None:
    class Opaque:
        pass

    assert difference(Opaque(), Opaque()) is None
