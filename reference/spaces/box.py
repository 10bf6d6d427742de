"""A (possibly unbounded) box in R^n: arrays of a fixed shape and dtype between elementwise bounds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, cast, overload

import numpy as np
from numpy.typing import NDArray

from reference import logger
from reference.spaces._box_sampling import SamplePlan, plan_sampling
from reference.spaces._validation import MaskError, describe
from reference.spaces.space import Jsonable, Space, SpaceArg, SpaceState

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    _ScalarT_co = TypeVar("_ScalarT_co", bound=np.generic, covariant=True, default=Any)
else:
    from typing import TypeVar

    _ScalarT_co = TypeVar("_ScalarT_co", bound=np.generic, covariant=True)

__all__ = ["Box", "array_short_repr", "can_cast"]

_ScalarT = TypeVar("_ScalarT", bound=np.generic)
_Bound: TypeAlias = Any  # a Python/NumPy int or float, or an int/float/bool ndarray
_Seed: TypeAlias = int | np.random.Generator | None
_Shape: TypeAlias = Sequence[int | np.integer[Any]]
_Array: TypeAlias = NDArray[Any]

# Attributes derived from low/high for fast sampling and membership; rebuilt after unpickling, never pickled.
_CACHE_ATTRS = ("_plan", "_low_scalar", "_high_scalar", "_cache_key")

# np.can_cast(from, to) answers, memoised: the call dominates ``contains`` for small boxes.
_CAN_CAST: dict[tuple[np.dtype[Any], np.dtype[Any]], bool] = {}
_MIN = np.minimum.reduce
_MAX = np.maximum.reduce


def can_cast(from_dtype: np.dtype[Any], to_dtype: np.dtype[Any]) -> bool:
    """Memoised :func:`numpy.can_cast` for dtypes.

    Args:
        from_dtype: The source dtype.
        to_dtype: The target dtype.

    Returns:
        Whether the cast is safe.
    """
    key = (from_dtype, to_dtype)
    answer = _CAN_CAST.get(key)
    if answer is None:
        if len(_CAN_CAST) > 1024:
            _CAN_CAST.clear()
        answer = _CAN_CAST[key] = bool(np.can_cast(from_dtype, to_dtype))
    return answer


def array_short_repr(arr: _Array) -> str:
    """Show ``arr`` as a single number when all its entries are equal, else as the array.

    Args:
        arr: The bound to show.

    Returns:
        The short form used by ``Box.__repr__``.
    """
    if arr.size != 0 and np.min(arr) == np.max(arr):
        return str(np.min(arr))
    return str(arr)


def _is_scalar_bound(value: object) -> bool:
    # bool is excluded on purpose: Box(low=True, ...) is almost certainly a mistake, and Gymnasium rejects it too.
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _dtype_limits(dtype: np.dtype[Any]) -> tuple[float, float]:
    if dtype.kind == "b":
        return 0, 1
    if dtype.kind == "f":
        finfo = np.finfo(dtype)
        return float(finfo.min), float(finfo.max)
    iinfo = np.iinfo(dtype)
    return int(iinfo.min), int(iinfo.max)


class Box(Space[NDArray[_ScalarT_co]]):
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
            somewhere; ``dtype`` is not int/float/bool.
    """

    dtype: np.dtype[_ScalarT_co]
    _shape: tuple[int, ...]
    low: NDArray[_ScalarT_co]
    high: NDArray[_ScalarT_co]
    bounded_below: NDArray[np.bool_]
    bounded_above: NDArray[np.bool_]
    low_repr: str | None
    high_repr: str | None

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
        except TypeError:
            raise TypeError(f"Box dtype must be a numpy dtype, got {describe(dtype)}") from None
        if self.dtype.kind not in "iufb":
            raise ValueError(f"Box dtype must be an integer, floating or bool dtype, got {self.dtype}")

        self._shape = self._resolve_shape(low, high, shape)
        dtype_min, dtype_max = _dtype_limits(self.dtype)
        self.low, self.bounded_below = self._cast_bound("low", low, dtype_min, dtype_max)
        self.high, self.bounded_above = self._cast_bound("high", high, dtype_min, dtype_max)

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

    @staticmethod
    def _resolve_shape(low: _Bound, high: _Bound, shape: _Shape | None) -> tuple[int, ...]:
        if shape is not None:
            if isinstance(shape, (str, bytes)) or not isinstance(shape, Iterable):
                raise TypeError(f"Box shape must be a sequence of ints, got {describe(shape)}")
            dims = tuple(shape)
            if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
                raise TypeError(f"Box shape must be a sequence of ints, got {describe(shape)}")
            if any(d < 0 for d in dims):
                raise ValueError(f"Box shape must have non-negative dimensions, got {describe(shape)}")
            return tuple(int(d) for d in dims)
        if isinstance(low, np.ndarray) and isinstance(high, np.ndarray):
            if low.shape != high.shape:
                raise ValueError(
                    f"Box low and high must have the same shape when shape is omitted, "
                    f"got low={describe(low)} high={describe(high)}"
                )
            return tuple(int(d) for d in low.shape)
        if isinstance(low, np.ndarray):
            return tuple(int(d) for d in low.shape)
        if isinstance(high, np.ndarray):
            return tuple(int(d) for d in high.shape)
        if _is_scalar_bound(low) and _is_scalar_bound(high):
            return (1,)
        raise ValueError(
            f"Box low and high must be ints, floats or numpy arrays (to infer the shape), "
            f"got low={describe(low)} high={describe(high)}"
        )

    def _cast_bound(
        self, name: Literal["low", "high"], value: _Bound, dtype_min: float, dtype_max: float
    ) -> tuple[_Array, NDArray[np.bool_]]:
        """Convert a user bound to an owned array of the space's dtype, plus its boundedness mask."""
        kind = self.dtype.kind
        # The infinity that means "unbounded" on this side; the other infinity is never a valid bound.
        inf = -np.inf if name == "low" else np.inf
        limit = dtype_min if name == "low" else dtype_max
        if _is_scalar_bound(value):
            if np.isnan(value):
                raise ValueError(f"Box {name} must not be NaN, got {value!r}")
            bounded = np.full(self._shape, value != inf)
            if value == inf:
                if kind in "ub":
                    raise ValueError(
                        f"Box {name} must be finite for dtype {self.dtype}, got {value!r}; "
                        "unsigned and bool boxes cannot be unbounded"
                    )
                if kind == "i":
                    value = limit
            elif not dtype_min <= value <= dtype_max and (kind != "f" or np.isfinite(value)):
                raise ValueError(
                    f"Box {name} must be within the range of {self.dtype} [{dtype_min}, {dtype_max}], got {value!r}"
                )
            return np.full(self._shape, value, dtype=self.dtype), bounded

        if not isinstance(value, np.ndarray):
            raise ValueError(f"Box {name} must be an int, float or numpy array, got {describe(value)}")
        if value.dtype.kind not in "fiub":
            raise ValueError(f"Box {name} must have an integer, floating or bool dtype, got {describe(value)}")
        if value.dtype.kind == "f" and np.isnan(value).any():
            raise ValueError(f"Box {name} must not contain NaN, got {describe(value)}")
        bounded = value != inf
        unbounded = ~bounded
        any_unbounded = bool(unbounded.any())
        if any_unbounded and kind in "ub":
            raise ValueError(
                f"Box {name} must be finite for dtype {self.dtype}, got {describe(value)} containing {inf}; "
                "unsigned and bool boxes cannot be unbounded"
            )
        finite_mask = np.isfinite(value) if value.dtype.kind == "f" else None
        if kind != "f" and finite_mask is not None and not bool((finite_mask | unbounded).all()):
            raise ValueError(f"Box {name} must not contain {-inf} for dtype {self.dtype}, got {describe(value)}")
        if value.dtype != self.dtype:
            finite = value[finite_mask] if finite_mask is not None else value
            if finite.size and (finite.min() < dtype_min or finite.max() > dtype_max):
                raise ValueError(
                    f"Box {name} must be within the range of {self.dtype} [{dtype_min}, {dtype_max}], "
                    f"got {describe(value)} with values in [{finite.min()!r}, {finite.max()!r}]"
                )
            own_precision = np.finfo(cast("np.dtype[np.floating[Any]]", self.dtype)).precision if kind == "f" else 0
            if value.dtype.kind == "f" and kind == "f" and own_precision < np.finfo(value.dtype).precision:
                logger.warn(
                    f"Box {name}'s precision lowered by casting to {self.dtype}, current {name}.dtype={value.dtype}",
                    stacklevel=3,
                )
        if any_unbounded and kind == "i":
            # Cast the finite entries, then store the limit exactly in the integer result (through float64,
            # 2**63 - 1 would round up and overflow). Both steps make new arrays: the caller's is untouched.
            ints = np.where(unbounded, 0, value).astype(self.dtype)
            ints[unbounded] = limit
            return ints, bounded
        return value.astype(self.dtype), bounded

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

    @property
    def shape(self) -> tuple[int, ...]:
        """The element shape (never ``None`` for a Box)."""
        return self._shape

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Always ``True``."""
        return True

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
        if not isinstance(x, np.ndarray):
            logger.warn("Casting input x to numpy array.", stacklevel=2)
            try:
                x = np.asarray(x, dtype=self.dtype)
            except (ValueError, TypeError, OverflowError):
                return False
        if x.shape != self._shape or not can_cast(x.dtype, self.dtype):
            return False
        self._fresh()
        low, high = self._low_scalar, self._high_scalar
        if low is not None and high is not None:
            return bool(_MIN(x, axis=None) >= low and _MAX(x, axis=None) <= high)
        return bool((x >= self.low).all() and (x <= self.high).all())

    def to_jsonable(self, sample_n: Sequence[Any]) -> Jsonable:
        """Convert arrays to nested lists.

        Args:
            sample_n: Elements of the box.

        Returns:
            One nested list per element.
        """
        return [np.asarray(sample).tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: Jsonable) -> list[NDArray[_ScalarT_co]]:
        """Convert nested lists back to arrays of the box's dtype.

        Args:
            sample_n: The output of :meth:`to_jsonable`.

        Returns:
            One array per element.
        """
        return [np.asarray(sample, dtype=self.dtype) for sample in sample_n]

    def __repr__(self) -> str:
        if self.low_repr is None:
            self.low_repr = array_short_repr(self.low)
        if self.high_repr is None:
            self.high_repr = array_short_repr(self.high)
        return f"Box({self.low_repr}, {self.high_repr}, {self._shape}, {self.dtype})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Box)
            and self._shape == other.shape
            and self.dtype == other.dtype
            and bool(np.allclose(self.low, other.low))
            and bool(np.allclose(self.high, other.high))
        )

    def __getstate__(self) -> dict[str, Any]:
        """Return the attributes to pickle, without the derived sampling caches."""
        state = self.__dict__.copy()
        for name in _CACHE_ATTRS:
            state.pop(name, None)
        return state

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
