"""A (possibly unbounded) box in R^n: arrays of a fixed shape and dtype between elementwise bounds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeAlias, overload

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeVar  # takes ``default`` before Python 3.13, unlike typing's

from reference import logger
from reference.spaces._array_space import ArraySpace
from reference.spaces._limits import check_array_size
from reference.spaces._box_bounds import array_short_repr, can_cast, cast_bound, dtype_limits, resolve_shape
from reference.spaces._box_sampling import SamplePlan, plan_sampling
from reference.spaces._validation import MaskError, describe
from reference.spaces.space import SpaceArg, SpaceState

__all__ = ["Box", "array_short_repr", "is_float_integer"]

_ScalarT_co = TypeVar("_ScalarT_co", bound=np.generic, covariant=True, default=Any)
_ScalarT = TypeVar("_ScalarT", bound=np.generic)
_Bound: TypeAlias = "float | np.integer[Any] | np.floating[Any] | np.bool_ | NDArray[Any]"  # ints are floats to checkers
_Seed: TypeAlias = int | np.random.Generator | None
_Shape: TypeAlias = Sequence[int | np.integer[Any]]
_Array: TypeAlias = NDArray[Any]

_MIN = np.minimum.reduce
_MAX = np.maximum.reduce



def is_float_integer(var: object) -> bool:
    """Whether ``var`` is a Python or NumPy int or float (``bool`` excluded), i.e. usable as a scalar bound.

    Args:
        var: The value.

    Returns:
        ``True`` for ``1``, ``2.5``, ``np.float32(1)``; ``False`` for ``True``, ``"1"`` or arrays.

    Example:
        >>> is_float_integer(np.int8(3)), is_float_integer(True)
        (True, False)
    """
    return isinstance(var, (int, float, np.integer, np.floating)) and not isinstance(var, bool)


class Box(ArraySpace[NDArray[_ScalarT_co]]):
    r"""The Cartesian product of n closed intervals, each ``[a, b]``, ``(-inf, b]``, ``[a, inf)`` or ``(-inf, inf)``.

    Bounds are given as scalars (broadcast to ``shape``) or as arrays of the space's shape::

        >>> Box(low=-1.0, high=2.0, shape=(3, 4), dtype=np.float32)
        Box(-1.0, 2.0, (3, 4), float32)
        >>> Box(low=np.array([-1.0, -2.0]), high=np.array([2.0, 4.0]), dtype=np.float32)
        Box([-1. -2.], [2. 4.], (2,), float32)

    Args:
        low: Lower bounds; ``-inf`` means unbounded below (clamped to the dtype minimum for signed ints).
        high: Upper bounds; ``inf`` means unbounded above (clamped to the dtype maximum for signed ints).
        shape: The element shape; inferred from array bounds, or ``(1,)`` when both bounds are scalars.
        dtype: An integer, floating or bool dtype.
        seed: Seed or generator for :meth:`sample`.

    Raises:
        TypeError: ``shape`` is not a sequence of ints, or ``dtype`` is not a dtype.
        ValueError: Bounds are NaN, outside the dtype's range, of the wrong shape or type, or ``low > high``
            somewhere; ``dtype`` is not int/float/bool; ``shape`` is past NumPy's limits (more than 32
            dimensions, more than ``2**63 - 1`` bytes) or its bounds do not fit in memory.
    """

    dtype: np.dtype[_ScalarT_co]
    low: NDArray[_ScalarT_co]
    high: NDArray[_ScalarT_co]
    bounded_below: NDArray[np.bool_]
    bounded_above: NDArray[np.bool_]
    low_repr: str | None
    high_repr: str | None
    # Derived from low/high for fast sampling and membership; rebuilt after unpickling, never pickled.
    _derived_attrs = ("_plan", "_low_scalar", "_high_scalar", "_cache_key")

    @overload
    def __init__(
        self: Box[np.float32],
        low: _Bound,
        high: _Bound,
        shape: _Shape | None = None,
        dtype: type[np.float32] | np.dtype[np.float32] = np.float32,
        seed: _Seed = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Box[_ScalarT],
        low: _Bound,
        high: _Bound,
        shape: _Shape | None = None,
        *,
        dtype: type[_ScalarT] | np.dtype[_ScalarT],
        seed: _Seed = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Box[_ScalarT],
        low: _Bound,
        high: _Bound,
        shape: _Shape | None,
        dtype: type[_ScalarT] | np.dtype[_ScalarT],
        seed: _Seed = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Box[Any],
        low: _Bound,
        high: _Bound,
        shape: _Shape | None = None,
        *,
        dtype: str,
        seed: _Seed = None,
    ) -> None: ...
    def __init__(
        self,
        low: _Bound,
        high: _Bound,
        shape: _Shape | None = None,
        dtype: Any = np.float32,
        seed: _Seed = None,
    ) -> None:
        if dtype is None:
            raise ValueError("Box dtype must be an integer, floating or bool dtype, got None")
        try:
            self.dtype = np.dtype(dtype)
        except (TypeError, ValueError):  # ValueError: a dict or list NumPy reads as a malformed structured dtype
            raise TypeError(f"Box dtype must be a numpy dtype, got {describe(dtype)}") from None
        if self.dtype.kind not in "iufb":
            raise ValueError(f"Box dtype must be an integer, floating or bool dtype, got {self.dtype}")

        self._shape = resolve_shape(low, high, shape)
        check_array_size("Box", "shape", self._shape, self.dtype.itemsize, self._shape)
        dtype_min, dtype_max = dtype_limits(self.dtype)
        try:
            self.low, self.bounded_below = cast_bound("low", low, self.dtype, self._shape, dtype_min, dtype_max)
            self.high, self.bounded_above = cast_bound("high", high, self.dtype, self._shape, dtype_min, dtype_max)
        except MemoryError:
            raise ValueError(f"Box shape must describe bounds that fit in memory, got {self._shape}") from None

        for name, bound in (("low", self.low), ("high", self.high)):
            if bound.shape != self._shape:
                raise ValueError(
                    f"Box {name} must have the space's shape {self._shape}, got {describe(bound)}; "
                    "pass a scalar to broadcast, or drop the shape argument"
                )
        low_arr: _Array = self.low
        high_arr: _Array = self.high
        bad = low_arr > high_arr
        if bad.any():
            index = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValueError(
                f"Box low must be <= high elementwise, got low={describe(self.low)} high={describe(self.high)} "
                f"(first violation at index {index}: low={self.low[index]!r} > high={self.high[index]!r})"
            )
        self.low_repr = None
        self.high_repr = None
        super().__init__(self._shape, self.dtype, seed)
        self._build_plan()

    def _build_plan(self) -> None:
        """Precompute what :meth:`sample` and :meth:`contains` need, so a call does no mask algebra."""
        # With one bound value everywhere, membership is a min/max comparison (NaN compares False either way).
        low_arr: _Array = self.low
        high_arr: _Array = self.high
        uniform = low_arr.size > 0 and low_arr.ndim > 0
        self._low_scalar = low_arr.flat[0] if uniform and bool((low_arr == low_arr.flat[0]).all()) else None
        self._high_scalar = high_arr.flat[0] if uniform and bool((high_arr == high_arr.flat[0]).all()) else None
        self._plan: SamplePlan = plan_sampling(self.low, self.high, self.bounded_below, self.bounded_above)
        # The caches follow the bound arrays they were built from; reassigning an attribute rebuilds them
        # (modifying the arrays in place is not supported).
        self._cache_key = (self.low, self.high, self.bounded_below, self.bounded_above)

    def _fresh(self) -> None:
        key = self._cache_key
        if not (
            key[0] is self.low and key[1] is self.high and key[2] is self.bounded_below and key[3] is self.bounded_above
        ):
            self._build_plan()

    def is_bounded(self, manner: Literal["both", "below", "above"] = "both") -> bool:
        """Tell whether every coordinate is bounded.

        Args:
            manner: ``"below"``, ``"above"`` or ``"both"``.

        Returns:
            Whether all coordinates are bounded in that manner.

        Raises:
            ValueError: ``manner`` is not one of the three names.
        """
        below = bool(np.all(self.bounded_below))
        above = bool(np.all(self.bounded_above))
        if manner == "both":
            return below and above
        if manner == "below":
            return below
        if manner == "above":
            return above
        raise ValueError(f"Box.is_bounded manner must be 'below', 'above' or 'both', got {describe(manner)}")

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> NDArray[_ScalarT_co]:
        r"""Draw an element: uniform on bounded coordinates, exponential on half-bounded, normal on unbounded.

        Integer boxes draw ``floor`` of a uniform on ``[low, high + 1)``.

        Args:
            mask: Not supported; must be ``None``.
            probability: Not supported; must be ``None``.

        Returns:
            A new array of the space's shape and dtype.

        Raises:
            ValueError: A mask or probability was given (also Gymnasium's ``Error``).
        """
        if mask is not None:
            raise MaskError(f"Box.sample mask must be None (Box does not support masks), got {describe(mask)}")
        if probability is not None:
            raise MaskError(
                f"Box.sample probability must be None (Box does not support probabilities), got {describe(probability)}"
            )
        rng = self._np_random
        if rng is None:
            rng = self.np_random
        self._fresh()
        return self._plan.draw(rng)

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is an array of the box's shape, castable to its dtype, within the bounds.

        Non-array input is converted (with a warning, as in Gymnasium).

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the box.
        """
        # A local of a declared type: isinstance on an object leaves pyright with ndarray[Unknown, Unknown].
        arr: _Array
        if isinstance(x, np.ndarray):
            arr = x  # pyright: ignore[reportUnknownVariableType]
        else:
            logger.warn("Casting input x to numpy array.", stacklevel=2)
            try:
                arr = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError, OverflowError):
                return False
        if arr.shape != self._shape or not can_cast(arr.dtype, self.dtype):
            return False
        self._fresh()
        low, high = self._low_scalar, self._high_scalar
        if low is not None and high is not None:
            return bool(_MIN(arr, axis=None) >= low and _MAX(arr, axis=None) <= high)
        return bool((arr >= self.low).all() and (arr <= self.high).all())

    def __repr__(self) -> str:
        if self.low_repr is None:
            self.low_repr = array_short_repr(self.low)
        if self.high_repr is None:
            self.high_repr = array_short_repr(self.high)
        return f"Box({self.low_repr}, {self.high_repr}, {self._shape}, {self.dtype})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Box):
            return False
        # Declared: pyright reads the isinstance as Box[Unknown].
        box: Box[Any] = other  # pyright: ignore[reportUnknownVariableType]
        return (
            self._shape == box.shape
            and self.dtype == box.dtype
            and bool(np.allclose(self.low, box.low))
            and bool(np.allclose(self.high, box.high))
        )

    def __setstate__(self, state: SpaceState) -> None:
        """Restore a pickled Box, including Gymnasium pickles that predate ``low_repr``/``high_repr``.

        Args:
            state: The pickled attributes.
        """
        super().__setstate__(state)
        if not hasattr(self, "low_repr"):
            self.low_repr = array_short_repr(self.low)
        if not hasattr(self, "high_repr"):
            self.high_repr = array_short_repr(self.high)
        self._build_plan()
