"""Tests for reference.utils.step_api_compatibility: Gymnasium's conversions, without touching the caller's info."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.utils.step_api_compatibility import (
    convert_to_done_step_api,
    convert_to_terminated_truncated_step_api,
    step_api_compatibility,
)
from tests.reference._equality import assert_identical

gym_compat = pytest.importorskip("gymnasium.utils.step_api_compatibility")

_FLAGS = st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=4)


def _vector_result(flags: list[tuple[bool, bool]], as_list: bool) -> tuple[Any, ...]:
    terminated = np.array([t for t, _ in flags])
    truncated = np.array([u for _, u in flags])
    infos: Any = [{"k": i} for i in range(len(flags))] if as_list else {"k": np.arange(len(flags))}
    return np.zeros(len(flags)), np.ones(len(flags)), terminated, truncated, infos


@settings(max_examples=60, deadline=None)
@given(flags=_FLAGS, as_list=st.booleans())
def test_vector_conversions_match_gymnasium(flags: list[tuple[bool, bool]], as_list: bool) -> None:
    result = _vector_result(flags, as_list)
    ours_done = convert_to_done_step_api(copy.deepcopy(result), is_vector_env=True)
    theirs_done = gym_compat.convert_to_done_step_api(copy.deepcopy(result), is_vector_env=True)
    assert_identical(ours_done, theirs_done, "to done")
    back = convert_to_terminated_truncated_step_api(copy.deepcopy(ours_done), is_vector_env=True)
    theirs_back = gym_compat.convert_to_terminated_truncated_step_api(theirs_done, is_vector_env=True)
    assert_identical(back, theirs_back, "back to terminated/truncated")


@settings(max_examples=30, deadline=None)
@given(terminated=st.booleans(), truncated=st.booleans(), extra=st.dictionaries(st.sampled_from("ab"), st.integers()))
def test_single_conversions_match_gymnasium(terminated: bool, truncated: bool, extra: dict[str, int]) -> None:
    result = (0, 1.0, terminated, truncated, dict(extra))
    ours = step_api_compatibility(result, output_truncation_bool=False)
    assert ours == gym_compat.step_api_compatibility(copy.deepcopy(result), output_truncation_bool=False)
    assert step_api_compatibility(ours) == gym_compat.step_api_compatibility(copy.deepcopy(ours))


def test_the_callers_info_is_not_modified() -> None:
    info = {"TimeLimit.truncated": True, "x": 1}
    _, _, terminated, truncated, new_info = convert_to_terminated_truncated_step_api((0, 0.0, True, info))
    assert (terminated, truncated, new_info) == (False, True, {"x": 1})
    assert info == {"TimeLimit.truncated": True, "x": 1}
    infos: list[dict[str, Any]] = [{}, {}]
    convert_to_done_step_api((0, 0, np.array([True, False]), np.array([True, False]), infos), is_vector_env=True)
    assert infos == [{}, {}]


def test_invalid_results() -> None:
    with pytest.raises(ValueError, match="must have 4 .* or 5"):
        convert_to_done_step_api((1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="must be a list of dicts or a dict of arrays"):
        convert_to_done_step_api((0, 0, np.array([True]), np.array([False]), "info"), is_vector_env=True)
