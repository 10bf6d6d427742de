"""Differential tests: the same recipe built with reference and with Gymnasium behaves identically.

Same seed -> same seeds reported, same samples (values, dtypes, scalar types), same masked samples, same reprs,
same ``contains`` answers on each other's samples, same ``flatten``/``unflatten``/``flatten_space``/``flatdim``
and the same JSON form.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reference._equality import assert_identical
from tests.reference.spaces.strategies import Recipe, recipes

gym_spaces = pytest.importorskip("gymnasium.spaces")
gym_utils = pytest.importorskip("gymnasium.spaces.utils")

import reference.spaces as ref_spaces  # noqa: E402 - after the importorskip guard
import reference.spaces.utils as ref_utils  # noqa: E402

pytestmark = [
    pytest.mark.gymnasium,
    pytest.mark.filterwarnings("ignore:.*Casting input x to numpy array"),
    pytest.mark.filterwarnings("ignore:.*precision lowered"),
]

_Space: TypeAlias = Any
_SETTINGS = settings(max_examples=60, deadline=None)
seeds = st.integers(0, 2**32)


def _both(recipe: Recipe) -> tuple[_Space, _Space]:
    return recipe.build(ref_spaces), recipe.build(gym_spaces)


def _has(recipe: Recipe, kind: str) -> bool:
    return recipe.kind == kind or any(_has(child, kind) for child in recipe.children)


def _oneof_of_container(recipe: Recipe) -> bool:
    if recipe.kind == "OneOf" and any(child.kind in ("Tuple", "Dict") for child in recipe.children):
        return True
    return any(_oneof_of_container(child) for child in recipe.children)


def _flattenable_structure(recipe: Recipe) -> bool:
    """Whether both libraries can flatten the space (Gymnasium fails on zero-width OneOf alternatives)."""
    if recipe.kind == "OneOf":
        if not recipe.flattenable or any(ref_utils.flatdim(child.build()) == 0 for child in recipe.children):
            return False
    return all(_flattenable_structure(child) for child in recipe.children)


@_SETTINGS
@given(recipes(), seeds)
def test_same_seed_same_samples(recipe: Recipe, seed: int) -> None:
    ours, theirs = _both(recipe)
    assert repr(ours) == repr(theirs)
    our_seeds, their_seeds = ours.seed(seed), theirs.seed(seed)
    if isinstance(our_seeds, (list, tuple)):  # composite spaces: the libraries may differ on list vs tuple
        our_seeds, their_seeds = list(our_seeds), list(their_seeds)
    assert_identical(our_seeds, their_seeds, "seeds", key_order=True, scalars_as_arrays=True)
    for _ in range(4):
        a, b = ours.sample(), theirs.sample()
        assert_identical(a, b, recipe.kind, key_order=True)
        if not _has(recipe, "Graph"):
            assert ours.contains(b) == theirs.contains(b) is True
            assert theirs.contains(a) is True


@_SETTINGS
@given(recipes(), seeds)
def test_same_flattening(recipe: Recipe, seed: int) -> None:
    if not _flattenable_structure(recipe):
        return
    ours, theirs = _both(recipe)
    theirs.seed(seed)
    sample = theirs.sample()
    ours.seed(seed)
    our_sample = ours.sample()
    flat_theirs = gym_utils.flatten(theirs, sample)
    flat_ours = ref_utils.flatten(ours, our_sample)
    assert_identical(flat_ours, flat_theirs, key_order=True)
    assert repr(ref_utils.flatten_space(ours)) == repr(gym_utils.flatten_space(theirs))
    if recipe.flattenable:
        assert ref_utils.flatdim(ours) == gym_utils.flatdim(theirs)
    ours_back = ref_utils.unflatten(ours, flat_ours)
    try:
        theirs_back = gym_utils.unflatten(theirs, flat_theirs)
    except TypeError:
        # Gymnasium cannot unflatten Text inside a float-flattened container (it indexes with floats), also when
        # that container sits in a non-flattenable one; we can.
        if not _has(recipe, "Text"):
            raise
        return
    assert_identical(ours_back, theirs_back, key_order=True)


@_SETTINGS
@given(recipes(), seeds)
def test_same_jsonable(recipe: Recipe, seed: int) -> None:
    if _oneof_of_container(recipe):
        return  # Gymnasium's OneOf JSON form is broken for Tuple/Dict alternatives; ours round-trips
    ours, theirs = _both(recipe)
    ours.seed(seed)
    theirs.seed(seed)
    batch_ours = [ours.sample() for _ in range(2)]
    batch_theirs = [theirs.sample() for _ in range(2)]
    assert ours.to_jsonable(batch_ours) == theirs.to_jsonable(batch_theirs)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 8), st.integers(-3, 3), seeds, st.data())
def test_discrete_masks_match(n: int, start: int, seed: int, data: st.DataObject) -> None:
    ours, theirs = ref_spaces.Discrete(n, start=start, seed=seed), gym_spaces.Discrete(n, start=start, seed=seed)
    for _ in range(4):
        mask = np.asarray(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int8)
        weights = np.asarray(data.draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), dtype=np.float64)
        assert_identical(ours.sample(mask=mask), theirs.sample(mask=mask), key_order=True)
        if weights.sum() > 0:
            probability = weights / weights.sum()
            assert_identical(ours.sample(probability=probability), theirs.sample(probability=probability), key_order=True)
        assert_identical(ours.sample(), theirs.sample(), key_order=True)


@settings(max_examples=30, deadline=None)
@given(seeds, st.data())
def test_multi_space_masks_match(seed: int, data: st.DataObject) -> None:
    pairs = [
        (ref_spaces.MultiDiscrete([3, 2], seed=seed), gym_spaces.MultiDiscrete([3, 2], seed=seed)),
        (ref_spaces.MultiBinary(4, seed=seed), gym_spaces.MultiBinary(4, seed=seed)),
        (ref_spaces.Text(4, min_length=0, charset="abc", seed=seed), gym_spaces.Text(4, min_length=0, charset="abc", seed=seed)),
    ]
    bits = st.lists(st.integers(0, 1), min_size=3, max_size=3)
    md_mask = (np.asarray(data.draw(bits), dtype=np.int8), np.asarray(data.draw(bits)[:2], dtype=np.int8))
    mb_mask = np.asarray(data.draw(st.lists(st.integers(0, 2), min_size=4, max_size=4)), dtype=np.int8)
    mb_probability = np.asarray(data.draw(st.lists(st.floats(0, 1), min_size=4, max_size=4)), dtype=np.float64)
    text_mask = (data.draw(st.none() | st.integers(0, 4)), np.asarray(data.draw(bits), dtype=np.int8))
    masks = [md_mask, mb_mask, text_mask]
    for (ours, theirs), mask in zip(pairs, masks, strict=True):
        assert_identical(ours.sample(mask=mask), theirs.sample(mask=mask), key_order=True)
        assert_identical(ours.sample(), theirs.sample(), key_order=True)
    ours_mb, theirs_mb = pairs[1]
    assert_identical(ours_mb.sample(probability=mb_probability), theirs_mb.sample(probability=mb_probability), key_order=True)


def test_discrete_stream_survives_interleaved_generator_use() -> None:
    """Batched draws must stay invisible: any outside use of the generator sees Gymnasium's exact state."""
    import copy
    import pickle

    ours, theirs = ref_spaces.Discrete(7, start=-2, seed=5), gym_spaces.Discrete(7, start=-2, seed=5)
    for step in range(300):
        operation = step % 37
        if operation == 5:
            assert ours.np_random.random() == theirs.np_random.random()
        elif operation == 11:
            mask = np.array([0, 1, 1, 0, 1, 0, 0], dtype=np.int8)
            assert_identical(ours.sample(mask=mask), theirs.sample(mask=mask), key_order=True)
        elif operation == 17:
            ours, theirs = copy.deepcopy(ours), copy.deepcopy(theirs)
        elif operation == 23:
            ours, theirs = pickle.loads(pickle.dumps(ours)), pickle.loads(pickle.dumps(theirs))
        elif operation == 29:
            ours.seed(step)
            theirs.seed(step)
        elif operation == 31:
            assert ours._np_random.bit_generator.state == theirs._np_random.bit_generator.state  # type: ignore[union-attr]
        else:
            assert_identical(ours.sample(), theirs.sample(), key_order=True)


def test_gymnasium_pickles_load_into_reference_layout() -> None:
    """A reference space restores from the attribute layout Gymnasium pickles (including legacy names)."""
    import copy

    theirs = gym_spaces.Discrete(4, seed=3)
    state = copy.deepcopy(dict(theirs.__dict__))
    ours = ref_spaces.Discrete.__new__(ref_spaces.Discrete)
    ours.__setstate__(state)
    assert ours == ref_spaces.Discrete(4)
    assert_identical(ours.sample(), theirs.sample(), key_order=True)
    box_state = dict(gym_spaces.Box(0, 1, (2,), seed=1).__dict__)
    box_state.pop("low_repr")
    box_state["shape"] = box_state.pop("_shape")
    box = ref_spaces.Box.__new__(ref_spaces.Box)
    box.__setstate__(box_state)
    assert box == ref_spaces.Box(0, 1, (2,)) and box.low_repr == "0.0"


def test_stacked_sequence_of_composites_matches() -> None:
    pytest.importorskip("reference.vector.utils")
    ours = ref_spaces.Sequence(ref_spaces.Tuple([ref_spaces.Discrete(3), ref_spaces.Box(0, 1, (2,))]), stack=True, seed=3)
    theirs = gym_spaces.Sequence(gym_spaces.Tuple([gym_spaces.Discrete(3), gym_spaces.Box(0, 1, (2,))]), stack=True, seed=3)
    for _ in range(5):
        a, b = ours.sample(), theirs.sample()
        assert_identical(a, b, key_order=True)
        assert ours.contains(a)
        assert_identical(ref_utils.flatten(ours, a), gym_utils.flatten(theirs, b), key_order=True)
    assert repr(ref_utils.flatten_space(ours)) == repr(gym_utils.flatten_space(theirs))


def test_reassigned_attributes_take_effect_like_gymnasium() -> None:
    """Caches follow attribute reassignment (Gymnasium reads these attributes on every call)."""
    ours, theirs = ref_spaces.Discrete(3, seed=1), gym_spaces.Discrete(3, seed=1)
    ours.sample()
    theirs.sample()
    ours.n, theirs.n = np.int64(10), np.int64(10)
    ours.start, theirs.start = np.int64(5), np.int64(5)
    for _ in range(20):
        assert_identical(ours.sample(), theirs.sample(), key_order=True)
    assert ours.contains(14) and not ours.contains(15) and repr(ours) == repr(theirs)
    box, gym_box = ref_spaces.Box(0, 1, (2,), seed=0), gym_spaces.Box(0, 1, (2,), seed=0)
    box.low = gym_box.low = np.full(2, 5, np.float32)
    box.high = gym_box.high = np.full(2, 6, np.float32)
    assert_identical(box.sample(), gym_box.sample())
    assert box.contains(np.full(2, 5.5, np.float32))
    multi, gym_multi = ref_spaces.MultiDiscrete([2, 2], seed=0), gym_spaces.MultiDiscrete([2, 2], seed=0)
    multi.nvec = gym_multi.nvec = np.array([10, 10])
    assert_identical(multi.sample(), gym_multi.sample())
    assert multi.contains(np.array([7, 7]))
