"""The Space base class: lazy generators, seeding, pickled legacy state."""

from __future__ import annotations

import numpy as np
import pytest

from reference.error import Error
from reference.spaces import Discrete, Space


def test_generator_is_lazy_and_seed_returns_the_seed() -> None:
    space = Space[int]()
    assert space._np_random is None
    assert isinstance(space.np_random, np.random.Generator)
    assert space.seed(42) == 42
    assert space.shape is None and space.dtype is None


def test_invalid_seeds_are_gymnasium_errors_and_builtin_errors() -> None:
    with pytest.raises(Error):
        Space[int]().seed(-1)
    with pytest.raises(ValueError):
        Space[int]().seed(-1)
    with pytest.raises(TypeError):
        Space[int]().seed(np.int64(3))  # pyright: ignore[reportArgumentType] - the wrong type under test


def test_legacy_state_names() -> None:
    space = Space[int].__new__(Space)
    rng = np.random.default_rng(0)
    space.__setstate__({"shape": (2,), "dtype": None, "np_random": rng})
    assert space.shape == (2,) and space.np_random is rng


def test_base_space_leaves_abstract_methods_to_subclasses() -> None:
    space = Space[int]()
    with pytest.raises(NotImplementedError):
        space.sample()
    with pytest.raises(NotImplementedError):
        space.contains(1)
    with pytest.raises(NotImplementedError):
        _ = space.is_np_flattenable
    assert space.to_jsonable([1, 2]) == [1, 2] and space.from_jsonable([1, 2]) == [1, 2]
    assert 2 in Discrete(3)
