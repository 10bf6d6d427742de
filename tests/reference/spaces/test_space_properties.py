"""Properties every space satisfies, checked over generated (nested) spaces of every kind."""

from __future__ import annotations

import copy
import pickle
from typing import Any, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.spaces import Dict, OneOf, Sequence, Space, Tuple, flatten, flatten_space, unflatten
from reference.spaces.utils import flatdim
from tests.reference._equality import assert_identical
from tests.reference.spaces.strategies import spaces

_AnySpace: TypeAlias = Space[Any]

_SETTINGS = settings(max_examples=40, deadline=None)
pytestmark = pytest.mark.filterwarnings("ignore:.*Casting input x to numpy array")
seeds = st.integers(0, 2**32)


@_SETTINGS
@given(spaces(), seeds)
def test_samples_are_members(space: _AnySpace, seed: int) -> None:
    space.seed(seed)
    for _ in range(3):
        sample = space.sample()
        assert space.contains(sample), f"{space} does not contain its sample {sample!r}"
        assert sample in space


@_SETTINGS
@given(spaces(), seeds)
def test_seeded_sampling_replays(space: _AnySpace, seed: int) -> None:
    first_seeds = space.seed(seed)
    first = [space.sample() for _ in range(3)]
    assert space.seed(seed) == first_seeds
    second = [space.sample() for _ in range(3)]
    assert_identical(first, second, key_order=True)


@_SETTINGS
@given(spaces(), seeds)
def test_copies_sample_independently_and_identically(space: _AnySpace, seed: int) -> None:
    space.seed(seed)
    twin = copy.deepcopy(space)
    assert twin == space
    ours = [space.sample() for _ in range(2)]
    theirs = [twin.sample() for _ in range(2)]
    assert_identical(ours, theirs, key_order=True)


@_SETTINGS
@given(spaces(), seeds)
def test_pickle_round_trip_keeps_equality_and_stream(space: _AnySpace, seed: int) -> None:
    space.seed(seed)
    space.sample()
    restored = pickle.loads(pickle.dumps(space))
    assert restored == space
    assert repr(restored) == repr(space)
    for _ in range(2):
        assert_identical(space.sample(), restored.sample(), key_order=True)


@_SETTINGS
@given(spaces(), seeds)
def test_jsonable_round_trip(space: _AnySpace, seed: int) -> None:
    space.seed(seed)
    batch = [space.sample() for _ in range(2)]
    restored = space.from_jsonable(space.to_jsonable(batch))
    assert len(restored) == len(batch)
    for original, back in zip(batch, restored, strict=True):
        assert_identical(original, back, key_order=True, scalars_as_arrays=True)
        assert space.contains(back)


def _flattenable_structure(space: _AnySpace) -> bool:
    """Whether ``flatten`` supports the space: a OneOf needs flattenable alternatives, containers recurse."""
    if isinstance(space, OneOf):
        return space.is_np_flattenable
    if isinstance(space, Tuple):
        return all(_flattenable_structure(s) for s in space.spaces)
    if isinstance(space, Dict):
        return all(_flattenable_structure(s) for s in space.spaces.values())
    if isinstance(space, Sequence):
        return _flattenable_structure(space.feature_space)
    return True


@_SETTINGS
@given(spaces(), seeds)
def test_flatten_unflatten_round_trip(space: _AnySpace, seed: int) -> None:
    if not _flattenable_structure(space):
        with pytest.raises(ValueError, match="flattenable"):
            flatten_space(space)
        return
    space.seed(seed)
    sample = space.sample()
    flat = flatten(space, sample)
    assert_identical(unflatten(space, flat), sample, key_order=True, scalars_as_arrays=True)
    flat_space = flatten_space(space)
    assert flat_space.contains(flat), f"{flat_space} does not contain {flat!r}"
    if space.is_np_flattenable:
        assert isinstance(flat, np.ndarray)
        assert flat.shape == (flatdim(space),)
        assert flat.dtype == flat_space.dtype


@_SETTINGS
@given(spaces(), spaces())
def test_equality_is_structural(a: _AnySpace, b: _AnySpace) -> None:
    assert a == a
    assert a == copy.deepcopy(a)
    if repr(a) != repr(b):
        assert a != b
