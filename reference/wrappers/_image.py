"""Image resizing with OpenCV's area interpolation, with or without OpenCV.

Gymnasium resizes with ``cv2.resize(..., interpolation=cv2.INTER_AREA)``; so does :func:`resize_image` when
OpenCV is installed (``pip install "gymspec[other]"``), giving identical pixels. Without it, the same
interpolation is computed with NumPy: area averaging when shrinking both axes, OpenCV's ``INTER_AREA`` linear
weights otherwise. The two agree to within one grey level (OpenCV rounds in fixed point).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference.utils._optional import import_optional, is_installed

__all__ = ["resize_image"]

_Array: TypeAlias = "np.ndarray[Any, Any]"


def _area_weights(source: int, target: int) -> _Array:
    """``(target, source)`` weights averaging the source pixels each target pixel covers (shrinking)."""
    scale = source / target
    starts = np.arange(target) * scale
    edges = np.arange(source + 1, dtype=np.float64)
    # Overlap of target pixel j's interval [j*scale, (j+1)*scale) with source pixel i's [i, i+1).
    low = np.maximum(starts[:, None], edges[None, :-1])
    high = np.minimum(starts[:, None] + scale, edges[None, 1:])
    weights: _Array = np.clip(high - low, 0.0, None) / scale
    return weights


def _linear_weights(source: int, target: int) -> _Array:
    """``(target, source)`` weights of OpenCV's ``INTER_AREA`` when an axis is not shrunk together with the other.

    Each target pixel copies the source pixel it starts in, blending with the next one only across a boundary.
    """
    # OpenCV derives the scale from the inverse ratio and rounds the fraction to float32; so must we, or a
    # source index computed as 12.999... here and 13.0 there picks a different pixel.
    inverse = target / source
    scale = 1.0 / inverse
    weights = np.zeros((target, source))
    for index in range(target):
        start = int(np.floor(index * scale))
        fraction = float(np.float32((index + 1) - (start + 1) * inverse))
        fraction = 0.0 if fraction <= 0 else fraction - np.floor(fraction)
        weights[index, min(start, source - 1)] += 1.0 - fraction
        weights[index, min(start + 1, source - 1)] += fraction
    return weights


def _numpy_resize(image: _Array, height: int, width: int) -> _Array:
    source_height, source_width = image.shape[:2]
    shrinking = source_height >= height and source_width >= width
    weights = _area_weights if shrinking else _linear_weights
    rows, cols = weights(source_height, height), weights(source_width, width)
    # Two matrix products (rows, then columns); a three-operand einsum would loop over every index at once.
    by_rows = np.tensordot(rows, image.astype(np.float64), axes=(1, 0))  # (height, source_width, ...)
    resized: _Array = np.moveaxis(np.tensordot(cols, by_rows, axes=(1, 1)), 0, 1)  # (height, width, ...)
    result: _Array = np.clip(np.rint(resized), 0, 255).astype(np.uint8)
    return result


def resize_image(image: _Array, shape: tuple[int, int]) -> _Array:
    """Resize a uint8 ``(H, W)`` or ``(H, W, C)`` image to ``shape = (height, width)`` (area interpolation).

    Args:
        image: The image.
        shape: The new ``(height, width)``.

    Returns:
        The resized uint8 image, ``shape + image.shape[2:]``.

    Example:
        >>> import numpy as np
        >>> resize_image(np.array([[0, 100], [200, 255]], dtype=np.uint8), (1, 1)).tolist()
        [[139]]
    """
    height, width = shape
    if is_installed("cv2"):
        cv2 = import_optional("cv2", "resize_image")
        resized: _Array = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
        # OpenCV drops a trailing channel axis of size 1; the space keeps it.
        reshaped: _Array = resized.reshape((height, width) + image.shape[2:])
        return reshaped
    return _numpy_resize(image, height, width)
