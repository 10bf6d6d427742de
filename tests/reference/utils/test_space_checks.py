"""Tests for reference.utils._space_checks: the compiled per-call observation tests."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from reference.spaces import Box, Discrete
from reference.utils._space_checks import observation_fast_test

_Value: TypeAlias = Any

_DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int64, np.uint8]
_SHAPES = [(), (1,), (4,), (2, 3), (3, 1, 2), (0,), (2, 0)]


@st.composite
def boxes(draw: st.DrawFn) -> Box[Any]:
    """Small boxes (the unrolled test) of assorted dtypes and shapes, with finite, half- and un-bounded elements."""
    dtype = np.dtype(draw(st.sampled_from(_DTYPES)))
    shape = draw(st.sampled_from(_SHAPES))
    if dtype.kind == "f":
        bound = st.sampled_from([-np.inf, -2.5, -1.0, 0.0, 0.5, 1.0, np.inf])
    else:
        info = np.iinfo(dtype.type)  # type: ignore[type-var]
        bound = st.sampled_from([int(info.min), 0, 1, 3, int(info.max)])
    a = np.array(draw(st.lists(bound, min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))), dtype=dtype)
    b = np.array(draw(st.lists(bound, min_size=a.size, max_size=a.size)), dtype=dtype)
    return Box(np.minimum(a, b).reshape(shape), np.maximum(a, b).reshape(shape), shape, dtype)


def _candidates(space: Box[Any]) -> st.SearchStrategy[_Value]:
    """Arrays near the box (its shape and dtype, or one of them off), plus a few non-arrays."""
    shapes = st.sampled_from([space.shape, *_SHAPES])
    dtypes = st.sampled_from([space.dtype, *_DTYPES])
    arrays = st.builds(lambda d, s: (d, s), dtypes, shapes).flatmap(
        lambda ds: hnp.arrays(ds[0], ds[1], elements=hnp.from_dtype(np.dtype(ds[0]), allow_subnormal=False))
    )
    clipped = hnp.arrays(space.dtype, space.shape, elements=hnp.from_dtype(space.dtype, allow_subnormal=False)).map(
        lambda x: np.clip(x, space.low, space.high) if x.dtype.kind != "f" or not np.isnan(x).any() else x
    )
    others = st.sampled_from([None, 0.0, [0.0], "x"])
    return st.one_of(clipped, arrays, others)


@given(data=st.data(), space=boxes())
@settings(max_examples=300, deadline=None)
def test_small_box_test_is_exactly_contains_for_exact_arrays(data: st.DataObject, space: Box[Any]) -> None:
    """True exactly for an ndarray of the space's dtype that ``Box.contains`` accepts (False is "look closer")."""
    test = observation_fast_test(space)
    obs = data.draw(_candidates(space))
    exact = type(obs) is np.ndarray and obs.dtype is space.dtype
    with np.errstate(all="ignore"):
        expected = exact and space.contains(obs)
    assert test(obs) is expected


def test_small_box_test_handles_signed_zero_nan_and_infinities() -> None:
    space = Box(np.array([-1.0, -np.inf], np.float32), np.array([1.0, np.inf], np.float32), (2,), np.float32)
    test = observation_fast_test(space)
    assert test(np.array([-0.0, np.inf], np.float32))
    assert test(np.array([1.0, -np.inf], np.float32))
    assert not test(np.array([0.0, np.nan], np.float32))
    assert not test(np.array([np.nan, 0.0], np.float32))
    assert not test(np.array([1.5, 0.0], np.float32))
    assert not test(np.zeros((2, 1), np.float32))  # same size, wrong shape
    assert not test(np.zeros((1, 2), np.float32))
    assert not test(np.zeros(2, np.float32).view(np.recarray))  # a subclass goes to the slow path


@pytest.mark.parametrize(("obs", "inside"), [(1, True), (3, True), (0, False), (4, False), (np.int64(1), False)])
def test_discrete_test(obs: _Value, inside: bool) -> None:
    assert observation_fast_test(Discrete(3, start=1))(obs) is inside


def test_equal_boxes_share_one_compiled_test_and_other_bounds_get_their_own() -> None:
    first, same, wider = (Box(low, 1.0, (3,), np.float32) for low in (-1.0, -1.0, -2.0))
    assert observation_fast_test(first) is observation_fast_test(same)  # compiled once, not per construction
    assert observation_fast_test(first) is not observation_fast_test(wider)
    below = np.full(3, -1.5, np.float32)
    assert observation_fast_test(wider)(below) and not observation_fast_test(first)(below)
