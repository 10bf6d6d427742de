"""Rollout comparison finds the first difference (kind, value, type, length) and nothing where there is none."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from conformance._kit.rollout import Record, first_difference
from conformance._kit.vector_rollout import VecRecord


def _record(index: int, obs: Any, reward: Any = 0.0, kind: str = "step", info: Any = None) -> Record:
    info = {} if info is None else info
    return Record(index, kind, None, obs, obs, reward, False, False, info, info)


_OBS = st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=4).map(np.array)


@given(st.lists(_OBS, min_size=1, max_size=8))
def test_identical_rollouts_have_no_difference(observations: list[Any]) -> None:
    rollout = [_record(i, obs) for i, obs in enumerate(observations)]
    copy = [_record(i, obs.copy()) for i, obs in enumerate(observations)]
    assert first_difference(rollout, copy) is None


@given(st.lists(_OBS, min_size=1, max_size=8), st.data())
def test_the_first_changed_position_is_found(observations: list[Any], data: st.DataObject) -> None:
    position = data.draw(st.integers(0, len(observations) - 1))
    rollout = [_record(i, obs) for i, obs in enumerate(observations)]
    changed = [_record(i, obs + (1.0 if i >= position else 0.0)) for i, obs in enumerate(observations)]
    found = first_difference(rollout, changed)
    assert found is not None and found[0] == position and found[1].startswith("observation")


def test_kinds_types_and_lengths_differ() -> None:
    a = [_record(0, np.zeros(2), kind="reset"), _record(1, np.zeros(2))]
    assert first_difference(a, [_record(0, np.zeros(2)), _record(1, np.zeros(2))]) == (0, "reset != step")
    found = first_difference(a, [a[0], _record(1, np.zeros(2), reward=np.float32(0.0))])
    assert found is not None and found[0] == 1 and "reward" in found[1] and "type" in found[1]
    assert first_difference(a, a[:1]) == (1, "rollout length 2 != 1")


def test_flags_of_either_bool_type_are_the_same_flag() -> None:
    # Issue 37 item 6: bool and numpy.bool_ are one flag to every rule; only the value counts.
    obs = np.zeros(2)
    plain = [Record(0, "step", None, obs, obs, 0.0, True, False, {}, {})]
    numpy = [Record(0, "step", None, obs, obs, 0.0, np.True_, np.False_, {}, {})]
    assert first_difference(plain, numpy) is None
    flipped = [Record(0, "step", None, obs, obs, 0.0, np.False_, np.False_, {}, {})]
    assert first_difference(plain, flipped) == (0, "terminated: True != False")
    as_int = [Record(0, "step", None, obs, obs, 0.0, 1, False, {}, {})]  # an int flag is ENV-013's finding: it differs
    found = first_difference(plain, as_int)
    assert found is not None and "type" in found[1]


def test_vector_records_compare_their_final_observation_arrays_item_by_item() -> None:
    final = np.empty(2, dtype=object)
    final[0], final[1] = np.zeros(3), None
    other = np.empty(2, dtype=object)
    other[0], other[1] = np.ones(3), None

    def vec(info: Any) -> VecRecord:
        obs = np.zeros((2, 3))
        return VecRecord(0, "step", None, obs, obs, np.zeros(2), np.zeros(2, bool), np.zeros(2, bool), info, info)

    assert first_difference([vec({"final_obs": final})], [vec({"final_obs": final.copy()})]) is None
    found = first_difference([vec({"final_obs": final})], [vec({"final_obs": other})])
    assert found is not None and "final_obs" in found[1]
