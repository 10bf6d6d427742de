"""``DictInfoToList`` against Gymnasium 1.4 in every autoreset mode (nested infos, masks, ``final_info``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vector import AutoresetMode, SyncVectorEnv
from reference.vector.vector_env import VectorEnv
from reference.wrappers.vector import DictInfoToList
from tests.reference.vector._helpers import ShortEpisodes
from tests.reference.wrappers.vector._pairs import (
    N,
    Lib,
    Vec,
    assert_sync_async_agree,
    discrete_actions,
    drive,
    make_pair,
    operations,
)

pytestmark = pytest.mark.gymnasium


def to_list(lib: Lib, envs: Vec) -> Vec:
    return lib.vector_wrappers.DictInfoToList(envs)


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@settings(max_examples=10, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations(discrete_actions()))
def test_matches_gymnasium(mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    ours, theirs = make_pair("dict", mode, to_list)
    drive(ours, theirs, mode, first_seed, ops)


def test_conversion_by_example() -> None:
    envs = DictInfoToList(SyncVectorEnv([ShortEpisodes] * N))
    infos = envs._convert(
        {
            "k": np.array([0.0, 0.5, 0.3]),
            "_k": np.array([False, True, True]),
            "all": np.array([1, 2, 3]),
            "nested": {"x": np.array([4, 5, 6]), "_x": np.array([True, False, True])},
            "_nested": np.array([True, True, False]),
        }
    )
    assert infos == [
        {"all": 1, "nested": {"x": 4}},
        {"k": 0.5, "all": 2, "nested": {}},
        {"k": 0.3, "all": 3},
    ]


class _ListInfoEnv(VectorEnv[Any, Any, Any]):
    """A vector env whose step info is whatever the test sets."""

    def __init__(self, info: Any) -> None:
        inner = SyncVectorEnv([ShortEpisodes] * N)
        self.num_envs = N
        self.observation_space, self.action_space = inner.observation_space, inner.action_space
        self.single_observation_space = inner.single_observation_space
        self.single_action_space = inner.single_action_space
        self.metadata = dict(inner.metadata)
        self.info = info

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
        return None, self.info

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        return None, None, None, None, self.info


@pytest.mark.parametrize(
    ("info", "error", "message"),
    [
        ([{}], TypeError, "DictInfoToList env info must be a dict of batched values, got list"),
        ({"k": 3}, ValueError, r"DictInfoToList info\['k'\] must be a dict or an array with num_envs=3 rows, got 3"),
        ({"k": np.zeros(2)}, ValueError, r"got array\(shape=\(2,\), dtype=float64\)"),
        ({"k": np.zeros(3), "_k": np.ones(2, bool)}, ValueError, r"info\['_k'\] must have num_envs=3 entries"),
    ],
)
def test_malformed_infos_are_rejected(info: Any, error: type[Exception], message: str) -> None:
    envs = DictInfoToList(_ListInfoEnv(info))
    with pytest.raises(error, match=message):
        envs.reset()
    with pytest.raises(error, match=message):
        envs.step(None)


def test_async_smoke() -> None:
    assert_sync_async_agree("dict", AutoresetMode.SAME_STEP, to_list, np.array([0, 1, 2]))
