"""ArraySpace: the JSON conversion, shape and pickling shared by Box, MultiBinary and MultiDiscrete."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from reference.spaces import Box, MultiBinary, MultiDiscrete
from reference.spaces._array_space import ArraySpace

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # Box.contains warns on non-array input

_SPACES = [Box(-2, 2, (2, 3), seed=0), MultiBinary([2, 3], seed=0), MultiDiscrete([[3, 4, 5], [2, 2, 2]], seed=0)]


@pytest.mark.parametrize("space", _SPACES, ids=lambda space: type(space).__name__)
def test_json_round_trip_keeps_values_dtype_and_shape(space: ArraySpace[np.ndarray]) -> None:
    samples = [space.sample() for _ in range(3)]
    json = space.to_jsonable(samples)
    assert json == [sample.tolist() for sample in samples]
    back = space.from_jsonable(json)
    assert all(b.dtype == space.dtype and np.array_equal(b, s) for b, s in zip(back, samples, strict=True))
    assert space.shape == samples[0].shape and space.is_np_flattenable is True


def test_from_jsonable_copies_only_for_multi_discrete() -> None:
    # Gymnasium's behaviour: MultiDiscrete uses np.array, Box and MultiBinary np.asarray.
    for space, copies in zip(_SPACES, (False, False, True), strict=True):
        sample = space.sample()
        assert (space.from_jsonable([sample])[0] is sample) is not copies


@pytest.mark.parametrize("space", _SPACES, ids=lambda space: type(space).__name__)
def test_pickles_leave_out_derived_attributes(space: ArraySpace[np.ndarray]) -> None:
    state = space.__getstate__()
    assert not set(state) & set(space._derived_attrs)
    assert set(state) | set(space._derived_attrs) >= set(space.__dict__)
    for restored in (pickle.loads(pickle.dumps(space)), copy.deepcopy(space)):
        # The derived caches are rebuilt, so the copy samples what the original samples next.
        assert restored == space and np.array_equal(restored.sample(), copy.deepcopy(space).sample())
