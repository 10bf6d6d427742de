"""Freezing keeps copies up to a budget and digests past it; digests compare exactly with arrays and digests."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.typing import NDArray

from conformance._kit.freeze import ArrayDigest, Freezer, digest_of
from conformance.equality import difference

_BIG = hnp.arrays(np.float64, st.integers(10_000, 20_000), elements=st.floats(-1, 1))


def test_small_values_are_copied_whatever_the_budget() -> None:
    freeze = Freezer(budget=0)
    value: dict[str, Any] = {"a": np.arange(3), "b": [np.zeros(2), (1, 2.0)]}
    frozen = freeze(value)
    value["a"][0] = 99
    assert frozen["a"][0] == 0 and difference(frozen["b"], value["b"]) is None


def test_an_ordered_dict_stays_one_and_equals_the_value_it_froze() -> None:
    value = collections.OrderedDict(observation=np.arange(3.0), goal=np.ones(2))
    frozen = Freezer()(value)
    assert type(frozen) is collections.OrderedDict and difference(value, frozen) is None
    value["observation"][0] = 9.0
    assert difference(value, frozen) is not None


def test_a_defaultdict_stays_one_with_its_factory() -> None:
    # Issue 37 item 5: the copy turned every dict subclass but OrderedDict into a dict, and ENV-018 compared the copy
    # with the original: "info['feature_names']: type defaultdict != dict".
    names: collections.defaultdict[str, Any] = collections.defaultdict(list, {"x": [np.zeros(2)]})
    frozen = Freezer()({"feature_names": names})["feature_names"]
    assert type(frozen) is collections.defaultdict and frozen.default_factory is list
    assert difference(names, frozen) is None and frozen["x"][0] is not names["x"][0]
    assert frozen["missing"] == [] and "missing" not in names  # its own factory, not the original's entries


def test_large_arrays_are_copied_until_the_budget_then_digested() -> None:
    freeze = Freezer(budget=2 * 100_000 * 8)
    arrays = [np.random.default_rng(i).random(100_000) for i in range(3)]
    kept = [freeze(array) for array in arrays]
    assert [isinstance(item, ArrayDigest) for item in kept] == [False, False, True]
    assert freeze.held == 2 * 100_000 * 8


@given(_BIG)
def test_a_digest_equals_its_array_and_only_it(array: NDArray[np.float64]) -> None:
    digest = digest_of(array)
    assert difference(digest, array) is None and difference(array, digest) is None
    assert difference(digest, digest_of(array.copy())) is None
    changed = array.copy()
    changed[len(changed) // 2] += 0.5
    assert difference(digest, changed) is not None
    assert difference(digest, array.astype(np.float32)) is not None  # dtype counts
    assert difference(digest, array[:-1]) is not None  # shape counts
