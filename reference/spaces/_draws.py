"""Pre-drawn ``Generator.integers`` values for spaces whose generator nobody else can see.

``Generator.integers`` costs microseconds per scalar call, mostly argument handling. For 32- and 64-bit dtypes,
``integers(lo, hi, size=k)`` draws exactly the values (and leaves exactly the generator state) of ``k`` scalar
calls, so a space can draw a batch ahead and hand values out one by one -- as long as nothing else reads the
generator in between. The owner therefore only uses a buffer while its generator is private (created by its own
``seed``), and calls :meth:`DrawBuffer.rewind` before anyone else may touch the generator, which puts the
generator in precisely the state the scalar calls would have left.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import numpy as np

__all__ = ["DrawBuffer", "supports_batching"]

_Scalar: TypeAlias = Any
_State: TypeAlias = Mapping[str, Any]

_FIRST_BATCH = 8
_MAX_BATCH = 512


def supports_batching(dtype: np.dtype[Any]) -> bool:
    """Tell whether batched ``integers`` draws equal scalar draws for ``dtype``.

    Args:
        dtype: The integer dtype.

    Returns:
        ``True`` for 32- and 64-bit integers (8- and 16-bit draws share 32-bit words within one call).
    """
    return dtype.kind in "iu" and dtype.itemsize >= 4


class DrawBuffer:
    """Values of ``rng.integers(lo, hi, dtype=dtype)`` drawn ahead in growing batches.

    Args:
        rng: The private generator.
        lo: Inclusive lower bound.
        hi: Exclusive upper bound.
        dtype: The scalar type of the values (32 or 64 bits wide).
    """

    __slots__ = ("_batch", "_dtype", "_hi", "_lo", "_pos", "_rng", "_snapshot", "_values")

    def __init__(self, rng: np.random.Generator, lo: int, hi: int, dtype: type[np.integer[Any]]) -> None:
        self._rng = rng
        self._lo = lo
        self._hi = hi
        self._dtype = dtype
        self._values: list[_Scalar] = []
        self._pos = 0
        self._snapshot: _State | None = None
        # Start small so a space that is sampled once and then exposed wastes little; grow for long runs.
        self._batch = _FIRST_BATCH

    def next(self) -> _Scalar:
        """Return the next value, drawing a new batch when the current one is used up.

        Returns:
            A NumPy integer scalar, as ``integers`` returns.
        """
        pos = self._pos
        values = self._values
        if pos == len(values):
            self._snapshot = self._rng.bit_generator.state
            values = self._values = list(self._rng.integers(self._lo, self._hi, size=self._batch, dtype=self._dtype))
            self._batch = min(self._batch * 2, _MAX_BATCH)
            pos = 0
        self._pos = pos + 1
        return values[pos]

    def rewind(self) -> None:
        """Return the generator to the state the values handed out so far would have left, and empty the buffer."""
        if self._snapshot is not None:
            self._rng.bit_generator.state = self._snapshot
            if self._pos:
                self._rng.integers(self._lo, self._hi, size=self._pos, dtype=self._dtype)
        self._snapshot = None
        self._values = []
        self._pos = 0
