"""Structural equality of space elements (arrays by dtype and value, scalars by type and value)."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

__all__ = ["same"]

_Value: TypeAlias = Any


def same(a: _Value, b: _Value, *, check_types: bool = True) -> bool:
    """Tell whether two space elements are identical in structure, dtype and value.

    ``GraphInstance`` instances of different libraries compare by their fields, so the function also serves the
    differential tests.

    Args:
        a: One element.
        b: The other element.
        check_types: Also require scalar types to match (``np.int64`` vs ``int``).

    Returns:
        Whether they are the same.
    """
    if hasattr(a, "_fields") and hasattr(b, "_fields"):
        return a._fields == b._fields and all(same(x, y, check_types=check_types) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and list(a) == list(b)
            and all(same(a[k], b[k], check_types=check_types) for k in a)
        )
    if isinstance(a, (tuple, list)) or isinstance(b, (tuple, list)):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(same(x, y, check_types=check_types) for x, y in zip(a, b, strict=True))
        )
    if not check_types and (isinstance(a, np.generic) or isinstance(b, np.generic)):
        # Lenient mode: NumPy scalars and 0-d arrays of the same dtype are the same value.
        a, b = np.asarray(a), np.asarray(b)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and a.shape == b.shape
            and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
        )
    if a is None or b is None:
        return a is b
    if check_types and type(a) is not type(b):
        return False
    return bool(a == b)
