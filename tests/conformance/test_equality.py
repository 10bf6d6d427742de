"""Exact and value-level comparisons name the first difference and its path."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from conformance.equality import difference, outside_space, value_difference


def test_identical_values_have_no_difference() -> None:
    value = {"a": (np.float32(1.5), [np.arange(3)]), "b": float("nan")}
    assert difference(value, {"a": (np.float32(1.5), [np.arange(3)]), "b": float("nan")}) is None


def test_types_must_match_exactly() -> None:
    assert difference(np.float32(1.0), 1.0) == "value: type float32 != float"
    assert difference(np.True_, True) == "value: type np.bool != bool"  # NumPy 2 names both "bool"
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


# --- object arrays: compared item by item, recursively -----------------------------------------------------------


def _object_array(items: list[Any]) -> np.ndarray[Any, Any]:
    out = np.empty(len(items), dtype=object)
    for index, item in enumerate(items):
        out[index] = item  # one by one: np.array(items, dtype=object) would merge same-shape arrays
    return out


_FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)
_LEAVES = st.one_of(
    _FLOATS,
    st.integers(-3, 3),
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3), elements=_FLOATS),
)
# Items of any kind, including object arrays nested in object arrays.
_ITEMS = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3).map(_object_array), max_leaves=8)
_OBJECT_ARRAYS = st.one_of(
    st.lists(_ITEMS, min_size=1, max_size=4).map(_object_array),
    st.lists(_ITEMS, min_size=4, max_size=4).map(lambda items: _object_array(items).reshape(2, 2)),
)
_SETTINGS = settings(max_examples=60, deadline=None)


@_SETTINGS
@given(_OBJECT_ARRAYS)
def test_object_arrays_equal_their_copies(value: np.ndarray[Any, Any]) -> None:
    # NaN items (also inside item arrays) count as equal, in both modes.
    assert difference(value, copy.deepcopy(value)) is None
    assert value_difference(value, copy.deepcopy(value)) is None
    assert value_difference({"info": value}, {"info": copy.deepcopy(value)}) is None


@_SETTINGS
@given(st.lists(_ITEMS, min_size=1, max_size=4), st.data())
def test_a_changed_item_is_found_with_its_index(items: list[Any], data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(items) - 1), label="index")
    changed = copy.deepcopy(items)
    changed[index] = "changed"  # equal to no number, array or object array
    a, b = _object_array(items), _object_array(changed)
    for compare in (difference, value_difference):
        found = compare(a, b)
        assert found is not None and found.startswith(f"[{index}]"), found


def test_nested_object_arrays_report_the_nested_path() -> None:
    a = _object_array([np.zeros(2), _object_array([np.zeros(1), np.ones(3)])])
    b = copy.deepcopy(a)
    b[1][1] = np.array([1.0, 2.0, 1.0])
    assert difference(a, b) == "[1][1]: 1 of 3 elements differ ([1]: 1.0 != 2.0); largest difference 1 at [1]"
    b[1][1] = np.ones(4)
    assert difference(a, b) == "[1][1]: shape (3,) != (4,)"
    assert difference(a, _object_array([np.zeros(2)])) == "value: shape (2,) != (1,)"


def test_nan_items_under_exact_and_value_comparison() -> None:
    python_nan = _object_array([float("nan"), np.full(2, np.nan)])
    numpy_nan = _object_array([np.float64("nan"), np.full(2, np.nan)])
    assert difference(python_nan, copy.deepcopy(python_nan)) is None
    assert difference(python_nan, numpy_nan) == "[0]: type float != float64"
    assert value_difference(python_nan, numpy_nan) is None
    assert difference(python_nan, _object_array([float("nan"), np.full(2, 1.0)])) is not None
    # Against a float array of the same shape: only a value comparison looks past the dtype.
    floats = np.array([np.nan, 1.0])
    assert "dtype" in str(difference(_object_array([np.nan, 1.0]), floats))
    assert value_difference(_object_array([np.nan, 1]), floats) is None


def test_object_arrays_against_lists_compare_as_sequences() -> None:
    ragged = [np.zeros(2), np.zeros(3)]
    assert value_difference(_object_array(ragged), copy.deepcopy(ragged)) is None
    assert value_difference(copy.deepcopy(ragged), _object_array(ragged)) is None
    same_shapes = [np.zeros(2), np.zeros(2)]  # NumPy alone would read this list as a (2, 2) array
    assert value_difference(_object_array(same_shapes), same_shapes) is None
    assert value_difference(_object_array(ragged), [np.zeros(2)]) == "value: length 2 != 1"
    assert difference(_object_array(ragged), ragged) == "value: type ndarray != list"
    assert value_difference(np.zeros(2), ragged) is not None  # NumPy cannot convert it: unequal, no crash


def test_arrays_name_the_differing_indices_and_the_largest_difference() -> None:
    a = np.zeros(39)
    b = a.copy()
    b[[3, 7, 20, 36]] = [0.5, 2.0, 1.0, 1.0]
    found = str(difference(a, b, "obs"))
    assert found.startswith("obs: 4 of 39 elements differ ([3]: 0.0 != 0.5, [7]: 0.0 != 2.0, [20]: 0.0 != 1.0, ...)")
    assert found.endswith("largest difference 2 at [7]")


def test_a_one_ulp_difference_says_so() -> None:
    found = str(difference(np.array([0.1 + 0.2]), np.array([0.3])))
    assert "1 of 1 elements differ" in found and "(1 ulp" in found


@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=5),
                  elements=st.floats(-1e6, 1e6)), st.data())
def test_the_first_differing_index_is_reported(value: np.ndarray[Any, Any], data: st.DataObject) -> None:
    at = tuple(data.draw(st.integers(0, side - 1)) for side in value.shape)
    changed = value.copy()
    changed[at] = changed[at] + 1.0 if abs(changed[at]) < 1e5 else 0.0
    found = str(difference(value, changed))
    assert "1 of" in found and "[" + ", ".join(map(str, at)) + "]" in found


def test_nested_dicts_give_their_key_path() -> None:
    found = str(difference({"a": {"b": np.array([1, 2])}}, {"a": {"b": np.array([1, 3])}}))
    assert found.startswith("['a']['b']: 1 of 2 elements differ ([1]: 2 != 3)")


class _Box:
    def __init__(self, low: Any, high: Any, dtype: Any = np.float32) -> None:
        self.low, self.high = np.asarray(low, dtype=dtype), np.asarray(high, dtype=dtype)
        self.shape, self.dtype = self.low.shape, np.dtype(dtype)


class _Discrete:
    def __init__(self, n: int, start: int = 0) -> None:
        self.n, self.start = n, start


class _Dict:
    def __init__(self, spaces: dict[str, Any]) -> None:
        self.spaces = spaces


def test_outside_space_names_the_broken_bound_at_its_index() -> None:
    low, high = np.full(39, -1.0), np.full(39, 1.0)
    high[36:] = low[36:] = 0.0
    value = np.zeros(39, np.float32)
    value[36:] = 0.5
    found = outside_space(_Box(low, high), value, "obs")
    assert found == "obs[36] = 0.5 > high[36] = 0.0 (3 of 39 elements out of bounds: [36], [37], [38])"
    assert "< low[0]" in str(outside_space(_Box(low, high), np.full(39, -2.0, np.float32), "obs"))


def test_outside_space_names_the_dtype_when_the_values_are_in_range() -> None:
    found = str(outside_space(_Box([0, 0], [10, 10]), np.array([1, 2]), "obs"))
    assert "every value is within the bounds, but obs has dtype int64 where the space has float32" in found


def test_outside_space_follows_dict_keys_and_discrete_ranges() -> None:
    space = _Dict({"a": _Discrete(3), "b": _Box([0], [1])})
    assert outside_space(space, {"a": 5, "b": np.zeros(1, np.float32)}, "obs") == "obs['a'] = 5 is outside [0, 2]"
    assert "keys" in str(outside_space(space, {"a": 1}, "obs"))
    assert outside_space(_Box([0], [1]), np.zeros(1, np.float32)) is not None  # nothing out: says so, never None


class _ForeignArray:
    """An array of another library as the suite sees one: ``shape``, ``dtype``, ``ndim`` and ``__array__``."""

    def __init__(self, data: Any) -> None:
        self._data = np.asarray(data)
        self.shape, self.dtype, self.ndim = self._data.shape, self._data.dtype, self._data.ndim

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        return self._data if dtype is None else self._data.astype(dtype)

    def __eq__(self, other: object) -> bool:  # like jax.Array: elementwise, so `a == b` has no single truth value
        raise TypeError("the truth value of an array is ambiguous")

    __hash__ = None  # type: ignore[assignment]  # arrays are unhashable


def test_foreign_arrays_compare_as_numpy_arrays() -> None:
    """JAX or other array-API arrays compare by value through np.asarray (their == is elementwise)."""
    assert difference(_ForeignArray([1.0, 2.0]), _ForeignArray([1.0, 2.0])) is None
    found = difference({"obs": _ForeignArray([1.0, 2.0])}, {"obs": _ForeignArray([1.0, 3.0])})
    assert found is not None and found.startswith("['obs']: 1 of 2 elements differ")
    assert difference(_ForeignArray(np.zeros(2)), np.zeros(2)) == "value: type _ForeignArray != ndarray"
    assert value_difference(_ForeignArray(np.zeros(2)), np.zeros(2)) is None


def test_equal_arrays_are_told_equal_by_their_bytes_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rollouts are compared step by step, and almost every pair is equal: the same bits settle that without the
    element-wise comparison (a fifth of its cost), which still decides every other case."""
    calls: list[object] = []
    real = np.array_equal

    def counting(a: Any, b: Any, *args: Any, **kwargs: Any) -> bool:
        calls.append(a)
        return bool(real(a, b, *args, **kwargs))

    monkeypatch.setattr(np, "array_equal", counting)
    observation = np.array([0.5, np.nan, -1.0], dtype=np.float32)
    assert difference(observation, observation.copy()) is None
    assert difference(np.arange(3), np.arange(3)) is None
    assert calls == []
    assert difference(np.array([-0.0]), np.array([0.0])) is None  # other bits, equal values: compared by value
    assert difference(np.array([1.0]), np.array([2.0])) is not None
    assert len(calls) == 2
