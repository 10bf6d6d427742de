"""Vectorised arithmetic that rounds exactly like NumPy *scalar* arithmetic.

Class-based environments compute with NumPy scalars, and ``scalar ** 2`` calls the C library's ``pow``/``powf``,
which rounds differently from the correctly rounded ``x * x`` that array ``** 2`` computes in roughly one case in
a thousand. Functional environments compute on arrays but must reproduce those bits, hence :func:`scalar_square`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

__all__ = ["scalar_square"]

_Array: TypeAlias = NDArray[Any]
_Scalar: TypeAlias = Any

# libm's powf(x, 2) is off by far less than this (in ULPs) before its final rounding, so wherever x² lies
# further than this from a rounding midpoint, powf and the correctly rounded square agree.
_MARGIN = 1.0 / 32.0


def scalar_square(x: _Array | _Scalar) -> _Array | _Scalar:
    """Elementwise ``x ** 2`` with the rounding of NumPy scalar power (one result per element of ``x``).

    float64 goes through ``numpy.float_power``, whose loop calls ``pow`` for every element exactly as scalar
    power does. float32 has no such loop (array power is SIMD code with its own rounding), so the correctly
    rounded square is computed and only the elements whose exact square lies near a rounding midpoint, where
    ``powf`` may round the other way, are recomputed as scalars.

    Args:
        x: A NumPy scalar or array.

    Returns:
        A scalar for a scalar or 0-d input, else a new array of ``x``'s shape and dtype.
    """
    arr = np.asarray(x)
    if arr.ndim == 0:
        return arr[()] ** 2
    if arr.dtype == np.float64:
        return np.float_power(arr, 2.0)
    square = arr * arr
    if arr.dtype != np.float32:
        return square
    exact = arr.astype(np.float64)
    exact *= exact  # exact: a float32 has 24 significant bits, so its square fits in float64's 53
    error = np.abs(exact - square)
    # The finer of the two float32 spacings around the square (they differ at powers of two).
    ulp = np.spacing(np.nextafter(np.abs(square), np.float32(0))).astype(np.float64)
    hard = ~(error < (0.5 - _MARGIN) * ulp)  # also catches inf/nan
    if hard.any():
        flat_square, flat_x = square.reshape(-1), arr.reshape(-1)
        for i in np.flatnonzero(hard.reshape(-1)).tolist():
            flat_square[i] = flat_x[i] ** 2
    return square
