"""Validating and casting ``Box`` bounds: shape inference, dtype range checks and the owned bound arrays.

Also holds two small helpers ``Box`` uses at run time: :func:`can_cast` and :func:`array_short_repr` (which
``reference.spaces.box`` exports, as Gymnasium's does).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, Literal, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray

from reference import logger
from reference._narrowing import is_array
from reference.spaces._validation import describe

__all__ = [
    "array_short_repr",
    "can_cast",
    "cast_bound",
    "dtype_limits",
    "is_scalar_bound",
    "resolve_shape",
]

_Bound: TypeAlias = "float | np.integer[Any] | np.floating[Any] | np.bool_ | NDArray[Any]"  # ints are floats to checkers
_Shape: TypeAlias = Sequence[int | np.integer[Any]]
_Array: TypeAlias = NDArray[Any]
_DType: TypeAlias = np.dtype[Any]
_MAX_SIZE = 2**63 - 1

# np.can_cast(from, to) answers, memoised: the call dominates ``Box.contains`` for small boxes.
_CAN_CAST: dict[tuple[_DType, _DType], bool] = {}


def can_cast(from_dtype: _DType, to_dtype: _DType) -> bool:
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


def is_scalar_bound(value: object) -> bool:
    """Tell whether ``value`` is a scalar bound (a Python or NumPy int or float, but not a bool).

    Args:
        value: The bound as given.

    Returns:
        Whether it is broadcast as a scalar.
    """
    # bool is excluded on purpose: Box(low=True, ...) is almost certainly a mistake, and Gymnasium rejects it too.
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def dtype_limits(dtype: _DType) -> tuple[float, float]:
    """Return the smallest and largest finite values of an int, float or bool dtype.

    Args:
        dtype: The box dtype.

    Returns:
        ``(min, max)`` as Python numbers (ints for integer dtypes, so they stay exact).
    """
    if dtype.kind == "b":
        return 0, 1
    if dtype.kind == "f":
        finfo = np.finfo(dtype)
        return float(finfo.min), float(finfo.max)
    iinfo = np.iinfo(dtype)
    return int(iinfo.min), int(iinfo.max)


def resolve_shape(low: _Bound, high: _Bound, shape: _Shape | None) -> tuple[int, ...]:
    """Return the box shape: ``shape`` if given, else inferred from array bounds, else ``(1,)``.

    Args:
        low: The lower bound as given.
        high: The upper bound as given.
        shape: The shape argument, possibly ``None``.

    Returns:
        The shape as a tuple of Python ints.

    Raises:
        TypeError: ``shape`` is not a sequence of ints.
        ValueError: ``shape`` has a negative dimension, array bounds disagree in shape, or a bound is neither
            a number nor an array.
    """
    if shape is not None:
        if isinstance(shape, (str, bytes)) or not isinstance(shape, Iterable):
            raise TypeError(f"Box shape must be a sequence of ints, got {describe(shape)}")
        try:
            dims = tuple(shape)
        except TypeError:  # iterable in name only (a 0-d array)
            raise TypeError(f"Box shape must be a sequence of ints, got {describe(shape)}") from None
        if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in dims):
            raise TypeError(f"Box shape must be a sequence of ints, got {describe(shape)}")
        if any(d < 0 for d in dims):
            raise ValueError(f"Box shape must have non-negative dimensions, got {describe(shape)}")
        if any(d > _MAX_SIZE for d in dims) or math.prod(int(d) for d in dims) > _MAX_SIZE:
            raise ValueError(f"Box shape must describe at most 2**63 - 1 elements (NumPy's limit), got {describe(shape)}")
        return tuple(int(d) for d in dims)
    if is_array(low) and is_array(high):
        if low.shape != high.shape:
            raise ValueError(
                f"Box low and high must have the same shape when shape is omitted, "
                f"got low={describe(low)} high={describe(high)}"
            )
        return tuple(int(d) for d in low.shape)
    if is_array(low):
        return tuple(int(d) for d in low.shape)
    if is_array(high):
        return tuple(int(d) for d in high.shape)
    if is_scalar_bound(low) and is_scalar_bound(high):
        return (1,)
    raise ValueError(
        f"Box low and high must be ints, floats or numpy arrays (to infer the shape), "
        f"got low={describe(low)} high={describe(high)}"
    )


def cast_bound(
    name: Literal["low", "high"],
    value: _Bound,
    dtype: _DType,
    shape: tuple[int, ...],
    dtype_min: float,
    dtype_max: float,
) -> tuple[_Array, NDArray[np.bool_]]:
    """Convert a user bound to an owned array of the box dtype, plus its boundedness mask.

    Called directly by ``Box.__init__``: the precision warning blames the frame two levels up (the user).

    Args:
        name: Which bound this is.
        value: The bound as given (never modified).
        dtype: The box dtype.
        shape: The box shape (scalars are broadcast to it).
        dtype_min: The box dtype's minimum, from :func:`dtype_limits`.
        dtype_max: The box dtype's maximum.

    Returns:
        ``(bound, bounded)``: the new bound array (infinities clamped for signed ints) and where it is finite
        on this side.

    Raises:
        ValueError: The bound is NaN, of the wrong type, outside the dtype's range, or infinite where the
            dtype cannot be unbounded.
    """
    kind = dtype.kind
    # The infinity that means "unbounded" on this side; the other infinity is never a valid bound.
    inf = -np.inf if name == "low" else np.inf
    limit = dtype_min if name == "low" else dtype_max
    if is_scalar_bound(value):
        if np.isnan(value):
            raise ValueError(f"Box {name} must not be NaN, got {value!r}")
        bounded = np.full(shape, value != inf)
        if value == inf:
            if kind in "ub":
                raise ValueError(
                    f"Box {name} must be finite for dtype {dtype}, got {value!r}; "
                    "unsigned and bool boxes cannot be unbounded"
                )
            if kind == "i":
                value = limit
        else:
            # Compare as Python numbers, which is exact (a NumPy comparison would cast the limit to the bound's
            # dtype: float32(2**31) would equal int32's max, and a too-wide limit would overflow with a warning).
            exact = value.item() if isinstance(value, np.generic) else value  # pyright: ignore[reportUnknownVariableType]
            if not dtype_min <= exact <= dtype_max and (kind != "f" or np.isfinite(value)):  # pyright: ignore[reportUnknownArgumentType]
                raise ValueError(
                    f"Box {name} must be within the range of {dtype} [{dtype_min}, {dtype_max}], got {value!r}"
                )
        return np.full(shape, value, dtype=dtype), bounded

    if not is_array(value):
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
            f"Box {name} must be finite for dtype {dtype}, got {describe(value)} containing {inf}; "
            "unsigned and bool boxes cannot be unbounded"
        )
    finite_mask = np.isfinite(value) if value.dtype.kind == "f" else None
    if kind != "f" and finite_mask is not None and not bool((finite_mask | unbounded).all()):
        raise ValueError(f"Box {name} must not contain {-inf} for dtype {dtype}, got {describe(value)}")
    if value.dtype != dtype:
        finite = value[finite_mask] if finite_mask is not None else value
        # Extremes as Python numbers compare exactly with the limits (see the scalar case above).
        if finite.size and (finite.min().item() < dtype_min or finite.max().item() > dtype_max):
            raise ValueError(
                f"Box {name} must be within the range of {dtype} [{dtype_min}, {dtype_max}], "
                f"got {describe(value)} with values in [{finite.min()!r}, {finite.max()!r}]"
            )
        own_precision = np.finfo(cast("np.dtype[np.floating[Any]]", dtype)).precision if kind == "f" else 0
        if value.dtype.kind == "f" and kind == "f" and own_precision < np.finfo(value.dtype).precision:
            logger.warn(
                f"Box {name}'s precision lowered by casting to {dtype}, current {name}.dtype={value.dtype}",
                stacklevel=3,
            )
    if any_unbounded and kind == "i":
        # Cast the finite entries, then store the limit exactly in the integer result (through float64,
        # 2**63 - 1 would round up and overflow). Both steps make new arrays: the caller's is untouched.
        ints = np.where(unbounded, 0, value).astype(dtype)
        ints[unbounded] = limit
        return ints, bounded
    return value.astype(dtype), bounded
