"""Tests for ResizeObservation and its image resize (OpenCV when installed, NumPy otherwise)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from reference.spaces import Box
from reference.vector import SyncVectorEnv
from reference.wrappers import ResizeObservation, TransformObservation
from reference.wrappers import _image
from reference.wrappers import vector as vector_wrappers
from tests.reference.wrappers._envs import BoxEnv

_SIZES = st.integers(1, 40)


def _images() -> st.SearchStrategy[np.ndarray[Any, Any]]:
    shapes = st.tuples(_SIZES, _SIZES) | st.tuples(_SIZES, _SIZES, st.sampled_from([1, 3]))
    return shapes.flatmap(lambda shape: hnp.arrays(np.uint8, shape))


def _image_env(shape: tuple[int, ...], seed: int = 0) -> TransformObservation[Any, Any, Any]:
    rng = np.random.default_rng(seed)
    space = Box(0, 255, shape, dtype=np.uint8)
    return TransformObservation(BoxEnv(length=50), lambda _: rng.integers(0, 256, shape, dtype=np.uint8), space)


@settings(max_examples=60, deadline=None)
@given(image=_images(), height=_SIZES, width=_SIZES)
def test_numpy_resize_is_opencvs_area_interpolation(image: np.ndarray[Any, Any], height: int, width: int) -> None:
    cv2 = pytest.importorskip("cv2")
    expected = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    expected = expected.reshape((height, width) + image.shape[2:])
    ours = _image._numpy_resize(image, height, width)
    assert ours.shape == expected.shape and ours.dtype == np.uint8
    assert int(np.abs(ours.astype(int) - expected.astype(int)).max()) <= 1


@settings(max_examples=30, deadline=None)
@given(image=_images(), height=_SIZES, width=_SIZES)
def test_resize_keeps_shape_dtype_and_range(image: np.ndarray[Any, Any], height: int, width: int) -> None:
    resized = _image.resize_image(image, (height, width))
    assert resized.shape == (height, width) + image.shape[2:] and resized.dtype == np.uint8
    if image.size:
        assert image.min() <= resized.min() and resized.max() <= image.max()  # an average never leaves the range


def test_constant_and_integer_factor_images_resize_exactly() -> None:
    image = np.full((8, 6, 3), 77, np.uint8)
    assert np.all(_image._numpy_resize(image, 3, 5) == 77)
    blocks = np.kron(np.array([[0, 100], [200, 255]], dtype=np.uint8), np.ones((2, 2), np.uint8))
    np.testing.assert_array_equal(_image._numpy_resize(blocks, 2, 2), [[0, 100], [200, 255]])


@pytest.mark.parametrize("shape", [(60, 60, 3), (60, 40), (33, 50, 1)])
def test_resize_observation_matches_gymnasium(shape: tuple[int, ...]) -> None:
    pytest.importorskip("cv2")
    gym_wrappers = pytest.importorskip("gymnasium.wrappers")
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    from gymnasium.envs.classic_control import CartPoleEnv as GymCartPole

    ours = ResizeObservation(_image_env(shape), (25, 30))
    rng = np.random.default_rng(0)
    inner = gym_wrappers.TransformObservation(
        GymCartPole(),
        lambda _: rng.integers(0, 256, shape, dtype=np.uint8),
        gym_spaces.Box(0, 255, shape, dtype=np.uint8),
    )
    theirs = gym_wrappers.ResizeObservation(inner, (25, 30))
    assert repr(ours.observation_space) == repr(theirs.observation_space)
    np.testing.assert_array_equal(ours.reset(seed=0)[0], theirs.reset(seed=0)[0])
    for _ in range(3):
        np.testing.assert_array_equal(ours.step(np.zeros(2, np.float32))[0], theirs.step(0)[0])


def test_resize_observation_without_opencv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_image, "is_installed", lambda module: False)
    env = ResizeObservation(_image_env((40, 30, 3)), (20, 15))
    obs, _ = env.reset(seed=0)
    assert obs.shape == (20, 15, 3) and obs in env.observation_space


def test_vector_resize_observation() -> None:
    envs = vector_wrappers.ResizeObservation(SyncVectorEnv([lambda: _image_env((16, 12, 3))] * 2), (8, 6))
    assert envs.single_observation_space == Box(0, 255, (8, 6, 3), dtype=np.uint8)
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (2, 8, 6, 3) and obs in envs.observation_space
    envs.close()


@pytest.mark.parametrize(
    ("space", "shape", "error", "match"),
    [
        (Box(0.0, 1.0, (4,)), (2, 2), ValueError, r"\(H, W\) or \(H, W, C\)"),
        (Box(0, 255, (4, 4), dtype=np.int16), (2, 2), ValueError, "uint8 with bounds 0..255"),
        (Box(0, 255, (4, 4), dtype=np.uint8), [2, 2], TypeError, "must be a tuple"),
        (Box(0, 255, (4, 4), dtype=np.uint8), (2,), ValueError, "two elements"),
        (Box(0, 255, (4, 4), dtype=np.uint8), (2, 2.0), TypeError, "must hold ints"),
        (Box(0, 255, (4, 4), dtype=np.uint8), (2, 0), ValueError, "positive ints"),
    ],
)
def test_resize_observation_validates(space: Box[Any], shape: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        ResizeObservation(TransformObservation(BoxEnv(), lambda o: o, space), shape)
