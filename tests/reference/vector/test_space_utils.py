"""``batch_space``, ``batch_differing_spaces``, ``iterate``, ``concatenate`` and ``create_empty_array``.

Properties over Hypothesis-generated spaces (every kind, nested): batching round-trips, batched spaces contain
stacked samples, and the results equal Gymnasium's for the same recipe and seed.
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference.spaces as ref_spaces
from reference.error import CustomSpaceError
from reference.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Space, Text, Tuple
from reference.vector.utils import batch_differing_spaces, batch_space, concatenate, create_empty_array, iterate
from tests.reference._equality import assert_identical
from tests.reference.spaces.strategies import Recipe, recipes

pytestmark = pytest.mark.filterwarnings("ignore:.*Casting input x to numpy array")

_Space: TypeAlias = Any
_SETTINGS = settings(max_examples=40, deadline=None)
sizes = st.integers(1, 3)
seeds = st.integers(0, 2**31)


class Custom(Space[int]):
    """A user-defined space with no registered vector implementations."""

    def sample(self, mask: Any = None, probability: Any = None) -> int:
        return 7

    def contains(self, x: object) -> bool:
        return x == 7


def signature(space: _Space) -> Any:
    """A library-independent description of a space, for comparing reference and Gymnasium spaces."""
    kind = type(space).__name__
    if kind == "Box":
        return (kind, space.low.tolist(), space.high.tolist(), str(space.dtype), space.shape)
    if kind == "Discrete":
        return (kind, int(space.n), int(space.start), str(space.dtype))
    if kind == "MultiDiscrete":
        return (kind, space.nvec.tolist(), space.start.tolist(), str(space.dtype))
    if kind == "MultiBinary":
        return (kind, space.shape, str(space.dtype))
    if kind == "Text":
        return (kind, space.min_length, space.max_length, space.characters)
    if kind in ("Tuple", "OneOf"):
        return (kind, [signature(s) for s in space.spaces])
    if kind == "Dict":
        return (kind, [(k, signature(s)) for k, s in space.spaces.items()])
    if kind == "Sequence":
        return (kind, signature(space.feature_space), space.stack)
    if kind == "Graph":
        edge = None if space.edge_space is None else signature(space.edge_space)
        return (kind, signature(space.node_space), edge)
    raise AssertionError(f"unexpected space {space!r}")


def samples_of(space: _Space, n: int, seed: int) -> list[Any]:
    space.seed(seed)
    return [space.sample() for _ in range(n)]


@_SETTINGS
@given(recipes(), sizes, seeds)
def test_batched_space_contains_the_stacked_samples_and_iterates_back(recipe: Recipe, n: int, seed: int) -> None:
    space = recipe.build(ref_spaces)
    items = samples_of(space, n, seed)
    batched = batch_space(space, n)
    batch = concatenate(space, items, create_empty_array(space, n))
    assert batched.contains(batch)
    assert_identical(list(iterate(batched, batch)), items, key_order=True, scalars_as_arrays=True)


@_SETTINGS
@given(recipes(), sizes, seeds)
def test_batched_space_samples_are_reproducible_and_independent(recipe: Recipe, n: int, seed: int) -> None:
    space = recipe.build(ref_spaces)
    space.seed(seed)
    batched = batch_space(space, n)
    twin = batch_space(deepcopy(space), n)
    assert_identical(batched.sample(), twin.sample(), key_order=True)
    before = deepcopy(space.np_random.bit_generator.state)
    batched.sample()
    assert space.np_random.bit_generator.state == before, "sampling the batch must not advance the single space"


@pytest.mark.gymnasium
@_SETTINGS
@given(recipes(), sizes, seeds)
def test_results_equal_gymnasium(recipe: Recipe, n: int, seed: int) -> None:
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    gym_utils = pytest.importorskip("gymnasium.vector.utils")
    ours, theirs = recipe.build(ref_spaces), recipe.build(gym_spaces)
    ours.seed(seed)
    theirs.seed(seed)
    ours_batched, theirs_batched = batch_space(ours, n), gym_utils.batch_space(theirs, n)
    assert signature(ours_batched) == signature(theirs_batched)
    assert_identical(ours_batched.sample(), theirs_batched.sample(), key_order=True)
    ours_items, theirs_items = samples_of(ours, n, seed), samples_of(theirs, n, seed)
    ours_batch = concatenate(ours, ours_items, create_empty_array(ours, n))
    theirs_batch = gym_utils.concatenate(theirs, theirs_items, gym_utils.create_empty_array(theirs, n))
    assert_identical(ours_batch, theirs_batch, key_order=True)
    for a, b in zip(iterate(ours_batched, ours_batch), gym_utils.iterate(theirs_batched, theirs_batch), strict=True):
        assert_identical(a, b, key_order=True)
    assert_identical(create_empty_array(ours, n, np.ones), gym_utils.create_empty_array(theirs, n, np.ones), key_order=True)


@pytest.mark.gymnasium
@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(-3, 3)), min_size=1, max_size=4), seeds)
def test_batch_differing_spaces_equals_gymnasium(params: list[tuple[int, int]], seed: int) -> None:
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    gym_utils = pytest.importorskip("gymnasium.vector.utils")

    def build(module: Any) -> list[Any]:
        return [
            module.Dict(
                {
                    "box": module.Box(low=start, high=start + size, shape=(2,), dtype=np.float32),
                    "d": module.Discrete(size, start=start),
                    "md": module.MultiDiscrete([size, size + 1], start=[start, 0]),
                    "mb": module.MultiBinary(2),
                    "t": module.Tuple([module.Text(size)]),
                },
                seed=seed,
            )
            for size, start in params
        ]

    ours, theirs = batch_differing_spaces(build(ref_spaces)), gym_utils.batch_differing_spaces(build(gym_spaces))
    assert signature(ours) == signature(theirs)
    assert_identical(ours.sample(), theirs.sample(), key_order=True)


def test_batch_space_examples() -> None:
    assert batch_space(Discrete(3, start=1), 2) == MultiDiscrete([3, 3], start=[1, 1])
    assert batch_space(Box(0, 1, (2,)), 3) == Box(0, 1, (3, 2))
    assert batch_space(MultiBinary(4), 2) == Box(0, 1, (2, 4), dtype=np.int8)
    assert batch_space(MultiDiscrete([2, 3]), 2) == Box(np.zeros((2, 2)), np.array([[1, 2], [1, 2]]), dtype=np.int64)
    text = batch_space(Text(4), 2)
    assert isinstance(text, Tuple) and text.spaces == (Text(4), Text(4))
    nested = batch_space(Dict({"a": Discrete(2), "b": Tuple([Box(0, 1, (1,))])}), 2)
    assert nested == Dict({"a": MultiDiscrete([2, 2]), "b": Tuple([Box(0, 1, (2, 1))])})


def test_custom_spaces() -> None:
    custom = Custom()
    batched = batch_space(custom, 2)
    assert isinstance(batched, Tuple) and len(batched) == 2
    assert concatenate(custom, [7, 7], None) == (7, 7)
    assert create_empty_array(custom, 2) is None
    with pytest.raises(CustomSpaceError):
        iterate(custom, [7, 7])
    assert list(iterate(batched, (7, 7))) == [7, 7]


def test_errors() -> None:
    with pytest.raises(TypeError, match="batch_space space must be a reference Space"):
        batch_space("not a space", 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="never batched"):
        iterate(Discrete(2), [0, 1])
    with pytest.raises(TypeError, match="must be iterable"):
        iterate(Box(0, 1, (2,)), 3)
    with pytest.raises(ValueError, match="non-empty"):
        batch_differing_spaces([])
    with pytest.raises(TypeError, match="same type"):
        batch_differing_spaces([Discrete(2), Box(0, 1)])
    with pytest.raises(ValueError, match="same dtype"):
        batch_differing_spaces([Box(0, 1, dtype=np.float32), Box(0, 1, dtype=np.float64)])
    with pytest.raises(TypeError, match="registered implementation"):
        batch_differing_spaces([Custom(), Custom()])
    with pytest.raises(TypeError, match="concatenate space must be a reference Space"):
        concatenate(None, [], None)  # type: ignore[arg-type]
