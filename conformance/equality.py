"""Comparing what targets return: exact equality for determinism, value equality for round trips.

Both functions return ``None`` when the values match and otherwise a short description of the *first* difference
with its path (``"[3]['position']: 0.5 != 0.25"``), which goes straight into a failure message.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from conformance._engine.describe import summarize
from conformance._engine.narrowing import is_array, is_float, is_list_or_tuple, is_mapping
from conformance._kit.freeze import ArrayDigest, digest_of

__all__ = ["difference", "value_difference"]

_OBJECT_EQ: Any = object.__eq__


def _arrays(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], path: str, exact: bool) -> str | None:
    if exact and a.dtype != b.dtype:
        return f"{path or 'value'}: dtype {a.dtype} != {b.dtype}"
    if a.shape != b.shape:
        return f"{path or 'value'}: shape {a.shape} != {b.shape}"
    if a.dtype.kind == "O" or b.dtype.kind == "O":
        return _object_arrays(a, b, path, exact)
    try:
        equal = np.array_equal(a, b, equal_nan=a.dtype.kind in "fc" and b.dtype.kind in "fc")
    except (TypeError, ValueError):
        equal = bool(np.all(a == b))
    if equal:
        return None
    return f"{path or 'value'}: {summarize(a)} != {summarize(b)}"


def _object_arrays(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], path: str, exact: bool) -> str | None:
    """Compare same-shape arrays with an object dtype element by element (``a == b`` is ambiguous on them)."""
    if a.ndim == 0:
        return _compare(a[()], b[()], path, exact)
    # Indexing the first axis yields the items of a 1-d array and sub-arrays otherwise, as nested lists do.
    return _sequences(a, b, path, exact)


def _sequences(a: Any, b: Any, path: str, exact: bool) -> str | None:
    if len(a) != len(b):
        return f"{path or 'value'}: length {len(a)} != {len(b)}"
    for index in range(len(a)):
        found = _compare(a[index], b[index], f"{path}[{index}]", exact)
        if found is not None:
            return found
    return None


def _is_object_array(value: Any) -> bool:
    return is_array(value) and value.dtype.kind == "O" and value.ndim > 0


def _digests(a: Any, b: Any, where: str) -> str | None:
    """Compare when one side was kept as a digest (a large array; see :mod:`conformance._kit.freeze`)."""
    if not isinstance(a, ArrayDigest):
        a, b = b, a
    if not (isinstance(b, ArrayDigest) or is_array(b)) or (is_array(b) and b.dtype.kind == "O"):
        return f"{where}: {a!r} != {summarize(b)}"
    other = b if isinstance(b, ArrayDigest) else digest_of(b)
    if a.dtype != other.dtype:
        return f"{where}: dtype {a.dtype} != {other.dtype}"
    if a.shape != other.shape:
        return f"{where}: shape {a.shape} != {other.shape}"
    if a.digest != other.digest:
        return f"{where}: the contents differ ({a.summary}; too large to keep, compared by digest)"
    return None


def _compare(a: Any, b: Any, path: str, exact: bool) -> str | None:
    where = path or "value"
    if isinstance(a, ArrayDigest) or isinstance(b, ArrayDigest):
        return _digests(a, b, where)
    if exact and type(a) is not type(b):
        return f"{where}: type {type(a).__name__} != {type(b).__name__}"
    if is_array(a) or is_array(b):
        if not (is_array(a) and is_array(b)):
            if (_is_object_array(a) and is_list_or_tuple(b)) or (_is_object_array(b) and is_list_or_tuple(a)):
                # Items may be arrays of any shapes: NumPy cannot convert such a list, nor broadcast it faithfully.
                return _sequences(a, b, path, exact)
            try:
                a, b = np.asarray(a), np.asarray(b)
            except ValueError:  # a ragged sequence against a non-object array: they cannot be equal
                return f"{where}: {summarize(a)} != {summarize(b)}"
        return _arrays(a, b, path, exact)
    if is_mapping(a) and is_mapping(b):
        if list(a.keys()) != list(b.keys()) and set(a.keys()) != set(b.keys()):
            return f"{where}: keys {sorted(map(str, a))} != {sorted(map(str, b))}"
        for key in a:
            found = _compare(a[key], b[key], f"{path}[{key!r}]", exact)
            if found is not None:
                return found
        return None
    if is_list_or_tuple(a) and is_list_or_tuple(b):
        return _sequences(a, b, path, exact)
    if is_float(a) and is_float(b):
        if (np.isnan(a) and np.isnan(b)) or a == b:
            return None
        return f"{where}: {a!r} != {b!r}"
    # cast: pyright reads `a` here as the union of what the checks above let through, part of it unknown.
    if getattr(type(cast(object, a)), "__eq__") is _OBJECT_EQ and type(a) is type(b):
        # No value equality defined: two instances of the same class are all the suite can compare.
        return None
    try:
        equal = a == b
        same = bool(np.all(equal)) if is_array(equal) else bool(equal)
    except Exception:  # noqa: BLE001 - an exotic __eq__ that raises means "cannot tell"; treat as equal
        return None
    return None if same else f"{where}: {summarize(a)} != {summarize(b)}"


def difference(a: Any, b: Any, path: str = "") -> str | None:
    """Describe the first difference between two results that must be identical (types included).

    Args:
        a: The first value.
        b: The second value.
        path: Prefix for the reported location.

    Returns:
        ``None`` if identical (NaN equals NaN), else a description of the first difference.
    """
    return _compare(a, b, path, exact=True)


def value_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Like :func:`difference`, but Python and NumPy scalars or sequences of equal value count as equal."""
    return _compare(a, b, path, exact=False)
