"""Gallery frames: valid PNG files of what was drawn, shrunk to a thumbnail, depth frames as gray images."""

from __future__ import annotations

import io
import os
from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from conformance._engine.gallery import _image, encode_png  # pyright: ignore[reportPrivateUsage]

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _decode(data: bytes) -> np.ndarray[Any, np.dtype[np.uint8]]:
    import pygame

    surface = pygame.image.load(io.BytesIO(data), "frame.png")
    return np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2)).astype(np.uint8)


@given(arrays(np.uint8, st.tuples(st.integers(1, 12), st.integers(1, 12), st.just(3))))
def test_png_round_trip(image: np.ndarray[Any, np.dtype[np.uint8]]) -> None:
    assert np.array_equal(_decode(encode_png(np.ascontiguousarray(image))), image)


def test_large_frames_are_thumbnails_and_depth_is_gray() -> None:
    big = _image(np.zeros((1000, 600, 3), np.uint8), "rgb_array")
    assert big is not None and max(big.shape[:2]) <= 240
    depth = _image(np.array([[0.0, 1.0], [np.nan, 2.0]]), "depth_array")
    assert depth is not None and depth.shape == (2, 2, 3) and depth.dtype == np.uint8
    assert depth[0, 0, 0] == 0 and depth[1, 1, 0] == 255
    assert _image(np.zeros((4, 4), np.float32), "rgb_array") is None  # not an rgb frame: not shown
    assert _image("text", "rgb_array") is None
