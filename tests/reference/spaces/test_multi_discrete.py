"""MultiDiscrete: construction, membership, masks, sub-spaces."""

from __future__ import annotations

import numpy as np
import pytest

from reference.spaces import Discrete, MultiDiscrete


def test_attributes_repr_and_contains() -> None:
    space = MultiDiscrete([3, 2], start=[-1, 5])
    assert space.shape == (2,) and space.nvec.tolist() == [3, 2] and space.start.tolist() == [-1, 5]
    assert repr(space) == "MultiDiscrete([3 2], start=[-1  5])"
    assert repr(MultiDiscrete([3, 2])) == "MultiDiscrete([3 2])"
    assert space.contains(np.array([1, 6])) and space.contains([-1, 5])
    assert not space.contains(np.array([2, 6])) and not space.contains(np.array([1.0, 6.0]))
    assert not space.contains([[1, 2], [3]])  # ragged: False, not an exception


def test_inputs_are_copied() -> None:
    nvec = np.array([2, 3])
    space = MultiDiscrete(nvec)
    nvec[0] = 100
    assert space.nvec.tolist() == [2, 3]


def test_getitem_and_len() -> None:
    space = MultiDiscrete([[2, 3], [4, 5]], seed=0)
    sub = space[0, 1]
    assert isinstance(sub, Discrete) and sub.n == 3
    row = space[1]
    assert isinstance(row, MultiDiscrete) and row.nvec.tolist() == [4, 5]
    with pytest.warns(UserWarning, match="multi-dimensional"):
        assert len(space) == 2


def test_masks() -> None:
    space = MultiDiscrete([3, 2], seed=0)
    mask = (np.array([0, 0, 1], dtype=np.int8), np.array([1, 0], dtype=np.int8))
    assert space.sample(mask=mask).tolist() == [2, 0]
    probability = (np.array([0.0, 1.0, 0.0]), np.array([0.0, 1.0]))
    assert space.sample(probability=probability).tolist() == [1, 1]
    with pytest.raises(TypeError):
        space.sample(mask=[np.array([1, 1, 1], dtype=np.int8), np.array([1, 1], dtype=np.int8)])
    with pytest.raises(ValueError):
        space.sample(mask=(np.array([1, 1, 1], dtype=np.int8),))
