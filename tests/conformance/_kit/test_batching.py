"""Tests for :mod:`conformance._kit.batching`, against the reference's own batching (``batch_space``, ``add_info``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance._kit.batching import (
    SplitError,
    batch_info_problem,
    batch_of_one,
    batch_problem,
    is_blank,
    mask_problem,
    replace_rows,
    row_source,
    split,
    sub_info,
)
from conformance.equality import value_difference
from reference.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Text, Tuple
from reference.vector._info import add_info
from reference.vector.utils import batch_space

SPACES: list[Any] = [
    Box(-1.0, 1.0, (2,), np.float32),
    Box(0, 5, (), np.int64),
    Discrete(3, start=-1),
    MultiDiscrete([2, 3]),
    MultiBinary(3),
    Tuple((Discrete(2), Box(-1.0, 1.0, (2,), np.float64))),
    Dict({"a": Discrete(2), "b": Box(0.0, 1.0, (1,), np.float32)}),
    Text(4),
]
_N = st.integers(1, 5)
_SETTINGS = settings(max_examples=40, deadline=None)


@_SETTINGS
@given(st.sampled_from(SPACES), _N, st.integers(0, 2**16))
def test_batch_space_conforms_and_its_elements_split(single: Any, n: int, seed: int) -> None:
    batched = batch_space(single, n)
    assert batch_problem(single, batched, n) is None
    batched.seed(seed)
    parts = split(single, batched.sample(), n)
    assert len(parts) == n
    assert all(single.contains(part) for part in parts)


@_SETTINGS
@given(st.sampled_from(SPACES), _N, st.integers(0, 2**16))
def test_row_source_reads_the_element_split_cuts(single: Any, n: int, seed: int) -> None:
    batched = batch_space(single, n)
    batched.seed(seed)
    batch = batched.sample()
    for i, part in enumerate(split(single, batch, n)):
        row = eval(row_source(single, "batch", i), {"np": np, "batch": batch})  # noqa: S307 - the kit's own source
        assert value_difference(row, part) is None


@pytest.mark.parametrize(
    ("single", "batched", "found"),
    [
        (Box(-1.0, 1.0, (2,)), Box(-1.0, 1.0, (3, 2)), "shape"),
        (Box(-1.0, 1.0, (2,)), Box(-2.0, 1.0, (2, 2)), "low"),
        (Box(-1.0, 1.0, (2,), np.float32), Box(-1.0, 1.0, (2, 2), np.float64), "dtype"),
        (Discrete(3), Box(0, 2, (2,), np.int64), "MultiDiscrete"),
        (Discrete(3), MultiDiscrete([3, 4]), "nvec"),
        (Discrete(3, start=1), MultiDiscrete([3, 3]), "start"),
        (Tuple((Discrete(2), Discrete(2))), Tuple((MultiDiscrete([2, 2]),)), "Tuple"),
        (Dict({"a": Discrete(2)}), Dict({"b": MultiDiscrete([2, 2])}), "keys"),
    ],
)
def test_batch_problem_names_the_departure(single: Any, batched: Any, found: str) -> None:
    problem = batch_problem(single, batched, 2)
    assert problem is not None and found in problem


def test_split_rejects_malformed_batches() -> None:
    with pytest.raises(SplitError, match="leading dimension 3"):
        split(Box(-1.0, 1.0, (2,)), np.zeros((2, 2)), 3)
    with pytest.raises(SplitError, match="keys"):
        split(Dict({"a": Discrete(2)}), {"b": np.zeros(2)}, 2)


@_SETTINGS
@given(st.sampled_from(SPACES), _N, st.integers(0, 2**16), st.data())
def test_replace_rows_takes_exactly_the_given_rows(single: Any, n: int, seed: int, data: st.DataObject) -> None:
    batched = batch_space(single, n)
    batched.seed(seed)
    a, b = batched.sample(), batched.sample()
    rows = data.draw(st.lists(st.integers(0, n - 1), unique=True))
    mixed = replace_rows(single, a, b, rows)
    for i, (got, left, right) in enumerate(zip(split(single, mixed, n), split(single, a, n), split(single, b, n))):
        assert value_difference(got, right if i in rows else left) is None


@_SETTINGS
@given(st.sampled_from(SPACES), st.integers(0, 2**16))
def test_batch_of_one_is_a_batch_that_splits_back(single: Any, seed: int) -> None:
    single.seed(seed)
    element = single.sample()
    batch = batch_of_one(single, element)
    assert batch_space(single, 1).contains(batch)
    (row,) = split(single, batch, 1)
    assert value_difference(row, element) is None


_LEAVES = st.one_of(st.integers(-3, 3), st.floats(-1.0, 1.0), st.booleans(), st.text(max_size=3),
                    st.builds(lambda x: np.array([x, -x]), st.floats(-1.0, 1.0)))
_INFOS = st.dictionaries(st.sampled_from(["a", "b", "c"]), st.one_of(_LEAVES, st.dictionaries(
    st.sampled_from(["x", "y"]), _LEAVES, max_size=2)), max_size=3)


@_SETTINGS
@given(st.lists(_INFOS, min_size=1, max_size=4))
def test_sub_info_inverts_batching(infos: list[dict[str, Any]]) -> None:
    n = len(infos)
    batched: dict[str, Any] = {}
    for i, info in enumerate(infos):
        batched = add_info(batched, info, i, n)
    assert mask_problem(batched, n) is None
    for i, info in enumerate(infos):
        assert value_difference(sub_info(batched, i), info) is None


def test_mask_problem_and_batch_info_problem() -> None:
    mask = np.array([True, False])
    assert mask_problem({"k": np.zeros(2)}, 2) is not None
    assert mask_problem({"k": np.zeros(2), "_k": np.array([1, 0])}, 2) is not None
    assert mask_problem({"d": {"x": np.zeros(2)}, "_d": mask}, 2) is not None
    assert mask_problem({"k": np.zeros(2), "_k": mask}, 2) is None
    assert batch_info_problem({"k": np.zeros(3), "_k": mask}, 2) is not None
    assert batch_info_problem({"k": np.array([1.0, 7.0]), "_k": mask}, 2) is not None
    assert batch_info_problem({"k": np.array([1.0, 0.0]), "_k": mask}, 2) is None
    assert batch_info_problem({"k": np.array([None, None], dtype=object), "_k": np.zeros(2, bool)}, 2) is None


def test_is_blank() -> None:
    assert all(is_blank(value) for value in (None, 0, 0.0, False, "", np.zeros(3), float("nan"), np.array([None])))
    assert not any(is_blank(value) for value in (1, "x", np.array([0.0, 1.0]), True))


def test_split_reads_the_rows_of_an_array_that_is_not_numpys() -> None:
    # A JAX or torch batch (here a stand-in with __array__ and shape): its rows are read; its type is VEC-011's.
    class Foreign:
        shape = (3, 2)

        def __array__(self, dtype: object = None, copy: object = None) -> np.ndarray[Any, Any]:
            return np.arange(6, dtype=np.float32).reshape(3, 2)

    rows = split(Box(-10, 10, (2,), np.float32), Foreign(), 3)
    assert [row.tolist() for row in rows] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
