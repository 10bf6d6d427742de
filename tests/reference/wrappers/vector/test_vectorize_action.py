"""The action wrappers against Gymnasium 1.4 in every autoreset mode."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.spaces import Box
from reference.vector import AutoresetMode, SyncVectorEnv
from reference.wrappers import TransformAction as SingleTransformAction
from reference.wrappers.vector import ClipAction, RescaleAction, TransformAction, VectorizeTransformAction
from tests.reference.vector._helpers import ShortEpisodes
from tests.reference.wrappers.vector._pairs import (
    N,
    BoxEpisodes,
    Lib,
    Vec,
    assert_same_spaces,
    assert_sync_async_agree,
    box_actions,
    drive,
    make_pair,
    operations,
)

pytestmark = pytest.mark.gymnasium


def transform(lib: Lib, envs: Vec) -> Vec:
    single = lib.spaces.Box(-4.0, 4.0, shape=(2,), dtype=np.float32)
    return lib.vector_wrappers.TransformAction(envs, lambda actions: actions * 0.25, single_action_space=single)


def vectorize(lib: Lib, envs: Vec) -> Vec:
    single = lib.spaces.Box(-np.inf, np.inf, shape=(2,), dtype=np.float32)
    return lib.vector_wrappers.VectorizeTransformAction(
        envs, lib.wrappers.TransformAction, func=lambda action: np.tanh(action), action_space=single
    )


CASES: dict[str, Callable[[Lib, Vec], Vec]] = {
    "transform": transform,
    "vectorize": vectorize,
    "clip": lambda lib, envs: lib.vector_wrappers.ClipAction(envs),
    "rescale": lambda lib, envs: lib.vector_wrappers.RescaleAction(envs, 0.0, np.array([1.0, 3.0], dtype=np.float32)),
    "clip-rescale": lambda lib, envs: lib.vector_wrappers.ClipAction(
        lib.vector_wrappers.RescaleAction(envs, -1.0, 1.0)
    ),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@settings(max_examples=8, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations(box_actions(), 10))
def test_matches_gymnasium(case: str, mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    ours, theirs = make_pair("boxact", mode, CASES[case])
    assert_same_spaces(ours, theirs)
    drive(ours, theirs, mode, first_seed, ops)


def test_spaces() -> None:
    base = SyncVectorEnv([BoxEpisodes] * N)
    clip = ClipAction(base)
    assert clip.single_action_space == Box(-np.inf, np.inf, (2,), np.float32)
    assert clip.action_space == Box(-np.inf, np.inf, (N, 2), np.float32)
    rescale = RescaleAction(base, -2.0, 2.0)
    assert rescale.single_action_space == Box(-2.0, 2.0, (2,), np.float32)
    assert rescale.action_space == Box(-2.0, 2.0, (N, 2), np.float32)
    assert rescale.single_observation_space == base.single_observation_space


def test_caller_actions_are_not_modified() -> None:
    base = SyncVectorEnv([BoxEpisodes] * N)
    # Same in and out spaces: Gymnasium writes the transformed actions into the caller's array here.
    envs = VectorizeTransformAction(base, SingleTransformAction, func=lambda a: a * 0.0, action_space=None)
    envs.reset(seed=0)
    actions = np.full((N, 2), 0.5, dtype=np.float32)
    envs.step(actions)
    np.testing.assert_array_equal(actions, np.full((N, 2), 0.5, dtype=np.float32))
    clip = ClipAction(base)
    big = np.full((N, 2), 9.0, dtype=np.float32)
    np.testing.assert_array_equal(clip.actions(big), np.ones((N, 2), dtype=np.float32))
    assert (big == 9.0).all()


def test_rejects_bad_arguments() -> None:
    discrete = SyncVectorEnv([ShortEpisodes] * N)
    with pytest.raises(TypeError, match="ClipAction env.action_space must be a Box, got Discrete"):
        ClipAction(discrete)
    with pytest.raises(ValueError, match="RescaleAction min_action must be < max_action"):
        RescaleAction(SyncVectorEnv([BoxEpisodes] * N), 1.0, 1.0)
    with pytest.raises(TypeError, match="TransformAction func must be callable"):
        TransformAction(discrete, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="TransformAction action_space must be a Space or None, got 'x'"):
        TransformAction(discrete, lambda a: a, action_space="x")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="VectorizeTransformAction wrapper must be a single-env ActionWrapper class"):
        instance = SingleTransformAction(ShortEpisodes(), lambda a: a, None)
        VectorizeTransformAction(discrete, instance)  # type: ignore[arg-type]


def test_transform_action_batches_the_single_space() -> None:
    single = Box(0, 9, (), np.int64)

    def modulo_3(actions: np.ndarray[Any, np.dtype[np.int64]]) -> np.ndarray[Any, np.dtype[np.int64]]:
        return actions % 3

    envs = TransformAction(SyncVectorEnv([ShortEpisodes] * N), modulo_3, single_action_space=single)
    assert envs.action_space == Box(0, 9, (N,), np.int64)
    envs.reset(seed=0)
    assert envs.step(np.array([3, 4, 5]))[0]["t"].tolist() == [1, 1, 1]


def test_async_smoke() -> None:
    assert_sync_async_agree("boxact", AutoresetMode.NEXT_STEP, CASES["clip-rescale"], np.full((N, 2), 3.0, np.float32))
