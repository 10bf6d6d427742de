"""Box: bounds handling, attributes, membership and sampling distributions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.error import Error
from reference.spaces import Box


def test_scalar_bounds_broadcast_and_repr() -> None:
    box = Box(-1.0, 2.0, shape=(3, 4), dtype=np.float32)
    assert box.shape == (3, 4) and box.dtype == np.float32
    assert box.low.shape == (3, 4) and box.low.dtype == np.float32
    assert (box.low_repr, box.high_repr) == (None, None)
    assert repr(box) == "Box(-1.0, 2.0, (3, 4), float32)"
    assert (box.low_repr, box.high_repr) == ("-1.0", "2.0")
    bounds = np.array([-1.0, -2.0], dtype=np.float32), np.array([2.0, 4.0], dtype=np.float32)
    assert repr(Box(*bounds, dtype=np.float32)) == "Box([-1. -2.], [2. 4.], (2,), float32)"


def test_boundedness() -> None:
    box = Box(np.array([-np.inf, 0.0, -1.0]), np.array([np.inf, np.inf, 1.0]), dtype=np.float64)
    assert box.bounded_below.tolist() == [False, True, True]
    assert box.bounded_above.tolist() == [False, False, True]
    assert not box.is_bounded() and not box.is_bounded("below") and not box.is_bounded("above")
    assert Box(0, 1, (2,)).is_bounded("both")
    with pytest.raises(ValueError, match="manner"):
        box.is_bounded("sideways")  # type: ignore[arg-type]


def test_signed_int_infinite_bounds_clamp_to_dtype_limits() -> None:
    box = Box(-np.inf, np.inf, shape=(2,), dtype=np.int16)
    assert box.low.tolist() == [-32768, -32768] and box.high.tolist() == [32767, 32767]
    assert not box.bounded_below.any() and not box.bounded_above.any()
    big = Box(np.array([-np.inf]), np.array([np.inf]), dtype=np.int64)
    assert big.high[0] == np.iinfo(np.int64).max


def test_contains() -> None:
    box = Box(0, 1, shape=(2,), dtype=np.float32)
    assert box.contains(np.array([0.5, 1.0], dtype=np.float32))
    assert np.array([0.5, 1.0], dtype=np.float64) not in box  # float64 cannot be cast safely to float32
    assert not box.contains(np.array([0.5, 1.5], dtype=np.float32))
    assert not box.contains(np.array([0.5], dtype=np.float32))
    assert not box.contains(np.array([np.nan, 0.5], dtype=np.float32))
    with pytest.warns(UserWarning, match="Casting input x"):
        assert box.contains([0.5, 0.5])
    with pytest.warns(UserWarning, match="Casting input x"):
        assert not box.contains("nonsense")
    per_coordinate = Box(np.array([0, 1]), np.array([1, 2]), dtype=np.int64)
    assert per_coordinate.contains(np.array([1, 1]))
    assert not per_coordinate.contains(np.array([0, 0]))


def test_precision_warning_points_at_the_caller() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Box(np.zeros(2), np.ones(2), dtype=np.float32)
    assert any("precision lowered" in str(w.message) and w.filename == __file__ for w in caught)


def test_sample_rejects_masks() -> None:
    box = Box(0, 1, (2,))
    with pytest.raises(ValueError, match="mask"):
        box.sample(mask=np.zeros(2, dtype=np.int8))
    with pytest.raises(Error, match="probability"):
        box.sample(probability=np.zeros(2))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([np.int8, np.uint8, np.int32, np.int64, np.bool_]))
def test_integer_samples_cover_both_ends(seed: int, dtype: type[np.generic]) -> None:
    low, high = (0, 1) if dtype is np.bool_ else (0, 2)
    box = Box(low, high, shape=(200,), dtype=dtype, seed=seed)
    sample = box.sample()
    assert sample.dtype == dtype
    assert set(np.unique(sample).tolist()) == set(range(low, high + 1)) or dtype is np.bool_


def test_unbounded_sides_use_shifted_distributions() -> None:
    box = Box(np.array([0.0, -np.inf, -np.inf]), np.array([np.inf, 0.0, np.inf]), dtype=np.float64, seed=0)
    samples = np.stack([box.sample() for _ in range(200)])
    assert (samples[:, 0] >= 0).all() and (samples[:, 1] <= 0).all()
    assert (samples[:, 2] < 0).any() and (samples[:, 2] > 0).any()


def test_equality_ignores_copies_not_bounds() -> None:
    assert Box(0, 1, (2,)) == Box(np.zeros(2, dtype=np.float32), np.ones(2, dtype=np.float32))
    assert Box(0, 1, (2,)) != Box(0, 2, (2,))
    assert Box(0, 1, (2,)) != Box(0, 1, (2,), dtype=np.float64)
    assert Box(0, 1, (2,)) != Box(0, 1, (3,))
