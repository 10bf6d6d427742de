"""The batched info dict: ``_key`` masks, dtypes, nesting, and promotion when sub-envs disagree."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vector._info import add_info
from tests.reference._equality import assert_equal_values, assert_identical

N = 3


def merge(*infos: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, info in enumerate(infos):
        out = add_info(out, info, i, len(infos))
    return out


def test_scalars_get_an_array_of_their_type_and_a_mask() -> None:
    out = merge({"a": 1, "b": 2.5}, {}, {"a": 3, "c": True})
    assert list(out) == ["a", "_a", "b", "_b", "c", "_c"]
    assert_identical(out["a"], np.array([1, 0, 3]))
    assert_identical(out["_a"], np.array([True, False, True]))
    assert_identical(out["b"], np.array([2.5, 0.0, 0.0]))
    assert_identical(out["c"], np.array([False, False, True]))
    assert_identical(out["_c"], np.array([False, False, True]))


def test_numpy_scalars_keep_their_dtype() -> None:
    out = merge({"a": np.float32(1.5)}, {"a": np.float32(2)}, {})
    assert out["a"].dtype == np.float32
    bools = merge({"flag": np.bool_(True)}, {}, {"flag": np.bool_(False)})
    assert_identical(bools["flag"], np.array([True, False, False]))


def test_arrays_are_stacked() -> None:
    out = merge({"x": np.array([1.0, 2.0])}, {}, {"x": np.array([3.0, 4.0])})
    assert_identical(out["x"], np.array([[1.0, 2.0], [0.0, 0.0], [3.0, 4.0]]))


def test_other_values_go_to_an_object_array_filled_with_none() -> None:
    out = merge({"s": "a"}, {"s": (1, 2)}, {})
    assert out["s"].dtype == object
    assert out["s"].tolist() == ["a", (1, 2), None]


def test_nested_dicts_are_recursive_with_their_own_masks() -> None:
    out = merge({"d": {"x": 1}}, {"d": {"y": 2.0}}, {})
    assert_identical(out["_d"], np.array([True, True, False]))
    assert_identical(out["d"]["x"], np.array([1, 0, 0]))
    assert_identical(out["d"]["_x"], np.array([True, False, False]))
    assert_identical(out["d"]["_y"], np.array([False, True, False]))


def test_final_obs_is_always_an_object_array() -> None:
    obs = np.array([1.0, 2.0])
    out = merge({}, {"final_obs": obs}, {})
    assert out["final_obs"].dtype == object and out["final_obs"][1] is obs
    assert out["final_obs"][0] is None


@pytest.mark.parametrize(
    ("first", "second", "dtype"),
    [
        (1, 2.5, np.float64),
        (True, 7, np.int64),
        (np.int8(1), 300, np.int64),
        (np.float32(1.5), 2.25, np.float64),
        (np.array(["a"]), np.array(["abc"]), np.dtype("<U3")),
    ],
)
def test_later_values_that_do_not_fit_promote_the_array(first: Any, second: Any, dtype: Any) -> None:
    for a, b in ((first, second), (second, first)):
        out = merge({"k": a}, {"k": b}, {})
        assert out["k"].dtype == dtype, (a, b)
        assert out["k"][0] == a and out["k"][1] == b, "nothing may be truncated or cast lossily"


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (1, "x"),
        (np.array([1, 2]), np.array([1, 2, 3])),
        (np.array([1, 2]), 5),
        (2**70, 1),
        ({"nested": 1}, 3),
        (np.datetime64("2020-01-01"), 1.5),
    ],
)
def test_incompatible_values_fall_back_to_an_object_array(first: Any, second: Any) -> None:
    for a, b in ((first, second), (second, first)):
        out = merge({"k": a}, {}, {"k": b})
        assert out["k"].dtype == object, (a, b)
        assert out["k"][1] is None
        assert_identical(out["_k"], np.array([True, False, True]))
        got_a, got_b = out["k"][0], out["k"][2]
        for got, want in ((got_a, a), (got_b, b)):
            if isinstance(want, dict):
                assert_equal_values(got, want)  # a nested dict comes back holding NumPy scalars
            else:  # through an object array a value may come back as another scalar type of the same dtype
                assert_identical(np.asarray(got), np.asarray(want))


def test_vector_infos_is_updated_in_place() -> None:
    infos: dict[str, Any] = {}
    assert add_info(infos, {"a": 1}, 0, 2) is infos


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(["a", "b", "c"]),
            st.one_of(
                st.integers(-(2**40), 2**40),
                st.floats(allow_nan=False),
                st.booleans(),
                st.text(max_size=2),
                st.lists(st.integers(0, 3), max_size=3).map(lambda xs: np.array(xs, dtype=np.int64)),
            ),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_every_reported_value_is_recoverable(infos: list[dict[str, Any]]) -> None:
    out = merge(*infos)
    for key in {key for info in infos for key in info}:
        mask = out[f"_{key}"]
        assert mask.dtype == np.bool_ and mask.shape == (len(infos),)
        for i, info in enumerate(infos):
            assert mask[i] == (key in info)
            if key in info:
                got, want = out[key][i], info[key]
                if isinstance(want, np.ndarray):
                    assert np.array_equal(np.asarray(got), want)
                else:
                    assert got == want, (key, i, got, want)
