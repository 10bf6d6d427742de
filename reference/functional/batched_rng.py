"""A batch of independent NumPy generators that draws for all of them in one vectorised call.

Row ``i`` of a :class:`BatchedGenerator` is one ``numpy.random.Generator``; ``uniform(low, high, size=s)`` returns
an array of shape ``(len(batch), *s)`` whose row ``i`` is bit for bit what ``generators[i].uniform(low, high,
size=s)`` would have returned, and leaves each generator's stream where that call would have left it. A batched
:class:`~reference.functional.FuncEnv` can therefore draw its initial states for thousands of sub-environments in
one call and still reproduce, row by row, what single environments seeded the same way draw.

How: ``random`` and ``uniform`` consume one 53-bit double per element, so each row keeps a small buffer of
doubles drawn ahead from its generator and the batch gathers from the buffers with array indexing. Buffered but
unused doubles are given back (the stream is rewound with ``advance``) before a generator is handed out by
:meth:`BatchedGenerator.generators`, so every other distribution remains available per row, with exact streams.
Read-ahead is only done for PCG64-family bit generators (the ones that can be rewound); rows backed by other bit
generators draw exactly what is asked, one row at a time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from typing_extensions import TypeAlias

__all__ = ["BatchedGenerator", "GeneratorSource"]

GeneratorSource: TypeAlias = Callable[[int], np.random.Generator]
"""Returns the generator of row ``i``; called on first use of the row and again after it is invalidated."""

_Size: TypeAlias = "int | Sequence[int] | None"
_Floats: TypeAlias = NDArray[np.float64]
_Index: TypeAlias = NDArray[np.intp]

_REWINDABLE = (np.random.PCG64, np.random.PCG64DXSM)
# advance() works modulo the period, so advancing by period - k steps the stream back by k outputs.
_PCG_PERIOD = 2**128


def _per_row_shape(owner: str, size: _Size) -> tuple[int, ...]:
    if size is None:
        return ()
    dims = (size,) if isinstance(size, (int, np.integer)) else tuple(size)
    if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0 for d in dims):
        raise ValueError(f"BatchedGenerator {owner} size must be None, an int or a tuple of ints >= 0, got {size!r}")
    return tuple(int(d) for d in dims)


class _Streams:
    """The state every view of one batch shares: generators, read-ahead buffers and read positions."""

    def __init__(self, size: int, source: GeneratorSource, prefetch: int) -> None:
        self.size = size
        self.source = source
        self.generators: list[np.random.Generator | None] = [None] * size
        # A stale row asks `source` for its generator before its next draw.
        self.stale = np.ones(size, dtype=np.bool_)
        self.buffer: _Floats = np.empty((size, prefetch), dtype=np.float64)
        # Row r's unread doubles are buffer[r, pos[r]:end[r]]; its generator is end - pos outputs ahead.
        self.pos: _Index = np.zeros(size, dtype=np.intp)
        self.end: _Index = np.zeros(size, dtype=np.intp)
        self.all_rows: _Index = np.arange(size, dtype=np.intp)
        # False until some row is first used: invalidating rows of an unused batch has nothing to do.
        self.used = False
        self._offsets: dict[int, _Index] = {}

    def offsets(self, count: int) -> _Index:
        cached = self._offsets.get(count)
        if cached is None:
            cached = self._offsets[count] = np.arange(count, dtype=np.intp)
        return cached

    def generator(self, row: int) -> np.random.Generator:
        gen = self.generators[row]
        if gen is None or self.stale[row]:
            self.used = True
            gen = self.source(row)
            if not isinstance(gen, np.random.Generator):
                raise TypeError(
                    f"BatchedGenerator source must return a numpy.random.Generator, got {gen!r} for row {row}"
                )
            self.generators[row] = gen
            self.stale[row] = False
        return gen

    def refill(self, rows: _Index, count: int) -> None:
        """Make at least ``count`` unread doubles available in each of ``rows``."""
        capacity = self.buffer.shape[1]
        if count > capacity:
            grown = np.empty((self.size, max(count, 2 * capacity)), dtype=np.float64)
            grown[:, :capacity] = self.buffer
            self.buffer = grown
            capacity = grown.shape[1]
        buffer, pos, end = self.buffer, self.pos, self.end
        for row in rows.tolist():
            gen = self.generator(row)
            left = int(end[row] - pos[row])
            if left:
                buffer[row, :left] = buffer[row, pos[row] : end[row]]
            stop = capacity if isinstance(gen.bit_generator, _REWINDABLE) else count
            gen.random(out=buffer[row, left:stop])
            pos[row] = 0
            end[row] = stop

    def rewind(self, row: int) -> None:
        """Give the unread doubles of ``row`` back to its generator and empty the buffer."""
        left = int(self.end[row] - self.pos[row])
        self.pos[row] = self.end[row] = 0
        gen = self.generators[row]
        if left == 0 or gen is None or self.stale[row]:
            return
        bit_gen = gen.bit_generator
        if not isinstance(bit_gen, _REWINDABLE):  # never read ahead (see refill)
            return
        before = bit_gen.state
        bit_gen.advance(_PCG_PERIOD - left)
        # advance() clears the buffered 32-bit half-word, which drawing doubles never touched: restore it.
        after = bit_gen.state
        after["has_uint32"] = before["has_uint32"]
        after["uinteger"] = before["uinteger"]
        bit_gen.state = after

    def invalidate(self, rows: _Index | None) -> None:
        if not self.used:
            return
        target = slice(None) if rows is None else rows
        self.stale[target] = True
        self.pos[target] = 0
        self.end[target] = 0


class BatchedGenerator:
    """Independent per-row generators behind a ``numpy.random.Generator``-like, vectorised interface.

    The draw methods take the size of *one* row's draw and prepend the batch dimension, mirroring how a batched
    function treats its state: ``uniform(-1, 1, size=(4,))`` on a batch of ``n`` rows returns shape ``(n, 4)``.
    Only ``random`` and ``uniform`` are vectorised; for any other distribution loop over :meth:`generators`.

    Args:
        size: The number of rows.
        source: Called with a row index to get that row's generator, lazily: on the row's first draw and after
            :meth:`invalidate`. Rows can so be swapped cheaply (e.g. on reseeding) and created only when used.
        prefetch: How many doubles each row reads ahead (memory: ``8 * size * prefetch`` bytes).

    Raises:
        ValueError: If ``size`` is negative or ``prefetch`` is not positive.
    """

    def __init__(self, size: int, source: GeneratorSource, *, prefetch: int = 128) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 0:
            raise ValueError(f"BatchedGenerator size must be an int >= 0, got {size!r}")
        if isinstance(prefetch, bool) or not isinstance(prefetch, int) or prefetch <= 0:
            raise ValueError(f"BatchedGenerator prefetch must be a positive int, got {prefetch!r}")
        self._streams = _Streams(size, source, prefetch)
        self._index: _Index | None = None

    @classmethod
    def from_generators(cls, generators: Sequence[np.random.Generator], *, prefetch: int = 128) -> BatchedGenerator:
        """Batch existing generators, one row each (they are advanced in place by draws).

        Args:
            generators: The row generators.
            prefetch: How many doubles each row reads ahead.

        Returns:
            The batch.

        Raises:
            TypeError: If an item is not a ``numpy.random.Generator``.
        """
        gens = list(generators)
        for i, gen in enumerate(gens):
            if not isinstance(gen, np.random.Generator):
                raise TypeError(f"BatchedGenerator generators[{i}] must be a numpy.random.Generator, got {gen!r}")
        return cls(len(gens), gens.__getitem__, prefetch=prefetch)

    def __len__(self) -> int:
        return self._streams.size if self._index is None else len(self._index)

    def __repr__(self) -> str:
        return f"BatchedGenerator(rows={len(self)})"

    def rows(self, index: ArrayLike) -> BatchedGenerator:
        """Select some rows; the view shares streams with this batch.

        Args:
            index: A bool mask of length ``len(self)`` or distinct integer row positions.

        Returns:
            A batch of the selected rows, in the order given.

        Raises:
            IndexError: If ``index`` has the wrong shape, is out of range or repeats a row.
        """
        idx = np.asarray(index)
        n = len(self)
        if idx.dtype == np.bool_:
            if idx.shape != (n,):
                raise IndexError(f"BatchedGenerator rows mask must have shape ({n},), got shape {idx.shape}")
            idx = np.flatnonzero(idx)
        elif idx.ndim != 1 or (idx.size and not np.issubdtype(idx.dtype, np.integer)):
            raise IndexError(
                f"BatchedGenerator rows index must be a 1-D integer array or a bool mask, "
                f"got shape {idx.shape} dtype {idx.dtype}"
            )
        idx = idx.astype(np.intp, copy=False)
        if idx.size:
            if idx.min() < 0 or idx.max() >= n:
                raise IndexError(f"BatchedGenerator rows index must be in [0, {n}), got {idx.tolist()!r}")
            if idx.size > 1 and not (idx[1:] > idx[:-1]).all() and np.unique(idx).size != idx.size:
                raise IndexError(f"BatchedGenerator rows index must not repeat a row, got {idx.tolist()!r}")
        return self._select(idx)

    def _select(self, idx: _Index) -> BatchedGenerator:
        """:meth:`rows` without validation, for callers that pass distinct in-range ``intp`` positions."""
        view = object.__new__(BatchedGenerator)
        view._streams = self._streams
        view._index = idx if self._index is None else self._index[idx]
        return view

    def _draw(self, count: int) -> _Floats:
        """The next ``count`` doubles of every row, shape ``(len(self), count)``."""
        streams, idx = self._streams, self._index
        if count == 0:
            return np.empty((len(self), 0), dtype=np.float64)
        if idx is None:
            idx = streams.all_rows
        pos = streams.pos[idx]
        short = streams.end[idx] - pos < count
        if np.count_nonzero(short):
            streams.refill(idx[short], count)
            pos = streams.pos[idx]
        # One flat gather: row r's next doubles sit at r * capacity + pos[r] + (0 .. count-1).
        start = idx * streams.buffer.shape[1]
        start += pos
        # NumPy's stubs leave take() with an index array unknown; the result is the buffer's float64.
        out: _Floats = streams.buffer.ravel().take(start[:, None] + streams.offsets(count))  # pyright: ignore[reportUnknownVariableType]
        pos += count
        streams.pos[idx] = pos
        return out  # pyright: ignore[reportUnknownVariableType]

    def random(self, size: _Size = None, dtype: type[np.float64] = np.float64) -> _Floats:
        """Uniform doubles in ``[0, 1)``, like ``Generator.random`` per row.

        Args:
            size: The shape of one row's draw (``None``: a scalar per row).
            dtype: Only ``numpy.float64`` (float32 draws use a different stream consumption).

        Returns:
            An array of shape ``(len(self), *size)``.

        Raises:
            ValueError: If ``size`` or ``dtype`` is invalid.
        """
        if np.dtype(dtype) != np.float64:
            raise ValueError(f"BatchedGenerator random dtype must be float64, got {dtype!r}")
        shape = _per_row_shape("random", size)
        return self._draw(math.prod(shape)).reshape((len(self), *shape))

    def uniform(self, low: float | ArrayLike = 0.0, high: float | ArrayLike = 1.0, size: _Size = None) -> _Floats:
        """Uniform draws in ``[low, high)``, like ``Generator.uniform`` per row (same bits, same stream use).

        Args:
            low: Lower bound(s), broadcast against one row's draw.
            high: Upper bound(s), broadcast against one row's draw.
            size: The shape of one row's draw (``None``: the broadcast shape of ``low`` and ``high``).

        Returns:
            An array of shape ``(len(self), *size)``.

        Raises:
            ValueError: If the bounds do not broadcast to ``size``, or ``high - low`` is negative or not finite
                (``Generator.uniform`` rejects both).
        """
        if isinstance(low, (int, float)) and isinstance(high, (int, float)) and size is not None:
            # Scalar bounds: Generator.uniform computes high - low in C doubles, as Python floats do.
            lo_f, span_f = float(low), float(high) - float(low)
            if not 0.0 <= span_f < math.inf:
                raise ValueError(
                    f"BatchedGenerator uniform high - low must be finite and >= 0, got low={low!r} high={high!r}"
                )
            shape = _per_row_shape("uniform", size)
            scalar_out = self._draw(math.prod(shape)).reshape((len(self), *shape))
            scalar_out *= span_f
            scalar_out += lo_f
            return scalar_out
        lo = np.asarray(low, dtype=np.float64)
        span = np.asarray(high, dtype=np.float64) - lo
        if not ((span >= 0) & (span < np.inf)).all():
            raise ValueError(
                f"BatchedGenerator uniform high - low must be finite and >= 0, got low={low!r} high={high!r}"
            )
        if size is None:
            shape = np.broadcast_shapes(lo.shape, span.shape)
        else:
            shape = _per_row_shape("uniform", size)
            try:
                broadcast = np.broadcast_shapes(lo.shape, span.shape, shape)
            except ValueError:
                broadcast = None
            if broadcast != shape:
                raise ValueError(
                    f"BatchedGenerator uniform low and high must broadcast to size {shape}, "
                    f"got shapes {lo.shape} and {np.shape(high)}"
                )
        out = self._draw(math.prod(shape)).reshape((len(self), *shape))
        # Generator.uniform computes low + (high - low) * u with the same double operations.
        out *= span
        out += lo
        return out

    def generators(self) -> list[np.random.Generator]:
        """The row generators, positioned exactly after everything this batch has returned so far.

        Returns:
            One generator per row, in row order; drawing from them directly continues each row's stream.
        """
        streams = self._streams
        rows = range(streams.size) if self._index is None else self._index.tolist()
        gens: list[np.random.Generator] = []
        for row in rows:
            streams.rewind(row)
            gens.append(streams.generator(row))
        return gens

    def invalidate(self) -> None:
        """Forget the generators of these rows (unread buffered doubles are dropped, not given back).

        The next draw asks the source again, which is how a row gets a new generator after reseeding.
        """
        self._streams.invalidate(self._index)
