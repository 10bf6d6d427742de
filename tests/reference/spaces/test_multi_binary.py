"""MultiBinary: shapes, membership and masks."""

from __future__ import annotations

import numpy as np
import pytest

from reference.spaces import MultiBinary


def test_shapes_and_repr() -> None:
    assert MultiBinary(4).shape == (4,) and MultiBinary([2, 3]).shape == (2, 3)
    assert MultiBinary(np.int64(3)).shape == (3,)
    assert repr(MultiBinary([2, 3])) == "MultiBinary((2, 3))" and repr(MultiBinary(4)) == "MultiBinary(4)"
    sample = MultiBinary([2, 3], seed=0).sample()
    assert sample.dtype == np.int8 and sample.shape == (2, 3)


def test_contains() -> None:
    space = MultiBinary(3)
    assert space.contains(np.array([0, 1, 1], dtype=np.int8)) and space.contains([1, 0, 1])
    assert space.contains(np.array([0.0, 1.0, 1.0]))
    assert not space.contains(np.array([0, 2, 1])) and not space.contains(np.array([0.5, 1.0, 1.0]))
    assert not space.contains(np.array([0, 1])) and not space.contains("010")


def test_masks() -> None:
    space = MultiBinary(3, seed=0)
    assert space.sample(mask=np.array([0, 1, 0], dtype=np.int8)).tolist() == [0, 1, 0]
    assert space.sample(probability=np.array([0.0, 1.0, 0.0])).tolist() == [0, 1, 0]
    with pytest.raises(ValueError, match="mask values"):
        space.sample(mask=np.array([0, 3, 0], dtype=np.int8))
    with pytest.raises(ValueError, match="shape"):
        space.sample(mask=np.array([0, 1], dtype=np.int8))
