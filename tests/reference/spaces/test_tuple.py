"""Tuple: the sequence protocol, per-subspace seeding and masks."""

from __future__ import annotations

import numpy as np
import pytest

from typing import Any

from reference.spaces import Box, Discrete, Tuple


def test_sequence_protocol() -> None:
    space: Tuple[Any] = Tuple([Discrete(2), Box(0, 1, (2,))])
    assert len(space) == 2 and isinstance(space[0], Discrete) and space[0:1] == (Discrete(2),)
    assert list(space) == list(space.spaces) and space.index(Discrete(2)) == 0 and space.count(Discrete(2)) == 1
    assert repr(space) == "Tuple(Discrete(2), Box(0.0, 1.0, (2,), float32))"


def test_seeding_forms() -> None:
    space: Tuple[Any] = Tuple([Discrete(5), Discrete(5)])
    seeds = space.seed(3)
    assert len(seeds) == 2 and all(isinstance(s, int) for s in seeds)
    assert space.seed([7, 8]) == (7, 8)
    assert Tuple([Discrete(5), Discrete(5)], seed=[7, 8]).sample() == space.sample()
    with pytest.raises(ValueError, match="one entry per subspace"):
        space.seed([1])
    with pytest.raises(TypeError):
        space.seed("1")


def test_contains_and_masks() -> None:
    space: Tuple[Any] = Tuple([Discrete(2), Discrete(3)], seed=0)
    assert space.contains((1, 2)) and space.contains([1, 2]) and not space.contains((1,)) and not space.contains(1)
    assert space.sample(mask=(np.array([0, 1], dtype=np.int8), None))[0] == 1
    with pytest.raises(TypeError):
        space.sample(mask=[None, None])
    with pytest.raises(ValueError):
        space.sample(mask=(None,))
