"""``create_shared_memory``, ``write_to_shared_memory`` and ``read_from_shared_memory`` round trips."""

from __future__ import annotations

import multiprocessing
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import reference.spaces as ref_spaces
from reference.error import CustomSpaceError
from reference.spaces import Box, Graph, Sequence, Space
from reference.vector.utils import (
    concatenate,
    create_empty_array,
    create_shared_memory,
    read_from_shared_memory,
    write_to_shared_memory,
)
from tests.reference._equality import assert_identical
from tests.reference.spaces.strategies import Recipe, recipes


def _fixed_shape(recipe: Recipe) -> bool:
    return recipe.kind not in ("Sequence", "Graph") and all(_fixed_shape(child) for child in recipe.children)


def _oneof_of_container(recipe: Recipe) -> bool:
    """Gymnasium cannot read a OneOf whose alternative is a Tuple or Dict back from shared memory."""
    if recipe.kind == "OneOf" and any(child.kind in ("Tuple", "Dict") for child in recipe.children):
        return True
    return any(_oneof_of_container(child) for child in recipe.children)


@settings(max_examples=40, deadline=None)
@given(recipes(flattenable_only=True), st.integers(1, 3), st.integers(0, 2**31))
def test_written_elements_read_back_as_the_concatenated_batch(recipe: Recipe, n: int, seed: int) -> None:
    assume(_fixed_shape(recipe))
    space = recipe.build(ref_spaces)
    space.seed(seed)
    items = [space.sample() for _ in range(n)]
    memory = create_shared_memory(space, n, multiprocessing.get_context("fork"))
    for index in reversed(range(n)):
        write_to_shared_memory(space, index, items[index], memory)
    expected = concatenate(space, items, create_empty_array(space, n))
    assert_identical(read_from_shared_memory(space, memory, n), expected, key_order=True, scalars_as_arrays=True)


@pytest.mark.gymnasium
@settings(max_examples=30, deadline=None)
@given(recipes(flattenable_only=True), st.integers(1, 3), st.integers(0, 2**31))
def test_reads_equal_gymnasium(recipe: Recipe, n: int, seed: int) -> None:
    assume(_fixed_shape(recipe) and not _oneof_of_container(recipe))
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    gym_utils = pytest.importorskip("gymnasium.vector.utils")
    ours, theirs = recipe.build(ref_spaces), recipe.build(gym_spaces)
    ours.seed(seed)
    theirs.seed(seed)
    ours_memory, theirs_memory = create_shared_memory(ours, n), gym_utils.create_shared_memory(theirs, n)
    for index in range(n):
        write_to_shared_memory(ours, index, ours.sample(), ours_memory)
        gym_utils.write_to_shared_memory(theirs, index, theirs.sample(), theirs_memory)
    theirs_read = gym_utils.read_from_shared_memory(theirs, theirs_memory, n)
    assert_identical(read_from_shared_memory(ours, ours_memory, n), theirs_read, key_order=True)


def test_array_reads_are_live_views() -> None:
    space = Box(0, 10, (2,), dtype=np.int32)
    memory = create_shared_memory(space, 3)
    view = read_from_shared_memory(space, memory, 3)
    write_to_shared_memory(space, 1, np.array([4, 5], dtype=np.int32), memory)
    assert view.tolist() == [[0, 0], [4, 5], [0, 0]]


def test_raw_arrays_are_accepted() -> None:
    space = Box(0, 1, (2,), dtype=np.float16)
    raw = multiprocessing.RawArray("B", 2 * 2 * 2)
    write_to_shared_memory(space, 1, np.array([0.5, 1.0], dtype=np.float16), raw)
    assert read_from_shared_memory(space, raw, 2).tolist() == [[0.0, 0.0], [0.5, 1.0]]


def test_unsupported_spaces() -> None:
    class Custom(Space[int]):
        pass

    with pytest.raises(CustomSpaceError, match="shared_memory=False"):
        create_shared_memory(Custom(), 2)
    with pytest.raises(CustomSpaceError):
        read_from_shared_memory(Custom(), None, 2)
    with pytest.raises(CustomSpaceError):
        write_to_shared_memory(Custom(), 0, 1, None)
    for dynamic in (Sequence(Box(0, 1)), Graph(Box(0, 1), None)):
        with pytest.raises(TypeError, match="fixed shape"):
            create_shared_memory(dynamic, 2)
    with pytest.raises(TypeError, match="must be a reference Space"):
        create_shared_memory("nope", 2)  # type: ignore[arg-type]


def test_missing_arguments_default_like_gymnasium() -> None:
    memory: Any = create_shared_memory(Box(0, 1, (3,)))
    assert read_from_shared_memory(Box(0, 1, (3,)), memory).shape == (1, 3)
