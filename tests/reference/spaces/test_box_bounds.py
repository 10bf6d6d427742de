"""Box bound validation: float16/float32 bounds for a wider-range dtype are checked without numpy overflow warnings.

Regression: comparing a float16/float32 bound with the Box dtype's limits made numpy cast a limit beyond the bound
dtype's range (float64's, int32's, ...) into it: ``RuntimeWarning: overflow encountered in cast``.
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Literal, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from reference.spaces import Box
from reference.spaces import box as box_module
from reference.spaces._box_bounds import array_short_repr, dtype_limits

_Bound: TypeAlias = Any  # a float16/float32 numpy scalar or array
_Side: TypeAlias = Literal["low", "high"]

# Source float dtype -> Box dtypes whose range exceeds it. Targets whose limit rounds *to* a representable source
# value (float16 -> int16, float32 -> int32/int64) are the separate edge tested by
# test_a_float_bound_one_past_an_integer_limit_is_rejected.
_WIDER = {
    "float16": ["float32", "float64", "uint16", "int32", "uint32", "int64", "uint64"],
    "float32": ["float64"],
}


@st.composite
def _narrow_bound(draw: st.DrawFn) -> tuple[np.dtype[Any], np.dtype[Any], _Side, _Bound, bool]:
    source = np.dtype(draw(st.sampled_from(sorted(_WIDER))))
    target = np.dtype(draw(st.sampled_from(_WIDER[source.name])))
    side: _Side = draw(st.sampled_from(["low", "high"]))
    # Only the infinity that means "unbounded" on this side; the other one is a separate (rejected) input.
    unbounded = -math.inf if side == "low" else math.inf
    finite = (
        st.floats(width=16, allow_nan=False, allow_infinity=False)
        if source == np.float16
        else st.floats(width=32, allow_nan=False, allow_infinity=False)
    )
    elements = finite | st.just(unbounded)
    as_array = draw(st.booleans())
    if as_array:
        shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
        bound: _Bound = draw(hnp.arrays(source, shape, elements=elements))
    else:
        bound = source.type(draw(elements))
    return source, target, side, bound, as_array


@settings(max_examples=150, deadline=None)
@given(_narrow_bound())
def test_narrow_float_bounds_never_warn_and_keep_their_values(case: tuple[Any, ...]) -> None:
    _source, target, side, bound, as_array = case
    dtype_min, dtype_max = dtype_limits(target)
    # The other bound is the target's extreme, so only `bound` decides acceptance.
    other = dtype_max if side == "low" else dtype_min
    low, high = (bound, other) if side == "low" else (other, bound)
    shape = None if as_array else (2,)
    values = np.asarray(bound, dtype=np.float64)
    finite = values[np.isfinite(values)]
    expect_ok = all(dtype_min <= float(v) <= dtype_max for v in finite) and (
        target.kind != "u" or bool(np.isfinite(values).all())
    )

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            box = Box(low, high, shape, dtype=target)
        except ValueError as exc:
            assert not expect_ok, f"rejected a valid bound: {exc}"
            assert "must" in str(exc)
            return
    assert expect_ok, f"accepted an out-of-range bound: {box!r}"
    got = box.low if side == "low" else box.high
    bounded = box.bounded_below if side == "low" else box.bounded_above
    wanted = np.broadcast_to(values, got.shape)
    assert bounded.tolist() == np.isfinite(wanted).tolist()
    exact = np.trunc(wanted[bounded]) if target.kind in "iu" else wanted[bounded]
    assert got[bounded].astype(np.float64).tolist() == exact.tolist()
    if target.kind == "i":
        assert (got[~bounded] == (dtype_min if side == "low" else dtype_max)).all()


@pytest.mark.filterwarnings("ignore:.*precision lowered")
@pytest.mark.parametrize(
    ("low", "high", "shape", "dtype"),
    [
        (np.float32(0.0), np.float32(1.0), (2,), np.float64),
        (np.full(2, -np.inf, np.float32), np.full(2, np.inf, np.float32), None, np.float64),
        (np.float16(-np.inf), np.float16(65504.0), (3,), np.int64),
        (np.zeros(2, np.float16), np.full(2, 65504.0, np.float16), None, np.uint16),
        (-np.inf, np.inf, (2,), np.float32),
        (np.full(2, -np.inf), np.full(2, np.inf), None, np.float32),
    ],
)
def test_wide_and_infinite_bounds_build_without_runtime_warnings(
    low: _Bound, high: _Bound, shape: tuple[int, ...] | None, dtype: type[np.generic]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        box = Box(low, high, shape, dtype=dtype)
    assert box.dtype == np.dtype(dtype)


@pytest.mark.parametrize("low", [np.float64(-1e300), -1e300, np.full(2, -1e300)])
def test_out_of_float32_range_bound_is_a_clear_value_error(low: _Bound) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match=r"Box low must be within the range of float32"):
            Box(low=low, high=1.0, dtype=np.float32)


def test_box_module_exports_what_gymnasium_s_does() -> None:
    assert box_module.array_short_repr is array_short_repr
    assert set(box_module.__all__) == {"Box", "array_short_repr", "is_float_integer"}


@pytest.mark.parametrize(
    ("bound", "dtype"),
    [
        (np.float64(2**63), np.int64),
        (np.float32(2**63), np.int64),
        (np.float32(2**31), np.int32),
        (np.float16(32768), np.int16),
        (np.float64(2**64), np.uint64),
        (np.array([0.0, 2.0**31], np.float32), np.int32),
    ],
)
@pytest.mark.parametrize("side", ["low", "high"])
def test_a_float_bound_one_past_an_integer_limit_is_rejected(
    bound: _Bound, dtype: type[np.generic], side: _Side
) -> None:
    """The limit is compared exactly: float32(2**31) is past int32's max even though NumPy would round them equal.

    Before, the bound passed the range check and the cast produced a wrapped-around value (an INT64_MIN box).
    """
    other = np.zeros_like(bound) if isinstance(bound, np.ndarray) else 0
    low, high = (bound, bound) if side == "low" else (other, bound)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with pytest.raises(ValueError, match=rf"Box {side} must be within the range of {np.dtype(dtype)}"):
            Box(low, high, np.shape(bound) or (1,), dtype=dtype)
