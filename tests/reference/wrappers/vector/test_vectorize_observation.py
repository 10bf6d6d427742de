"""The observation wrappers against Gymnasium 1.4 (``NextStep`` and ``Disabled``; ``SameStep`` is rejected)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.spaces import Box, Dict, Discrete, MultiDiscrete
from reference.vector import AutoresetMode, SyncVectorEnv
from reference.vector.utils import batch_space
from reference.wrappers import TransformObservation as SingleTransformObservation
from reference.wrappers.vector import (
    DtypeObservation,
    FilterObservation,
    FlattenObservation,
    GrayscaleObservation,
    RescaleObservation,
    ReshapeObservation,
    TransformObservation,
    VectorizeTransformObservation,
)
from tests.reference.vector._helpers import ShortEpisodes
from tests.reference.wrappers.vector._pairs import (
    N,
    Lib,
    Vec,
    assert_same_spaces,
    assert_sync_async_agree,
    discrete_actions,
    drive,
    make_pair,
    operations,
)

pytestmark = pytest.mark.gymnasium
MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED]


def _to_image(obs: Any) -> Any:
    level = np.clip((np.asarray(obs, dtype=np.float64) + 2.0) * 60.0, 0, 255).astype(np.uint8)
    return np.broadcast_to(np.array([level[0], level[1], level[0] // 2], dtype=np.uint8), (4, 5, 3)).copy()


def transform(lib: Lib, envs: Vec) -> Vec:
    single = lib.spaces.Box(-500.0, 500.0, shape=(2,), dtype=np.float32)
    return lib.vector_wrappers.TransformObservation(envs, lambda obs: obs * 3.0 + 1.0, single_observation_space=single)


def vectorize(lib: Lib, envs: Vec) -> Vec:
    space = lib.spaces.Box(-100.0, 100.0, shape=(2, 2), dtype=np.float32)
    return lib.vector_wrappers.VectorizeTransformObservation(
        envs, lib.wrappers.TransformObservation, func=lambda obs: np.stack([obs, -obs]), observation_space=space
    )


def grayscale(lib: Lib, envs: Vec) -> Vec:
    image = lib.spaces.Box(0, 255, shape=(4, 5, 3), dtype=np.uint8)
    images = lib.vector_wrappers.VectorizeTransformObservation(
        envs, lib.wrappers.TransformObservation, func=_to_image, observation_space=image
    )
    return lib.vector_wrappers.GrayscaleObservation(images, keep_dim=True)


def grayscale_flat(lib: Lib, envs: Vec) -> Vec:
    image = lib.spaces.Box(0, 255, shape=(4, 5, 3), dtype=np.uint8)
    images = lib.vector_wrappers.VectorizeTransformObservation(
        envs, lib.wrappers.TransformObservation, func=_to_image, observation_space=image
    )
    return lib.vector_wrappers.GrayscaleObservation(images)


CASES: dict[str, tuple[str, Callable[[Lib, Vec], Vec]]] = {
    "transform": ("box", transform),
    "vectorize": ("box", vectorize),
    "filter-dict": ("dict", lambda lib, envs: lib.vector_wrappers.FilterObservation(envs, ["t", "pos"])),
    "flatten-dict": ("dict", lambda lib, envs: lib.vector_wrappers.FlattenObservation(envs)),
    "filter-flatten": (
        "dict",
        lambda lib, envs: lib.vector_wrappers.FlattenObservation(lib.vector_wrappers.FilterObservation(envs, ["bits"])),
    ),
    "grayscale-keep-dim": ("box", grayscale),
    "grayscale": ("box", grayscale_flat),
    "reshape": ("box", lambda lib, envs: lib.vector_wrappers.ReshapeObservation(envs, (1, 2))),
    "rescale": ("box", lambda lib, envs: lib.vector_wrappers.RescaleObservation(envs, np.float32(0), np.float32(1))),
    "dtype": ("box", lambda lib, envs: lib.vector_wrappers.DtypeObservation(envs, np.float64)),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@settings(max_examples=8, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations(discrete_actions(), 10))
def test_matches_gymnasium(case: str, mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    kind, build = CASES[case]
    ours, theirs = make_pair(kind, mode, build)
    assert_same_spaces(ours, theirs)
    drive(ours, theirs, mode, first_seed, ops)


@pytest.mark.parametrize("case", list(CASES))
def test_same_step_is_rejected(case: str) -> None:
    kind, build = CASES[case]
    with pytest.raises(ValueError, match=r"env autoreset_mode must be NEXT_STEP or DISABLED, got .*SameStep"):
        make_pair(kind, AutoresetMode.SAME_STEP, build)


def test_spaces_are_batched_consistently() -> None:
    base = SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * N)
    flat = FlattenObservation(FilterObservation(SyncVectorEnv([ShortEpisodes] * N), ["pos", "t"]))
    assert flat.single_observation_space.shape == (10,)
    others = (ReshapeObservation(base, (2, 1)), DtypeObservation(base, np.float64), RescaleObservation(base, -1.0, 1.0))
    for envs in (flat, *others):
        assert envs.observation_space == batch_space(envs.single_observation_space, N)
        assert envs.observation_space.contains(envs.reset(seed=0)[0])


def test_transform_observation_derives_the_single_space() -> None:
    base = SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * N)
    batched = Box(-1.0, 1.0, shape=(N, 2), dtype=np.float32)
    envs = TransformObservation(base, np.tanh, observation_space=batched)
    assert envs.single_observation_space == Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
    dict_space = Dict({"a": MultiDiscrete([4] * N), "b": batched})
    envs = TransformObservation(base, lambda obs: obs, observation_space=dict_space)
    assert envs.single_observation_space == Dict({"a": Discrete(4), "b": Box(-1.0, 1.0, (2,), np.float32)})


def test_transform_observation_warns_when_the_spaces_disagree() -> None:
    base = SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * N)
    uneven = Box(low=np.arange(3, dtype=np.float32).reshape(3, 1), high=np.float32(5.0), shape=(3, 1), dtype=np.float32)
    with pytest.warns(UserWarning, match="(?s)TransformObservation observation_space should equal the batched single"):
        envs = TransformObservation(base, lambda obs: obs, observation_space=uneven)
    assert envs.single_observation_space == base.single_observation_space


def test_transform_observation_rejects_bad_arguments() -> None:
    base = SyncVectorEnv([ShortEpisodes] * N)
    with pytest.raises(TypeError, match="TransformObservation func must be callable, got 3"):
        TransformObservation(base, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="TransformObservation single_observation_space must be a Space or None"):
        TransformObservation(base, lambda o: o, single_observation_space=(2,))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="VectorizeTransformObservation wrapper must be a single-env Observation"):
        VectorizeTransformObservation(base, FlattenObservation)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ReshapeObservation env.observation_space must be a Box, got Dict"):
        ReshapeObservation(base, (2,))
    with pytest.raises(ValueError, match="GrayscaleObservation observation shape must be"):
        GrayscaleObservation(SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * N))


def test_observations_are_fresh_arrays() -> None:
    base = SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * N, copy=False)
    envs = VectorizeTransformObservation(
        base, SingleTransformObservation, func=lambda obs: obs + 1, observation_space=None
    )
    first, _ = envs.reset(seed=0)
    kept = first.copy()
    envs.step(np.zeros(N, dtype=np.int64))
    np.testing.assert_array_equal(first, kept)


def test_async_smoke() -> None:
    def build(lib: Lib, envs: Vec) -> Vec:
        return lib.vector_wrappers.FlattenObservation(lib.vector_wrappers.FilterObservation(envs, ["pos", "bits"]))

    assert_sync_async_agree("dict", AutoresetMode.NEXT_STEP, build, np.array([0, 1, 2]))
