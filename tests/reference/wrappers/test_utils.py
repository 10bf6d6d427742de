"""Tests for reference.wrappers.utils."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from reference import error
from reference.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Text, Tuple
from reference.wrappers.utils import RunningMeanStd, create_zero_array, rescale_box


@given(batches=st.lists(hnp.arrays(np.float64, (3, 2), elements=st.floats(-100, 100)), min_size=1, max_size=4))
@settings(max_examples=30, deadline=None)
def test_running_mean_std_matches_the_pooled_moments(batches: list[np.ndarray[Any, Any]]) -> None:
    rms = RunningMeanStd(epsilon=1e-12, shape=(2,))
    for batch in batches:
        rms.update(batch)
    pooled = np.concatenate(batches)
    np.testing.assert_allclose(rms.mean, pooled.mean(axis=0), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(rms.var, pooled.var(axis=0), rtol=1e-5, atol=1e-5)


@pytest.mark.gymnasium
@given(batches=st.lists(hnp.arrays(np.float32, (2, 3), elements=st.floats(-10, 10, width=32)), min_size=1, max_size=3))
@settings(max_examples=20, deadline=None)
def test_running_mean_std_matches_gymnasium(batches: list[np.ndarray[Any, Any]]) -> None:
    theirs = pytest.importorskip("gymnasium.wrappers.utils").RunningMeanStd(shape=(3,), dtype=np.float32)
    ours = RunningMeanStd(shape=(3,), dtype=np.float32)
    for batch in batches:
        ours.update(batch)
        theirs.update(batch)
    np.testing.assert_array_equal(ours.mean, theirs.mean)
    np.testing.assert_array_equal(ours.var, theirs.var)
    assert ours.mean.dtype == theirs.mean.dtype


@pytest.mark.gymnasium
@given(
    low=hnp.arrays(np.float32, (3,), elements=st.floats(-50, 0, width=32)),
    width=hnp.arrays(np.float32, (3,), elements=st.floats(1, 50, width=32)),
    new_low=st.floats(-5, 0, width=32),
    x=st.floats(0, 1),
)
@settings(max_examples=30, deadline=None)
def test_rescale_box_matches_gymnasium(low: Any, width: Any, new_low: float, x: float) -> None:
    gym_utils = pytest.importorskip("gymnasium.wrappers.utils")
    gym_box = pytest.importorskip("gymnasium.spaces").Box
    high = (low + width).astype(np.float32)
    new_min, new_max = np.float32(new_low), np.float32(new_low + 2)
    ours = rescale_box(Box(low, high, dtype=np.float32), new_min, new_max)
    theirs = gym_utils.rescale_box(gym_box(low, high, dtype=np.float32), new_min, new_max)
    np.testing.assert_array_equal(ours[0].low, theirs[0].low)
    point = (low + x * (high - low)).astype(np.float32)
    np.testing.assert_array_equal(ours[1](point), theirs[1](point))
    np.testing.assert_array_equal(ours[2](point), theirs[2](point))


def test_rescale_box_keeps_unbounded_components() -> None:
    box = Box(np.array([-np.inf, 0.0]), np.array([np.inf, 1.0]), dtype=np.float64)
    new_box, forward, backward = rescale_box(box, np.array([-np.inf, 2.0]), np.array([np.inf, 4.0]))
    np.testing.assert_array_equal(forward(np.array([7.0, 0.5])), [7.0, 3.0])
    np.testing.assert_array_equal(backward(np.array([7.0, 3.0])), [7.0, 0.5])
    with pytest.raises(ValueError, match="unbounded components stay unbounded"):
        rescale_box(box, np.array([0.0, 2.0]), np.array([1.0, 4.0]))


@pytest.mark.parametrize(
    ("space", "expected"),
    [
        (Box(1.0, 2.0, (2,)), np.array([1.0, 1.0], np.float32)),
        (Box(-3, -1, (1,), np.int64), np.array([-1])),
        (Discrete(4, start=2), 2),
        (MultiDiscrete([3, 4], start=[1, 0]), np.array([1, 0])),
        (MultiBinary(3), np.zeros(3, np.int8)),
        (Tuple((Discrete(2), MultiBinary(1))), (0, np.zeros(1, np.int8))),
        (Dict({"a": Discrete(2)}), {"a": 0}),
        (Text(5, min_length=2, charset="xy"), "xx"),
    ],
)
def test_create_zero_array(space: Any, expected: Any) -> None:
    zero = create_zero_array(space)
    assert zero in space
    if isinstance(expected, tuple):
        assert zero[0] == expected[0]
        np.testing.assert_array_equal(zero[1], expected[1])
    elif isinstance(expected, np.ndarray):
        np.testing.assert_array_equal(zero, expected)
        assert zero.dtype == space.dtype
    else:
        assert zero == expected


def test_create_zero_array_rejects_foreign_spaces() -> None:
    with pytest.raises(error.CustomSpaceError, match="must be a reference space"):
        create_zero_array(object())
