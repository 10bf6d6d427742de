"""Uniform grids over a bounded Box, shared by ``DiscretizeObservation`` and ``DiscretizeAction``.

A :class:`BoxGrid` splits every dimension of a finite Box into ``bins`` equal cells and numbers the cells either
per dimension (``MultiDiscrete``) or as one flat index, row-major with the first dimension most significant
(``Discrete``), exactly as Gymnasium's wrappers do.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference._framework import require_bool
from reference._narrowing import is_array, is_list_or_tuple
from reference.spaces._guards import is_box
from reference.spaces.discrete import Discrete
from reference.spaces.multi_discrete import MultiDiscrete
from reference.wrappers._shared import is_int

__all__ = ["BoxGrid"]

_Array: TypeAlias = "np.ndarray[Any, Any]"
_Bins: TypeAlias = Any
_MAX_BINS = 2**24


class BoxGrid:
    """The cells of a finite Box, ``bins`` per dimension.

    Args:
        owner: The wrapper, for messages.
        space: The Box to discretise.
        role: ``"observation"`` or ``"action"``, for messages.
        bins: Cells per dimension: one int for every dimension, or a tuple with one per dimension.
        multidiscrete: Number cells per dimension (``MultiDiscrete``) instead of with one flat index.

    Raises:
        TypeError: If the space is not a Box or ``bins`` holds non-integers.
        ValueError: If the Box is unbounded, or ``bins`` has the wrong length or a count below 1 or above 2**24.
    """

    def __init__(self, owner: str, space: object, role: str, bins: _Bins, multidiscrete: bool) -> None:
        require_bool(owner, multidiscrete=multidiscrete)
        if not is_box(space):
            raise TypeError(f"{owner} env.{role}_space must be a Box, got {type(space).__name__}")
        self.low: _Array = np.ravel(space.low)
        self.high: _Array = np.ravel(space.high)
        self.n_dims = int(self.low.size)
        if not (np.all(np.isfinite(self.low)) and np.all(np.isfinite(self.high))):
            raise ValueError(
                f"{owner} env.{role}_space must be bounded (finite low and high), got low={self.low} high={self.high}"
            )
        counts: list[_Bins]
        if is_int(bins):
            counts = [bins] * self.n_dims
        elif is_list_or_tuple(bins) or is_array(bins):
            try:
                counts = list(np.ravel(bins))
            except ValueError:  # a ragged sequence
                raise TypeError(f"{owner} bins must be an int or a tuple of ints, got {bins!r}") from None
        else:
            raise TypeError(f"{owner} bins must be an int or a tuple of ints, got {bins!r}")
        if len(counts) != self.n_dims:
            raise ValueError(f"{owner} bins must have one count per dimension ({self.n_dims}), got {bins!r}")
        if not all(is_int(count) for count in counts):
            raise TypeError(f"{owner} bins must be an int or a tuple of ints, got {bins!r}")
        if not all(count >= 1 for count in counts):
            raise ValueError(f"{owner} bins must be at least 1, got {bins!r}")
        if not all(count <= _MAX_BINS for count in counts):
            # Every cell edge is stored: a larger count would fill memory (or fail to allocate) building the grid.
            raise ValueError(f"{owner} bins must be at most {_MAX_BINS} (2**24) per dimension, got {bins!r}")
        self.bins: _Array = np.array(counts, dtype=np.int64)
        self.multidiscrete = multidiscrete
        self.edges: list[_Array] = [np.linspace(self.low[i], self.high[i], self.bins[i] + 1) for i in range(self.n_dims)]
        self.space: Discrete | MultiDiscrete = (
            MultiDiscrete(self.bins) if multidiscrete else Discrete(int(np.prod(self.bins)))
        )

    def cell_of(self, value: _Array) -> _Array:
        """The cell indices (one per dimension) holding ``value``; values outside the Box go to the edge cells."""
        # The 1e-8 margin keeps a value equal to ``high`` in the last cell, as Gymnasium does.
        clipped = np.clip(np.ravel(value), self.low, self.high - 1e-8)
        return np.array([np.digitize(clipped[i], self.edges[i][1:-1]) for i in range(self.n_dims)], dtype=np.int64)

    def encode(self, cells: _Array) -> int | _Array:
        """Cell indices as the wrapper's space element: an int64 array, or one Python int."""
        if self.multidiscrete:
            return cells
        return int(np.ravel_multi_index(tuple(cells), tuple(self.bins)))

    def decode(self, element: int | np.integer[Any] | _Array) -> _Array:
        """A space element (flat index or per-dimension indices) as cell indices, clipped into the grid."""
        if self.multidiscrete:
            cells = np.ravel(np.asarray(element, dtype=np.int64))
        else:
            cells = np.array(np.unravel_index(int(element) % int(np.prod(self.bins)), tuple(self.bins)), dtype=np.int64)
        return np.clip(cells, 0, self.bins - 1)

    def centres_of(self, dim: int) -> _Array:
        """Every cell centre along dimension ``dim``."""
        edges = self.edges[dim]
        return (edges[:-1] + edges[1:]) / 2

    def centres(self, cells: _Array) -> _Array:
        """The centre of each cell (one value per dimension)."""
        return np.array([(self.edges[i][c] + self.edges[i][c + 1]) / 2 for i, c in enumerate(cells)])

    def bounds(self, cells: _Array) -> tuple[_Array, _Array]:
        """The lower and upper edges of each cell (one value per dimension)."""
        lows = np.array([self.edges[i][c] for i, c in enumerate(cells)])
        highs = np.array([self.edges[i][c + 1] for i, c in enumerate(cells)])
        return lows, highs
