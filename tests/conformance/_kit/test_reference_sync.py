"""Tests for :mod:`conformance._kit.reference_sync`."""

from __future__ import annotations

import numpy as np
import pytest

from conformance._kit.reference_sync import UnsupportedSpace, reference_sync, to_reference_space
from gymspec import AutoresetMode
from reference import spaces
from tests.meta.broken._spaces import Box, Discrete, MultiBinary, MultiDiscrete, TupleSpace
from tests.meta.broken_vector._base import Hop


def test_duck_typed_spaces_become_equal_reference_spaces() -> None:
    box = to_reference_space(Box(-1.0, 2.0, (3,)))
    assert box == spaces.Box(-1.0, 2.0, (3,), np.float32)
    assert to_reference_space(Discrete(4)) == spaces.Discrete(4)
    assert to_reference_space(MultiDiscrete([2, 3])) == spaces.MultiDiscrete([2, 3])
    assert to_reference_space(MultiBinary([3])).shape == spaces.MultiBinary(3).shape
    assert to_reference_space(TupleSpace([Discrete(2), Discrete(3)])) == spaces.Tuple((spaces.Discrete(2),
                                                                                      spaces.Discrete(3)))
    same = spaces.Discrete(2)
    assert to_reference_space(same) is same


def test_unsupported_kinds_are_named() -> None:
    with pytest.raises(UnsupportedSpace, match="unknown"):
        to_reference_space(object())


def test_reference_sync_runs_in_the_given_mode() -> None:
    env = reference_sync([Hop, Hop], AutoresetMode.SAME_STEP)
    try:
        assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        assert env.reset(seed=0)[0].shape == (2, 2)
    finally:
        env.close()
