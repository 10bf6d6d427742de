"""Sequence: lengths, stacking and seeding."""

from __future__ import annotations

import numpy as np
import pytest

from reference.spaces import Box, Discrete, Sequence


def test_unstacked_and_stacked_samples() -> None:
    space = Sequence(Discrete(3), seed=0)
    sample = space.sample()
    assert isinstance(sample, tuple) and all(space.feature_space.contains(x) for x in sample)
    stacked = Sequence(Box(0, 1, (2,)), stack=True, seed=0)
    batch = stacked.sample()
    assert isinstance(batch, np.ndarray) and batch.shape[1:] == (2,) and stacked.contains(batch)
    assert repr(stacked) == "Sequence(Box(0.0, 1.0, (2,), float32), stack=True)"
    assert not stacked.contains(np.array([[2.0, 0.0]], dtype=np.float32)) and not stacked.contains(3)


def test_length_masks() -> None:
    space = Sequence(Discrete(3), seed=0)
    assert len(space.sample(mask=(4, None))) == 4
    assert len(space.sample(mask=(np.array([2]), None))) == 2
    assert space.sample(mask=(0, None)) == ()
    assert Sequence(Discrete(3), stack=True).sample(mask=(0, None)).shape == (0,)
    with pytest.raises(ValueError):
        space.sample(mask=(-1, None))
    with pytest.raises(TypeError):
        space.sample(mask=(1.5, None))


def test_seed_forms() -> None:
    space = Sequence(Discrete(3))
    assert space.seed((1, 2)) == (1, 2)
    own, feature = space.seed(9)
    assert own == 9 and isinstance(feature, int)
    with pytest.raises(ValueError):
        space.seed((1, 2, 3))
