"""Binary (0/1) ``int8`` arrays of a fixed shape."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_array
from reference.spaces._array_space import ArraySpace
from reference.spaces._limits import check_array_size
from reference.spaces._validation import (
    both_given_error,
    check_binary_mask,
    check_probability,
    describe,
    require_mask_array,
)
from reference.spaces.space import SpaceArg

__all__ = ["MultiBinary"]

_Seed: TypeAlias = int | np.random.Generator | None
_Array: TypeAlias = NDArray[Any]
_ShapeLike: TypeAlias = "int | np.integer[Any] | Sequence[int | np.integer[Any]] | NDArray[np.integer[Any]]"


class MultiBinary(ArraySpace[NDArray[np.int8]]):
    """Arrays of zeros and ones with a fixed shape, sampled by independent fair coin flips.

    Example::

        >>> MultiBinary(5, seed=42).sample()
        array([1, 0, 1, 0, 1], dtype=int8)

    Args:
        n: The number of binary entries, or the shape (a sequence or array of positive ints).
        seed: Seed or generator for :meth:`sample`.

    Raises:
        ValueError: ``n`` is not an int or a non-empty sequence of ints, some dimension is not positive, or the
            shape is past NumPy's limits (more than 32 dimensions, more than ``2**63 - 1`` entries).
    """

    dtype: np.dtype[np.int8]
    n: int | tuple[int, ...]

    def __init__(self, n: _ShapeLike, seed: _Seed = None) -> None:
        if isinstance(n, (int, np.integer)) and not isinstance(n, bool):
            self.n = int(n)  # pyright: ignore[reportUnknownArgumentType]
            shape: tuple[int, ...] = (self.n,)
        elif isinstance(n, (Sequence, np.ndarray)) and not isinstance(n, (str, bytes)):
            dims = list(np.asarray(n).ravel()) if is_array(n) else list(n)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            if not all(isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)) for d in dims):  # pyright: ignore[reportUnknownVariableType]
                raise ValueError(f"MultiBinary n must be an int or a sequence of ints, got {describe(n)}")  # pyright: ignore[reportUnknownArgumentType]
            shape = tuple(int(d) for d in dims)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            self.n = shape
        else:
            raise ValueError(f"MultiBinary n must be an int or a sequence of ints, got {describe(n)}")
        if not shape:
            raise ValueError(f"MultiBinary n must be a positive int or a non-empty sequence of them, got {describe(n)}")  # pyright: ignore[reportUnknownArgumentType]
        if not all(d > 0 for d in shape):
            raise ValueError(f"MultiBinary n must have positive dimensions, got {self.n!r}")
        check_array_size("MultiBinary", "n", shape, 1, self.n)
        super().__init__(shape, np.int8, seed)

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> NDArray[np.int8]:
        """Draw an element by fair coin flips, or as fixed by ``mask``, or with per-entry ``probability`` of a 1.

        Args:
            mask: An ``int8`` array of the space's shape: ``0``/``1`` fix the entry, ``2`` flips a coin.
            probability: A ``float64`` array of the space's shape: the chance of each entry being ``1``.

        Returns:
            A new ``int8`` array.

        Raises:
            ValueError: Both arguments were given or one is malformed (also Gymnasium's ``Error``), or the space
                is too large for this machine's memory.
            TypeError: ``mask``/``probability`` is not an ndarray (also Gymnasium's ``Error``).
        """
        rng = self._np_random
        if rng is None:
            rng = self.np_random
        if mask is None and probability is None:
            try:
                return rng.integers(low=0, high=2, size=self._shape, dtype=np.int8)
            except MemoryError:
                raise ValueError(
                    f"MultiBinary n must describe an array that fits in memory to be sampled, got {self.n!r}"
                ) from None
        if mask is not None and probability is not None:
            raise both_given_error("MultiBinary.sample", mask, probability)
        if mask is not None:
            arr = require_mask_array("MultiBinary.sample", "mask", mask, self._shape, np.int8)
            check_binary_mask("MultiBinary.sample", arr, (0, 1, 2))
            return np.where(arr == 2, rng.integers(low=0, high=2, size=self._shape, dtype=np.int8), arr.astype(np.int8))
        arr = require_mask_array("MultiBinary.sample", "probability", probability, self._shape, np.float64)
        check_probability("MultiBinary.sample", arr, normalised=False)
        return (rng.random(size=self._shape) <= arr).astype(np.int8)

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is an array of the space's shape containing only zeros and ones.

        Lists are converted to arrays first; the dtype is not checked (as in Gymnasium).

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        arr: _Array  # declared: isinstance on an object leaves pyright with unknown type arguments
        if isinstance(x, Sequence) and not isinstance(x, (str, bytes)):
            try:
                arr = np.array(x)  # pyright: ignore[reportUnknownArgumentType]
            except (ValueError, TypeError):
                return False
        elif isinstance(x, np.ndarray):
            arr = x  # pyright: ignore[reportUnknownVariableType]
        else:
            return False
        if arr.shape != self._shape:
            return False
        if arr.dtype.kind in "iub":
            # For integers "is 0 or 1" is "between 0 and 1"; two reductions beat three elementwise passes.
            return bool(np.minimum.reduce(arr, axis=None) >= 0 and np.maximum.reduce(arr, axis=None) <= 1)
        try:
            return bool(((arr == 0) | (arr == 1)).all())
        except TypeError:
            return False

    def __repr__(self) -> str:
        return f"MultiBinary({self.n})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultiBinary) and self.n == other.n
