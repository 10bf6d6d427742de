"""Discrete: construction, membership rules, masked sampling and pickling."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from reference.error import Error
from reference.spaces import Discrete


def test_attributes_and_repr() -> None:
    space = Discrete(3, start=-1, dtype=np.int32)
    assert space.n == 3 and type(space.n) is np.int32 and space.start == -1
    assert space.shape == () and space.dtype == np.int32
    assert repr(space) == "Discrete(3, start=-1, dtype=int32)"
    assert repr(Discrete(2)) == "Discrete(2)"


def test_contains_accepts_ints_not_floats() -> None:
    space = Discrete(3, start=1)
    assert space.contains(1) and space.contains(np.int64(3)) and space.contains(np.array(2))
    assert not space.contains(4) and not space.contains(0)
    assert not space.contains(1.0) and not space.contains(np.float64(2)) and not space.contains(np.array([2]))
    assert not space.contains("2")
    assert not Discrete(3, dtype=np.int8).contains(np.int64(1))  # int64 cannot be cast safely to int8


def test_sample_type_and_range() -> None:
    space = Discrete(4, start=10, seed=0)
    values = {space.sample() for _ in range(100)}
    assert values == {10, 11, 12, 13}
    assert all(type(v) is np.int64 for v in values)


def test_masks() -> None:
    space = Discrete(4, seed=1)
    mask = np.array([0, 1, 0, 1], dtype=np.int8)
    assert {int(space.sample(mask=mask)) for _ in range(50)} == {1, 3}
    assert space.sample(mask=np.zeros(4, dtype=np.int8)) == space.start
    probability = np.array([0.0, 0.0, 1.0, 0.0])
    assert space.sample(probability=probability) == 2


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"mask": [0, 1, 0, 1]}, TypeError),
        ({"mask": np.array([0, 1, 0, 1], dtype=np.int64)}, ValueError),
        ({"mask": np.array([0, 1], dtype=np.int8)}, ValueError),
        ({"mask": np.array([0, 2, 0, 1], dtype=np.int8)}, ValueError),
        ({"probability": np.array([0.5, 0.5, 0.5, 0.5])}, ValueError),
        ({"probability": np.array([-0.5, 0.5, 0.5, 0.5])}, ValueError),
        ({"mask": np.ones(4, dtype=np.int8), "probability": np.ones(4) / 4}, ValueError),
    ],
)
def test_bad_masks_raise_value_or_type_errors_that_are_also_gymnasium_errors(kwargs: dict[str, object], error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        Discrete(4).sample(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, Error)
    assert "\n" not in str(info.value)


def test_generator_shared_when_given() -> None:
    rng = np.random.default_rng(0)
    space = Discrete(5, seed=rng)
    assert space.np_random is rng


def test_pickle_and_legacy_state() -> None:
    space = Discrete(6, start=2, seed=3)
    space.sample()
    clone = pickle.loads(pickle.dumps(space))
    assert clone == space and [clone.sample() for _ in range(5)] == [space.sample() for _ in range(5)]
    legacy = Discrete.__new__(Discrete)
    legacy.__setstate__({"n": np.int64(3), "shape": (), "dtype": np.dtype(np.int64), "np_random": np.random.default_rng(0)})
    assert legacy.start == 0 and legacy.shape == () and legacy.contains(2)
