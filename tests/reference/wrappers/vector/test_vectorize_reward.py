"""The stateless reward wrappers against Gymnasium 1.4 in every autoreset mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vector import AutoresetMode, SyncVectorEnv
from reference.wrappers import TransformReward as SingleTransformReward
from reference.wrappers.vector import ClipReward, TransformReward, VectorizeTransformReward
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

CASES: dict[str, Callable[[Lib, Vec], Vec]] = {
    "transform": lambda lib, envs: lib.vector_wrappers.TransformReward(envs, lambda rewards: (rewards - 1.0) * 2.0),
    "vectorize": lambda lib, envs: lib.vector_wrappers.VectorizeTransformReward(
        envs, lib.wrappers.TransformReward, func=lambda reward: abs(reward) ** 0.5
    ),
    "clip": lambda lib, envs: lib.vector_wrappers.ClipReward(envs, -0.5, 0.75),
    "clip-min": lambda lib, envs: lib.vector_wrappers.ClipReward(envs, min_reward=0.0),
    "clip-max": lambda lib, envs: lib.vector_wrappers.ClipReward(envs, max_reward=0.25),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@settings(max_examples=8, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations(discrete_actions(), 10))
def test_matches_gymnasium(case: str, mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    ours, theirs = make_pair("dict", mode, CASES[case])
    drive(ours, theirs, mode, first_seed, ops)


def test_rewards_are_clipped_into_a_new_array() -> None:
    envs = ClipReward(SyncVectorEnv([ShortEpisodes] * N), -0.1, 0.1)
    rewards = np.array([-3.0, 0.05, 3.0])
    clipped = envs.rewards(rewards)
    np.testing.assert_array_equal(clipped, [-0.1, 0.05, 0.1])
    assert clipped.dtype == np.float64 and rewards.tolist() == [-3.0, 0.05, 3.0]


def test_rejects_bad_arguments() -> None:
    base = SyncVectorEnv([ShortEpisodes] * N)
    with pytest.raises(ValueError, match="ClipReward min_reward and max_reward must not both be None"):
        ClipReward(base)
    with pytest.raises(ValueError, match="ClipReward min_reward must be <= max_reward"):
        ClipReward(base, 1.0, 0.0)
    with pytest.raises(TypeError, match="TransformReward func must be callable, got 'abs'"):
        TransformReward(base, "abs")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="VectorizeTransformReward wrapper must be a single-env RewardWrapper class"):
        VectorizeTransformReward(base, abs)  # type: ignore[arg-type]
    assert isinstance(VectorizeTransformReward(base, SingleTransformReward, func=abs).wrapper, SingleTransformReward)


def test_async_smoke() -> None:
    assert_sync_async_agree("dict", AutoresetMode.SAME_STEP, CASES["clip"], np.array([0, 1, 2]))
