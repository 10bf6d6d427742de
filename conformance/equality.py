"""Comparing what targets return: exact equality for determinism, value equality for round trips.

Both functions return ``None`` when the values match and otherwise a short description of the *first* difference
with its path (``"[3]['position']: 0.5 != 0.25"``), which goes straight into a failure message.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from conformance._engine.describe import is_array, is_float, is_list_or_tuple, is_mapping, summarize, type_name
from conformance._kit.arrays import as_numpy
from conformance._kit.freeze import ArrayDigest, digest_of

__all__ = ["array_difference", "difference", "outside_space", "value_difference"]

_SHOWN = 3  # differing elements shown by index

_OBJECT_EQ: Any = object.__eq__
# Dtype kinds whose equal bytes are equal values (not datetimes, whose NaT is unequal to itself).
_BYTEWISE = frozenset("biufcSU")


def _arrays(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], path: str, exact: bool) -> str | None:
    if exact and a.dtype != b.dtype:
        return f"{path or 'value'}: dtype {a.dtype} != {b.dtype}"
    if a.shape != b.shape:
        return f"{path or 'value'}: shape {a.shape} != {b.shape}"
    if a.dtype.kind == "O" or b.dtype.kind == "O":
        return _object_arrays(a, b, path, exact)
    if a.dtype == b.dtype and a.dtype.kind in _BYTEWISE and a.tobytes() == b.tobytes():
        return None  # the same bits are equal values: the common case of a comparison, at a fraction of its cost
    try:
        equal = np.array_equal(a, b, equal_nan=a.dtype.kind in "fc" and b.dtype.kind in "fc")
    except (TypeError, ValueError):
        equal = bool(np.all(a == b))
    if equal:
        return None
    return array_difference(a, b, path or "value")


def _index(at: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(i) for i in at) + "]"


def array_difference(a: np.ndarray[Any, Any], b: np.ndarray[Any, Any], where: str = "value") -> str:
    """Say where two arrays of one shape differ: how many elements, the first few by index, the largest difference.

    Args:
        a: The expected array.
        b: The array under check (same shape).
        where: How the message names the value.

    Returns:
        E.g. ``"obs: 2 of 39 elements differ ([3]: 0.5 != 0.25, [7]: 1.0 != 2.0); largest difference 1.0 at [7]"``;
        a 1-ulp difference of floats says so.
    """
    try:
        unequal = np.asarray(a != b)
        if a.dtype.kind in "fc" and b.dtype.kind in "fc":
            unequal &= ~(np.isnan(a) & np.isnan(b))
    except (TypeError, ValueError):
        return f"{where}: {summarize(a)} != {summarize(b)}"
    if unequal.shape != a.shape:
        return f"{where}: {summarize(a)} != {summarize(b)}"
    spots = [tuple(int(i) for i in at) for at in np.argwhere(unequal)]
    if not spots:
        return f"{where}: {summarize(a)} != {summarize(b)}"
    shown = ", ".join(f"{_index(at)}: {a[at].item()!r} != {b[at].item()!r}" for at in spots[: _SHOWN])
    more = ", ..." if len(spots) > _SHOWN else ""
    text = f"{where}: {len(spots)} of {a.size} elements differ ({shown}{more})"
    if a.dtype.kind in "biuf" and b.dtype.kind in "biuf":
        with np.errstate(all="ignore"):
            gaps = np.abs(a.astype(np.float64) - b.astype(np.float64))
        gaps = np.where(unequal, gaps, 0.0)
        if np.isnan(gaps).any():
            return text + "; NaN on one side"
        at = tuple(int(i) for i in np.unravel_index(int(np.argmax(gaps)), gaps.shape))
        largest = float(gaps[at])
        text += f"; largest difference {largest:.6g} at {_index(at)}"
        if a.dtype.kind == "f" and b.dtype.kind == "f":
            with np.errstate(all="ignore"):
                ulp = float(np.spacing(max(abs(float(a[at])), abs(float(b[at]))), dtype=np.result_type(a, b)))
            if ulp > 0 and largest / ulp <= 4:
                text += f" ({round(largest / ulp)} ulp: rounding, e.g. another order of operations)"
    return text


def outside_space(space: Any, value: Any, where: str = "value") -> str | None:
    """Why ``value`` is not an element of ``space``, for the common spaces (duck-typed, Gymnasium's or any other).

    Box-like spaces (``low``/``high``): the shape, the broken bound at the first indices (and how many), or — every
    value within the bounds — the dtype; Discrete-like (``n``/``start``): the range; Dict- and Tuple-like: the key
    path or index of the first part that is out, or the keys that differ.

    Returns:
        A description such as ``"value[36] = 0.5 > high[36] = 0.0 (3 of 39 elements out of bounds: [36], [37],
        [38])"``, or ``None`` when no reason is found (the space's own ``contains`` may still say no).
    """
    try:
        return _outside(space, value, where)
    except Exception:  # noqa: BLE001 - an exotic space: no explanation rather than a crash of the message
        return None


def _outside(space: Any, value: Any, where: str) -> str | None:
    spaces = getattr(space, "spaces", None)
    if is_mapping(spaces):
        if not is_mapping(value):
            return f"{where} is {summarize(value)}, not a mapping"
        if set(map(str, spaces)) != set(map(str, value)):
            return f"{where} has keys {sorted(map(str, value))}, the space {sorted(map(str, spaces))}"
        for key, sub in spaces.items():
            found = _outside(sub, value[key], f"{where}[{key!r}]")
            if found is not None:
                return found
        return None
    if is_list_or_tuple(spaces):
        if not is_list_or_tuple(value) or len(value) != len(spaces):
            return f"{where} is {summarize(value)}, not a tuple of {len(spaces)}"
        for index, (sub, item) in enumerate(zip(spaces, value)):
            found = _outside(sub, item, f"{where}[{index}]")
            if found is not None:
                return found
        return None
    low, high = getattr(space, "low", None), getattr(space, "high", None)
    if low is not None and high is not None:
        return _outside_bounds(space, value, np.asarray(low), np.asarray(high), where)
    n = getattr(space, "n", None)
    if n is not None and np.ndim(n) == 0:
        start = int(getattr(space, "start", 0))
        number = np.asarray(value)
        if number.shape != ():
            return f"{where} has shape {number.shape}, the space holds scalars"
        if number.dtype.kind not in "iu":
            return f"{where} is {summarize(value)}, not an integer"
        if not start <= int(number) < start + int(n):
            return f"{where} = {int(number)} is outside [{start}, {start + int(n) - 1}]"
    return None


def _outside_bounds(space: Any, value: Any, low: np.ndarray[Any, Any], high: np.ndarray[Any, Any], where: str) -> str:
    array = np.asarray(value)
    shape = tuple(getattr(space, "shape", None) or low.shape)
    if array.shape != shape:
        return f"{where} has shape {array.shape}, the space {shape}"
    if array.dtype.kind not in "biuf":
        return f"{where} has dtype {array.dtype}, not a number"
    low, high = np.broadcast_to(low, shape), np.broadcast_to(high, shape)
    with np.errstate(invalid="ignore"):
        below, above = array < low, array > high
    nan = np.isnan(array) if array.dtype.kind == "f" else np.zeros(shape, dtype=bool)
    out = below | above | nan
    spots = [tuple(int(i) for i in at) for at in np.argwhere(out)]
    if spots:
        at = spots[0]
        item = array[at].item() if shape else array.item()
        if nan[at]:
            broken = f"{where}{_index(at)} is NaN"
        elif below[at]:
            broken = f"{where}{_index(at)} = {item!r} < low{_index(at)} = {low[at].item()!r}"
        else:
            broken = f"{where}{_index(at)} = {item!r} > high{_index(at)} = {high[at].item()!r}"
        listed = ", ".join(_index(spot) for spot in spots[:_SHOWN]) + (", ..." if len(spots) > _SHOWN else "")
        return f"{broken} ({len(spots)} of {array.size} elements out of bounds: {listed})"
    dtype = getattr(space, "dtype", None)
    if dtype is not None and array.dtype != np.dtype(dtype):
        return (f"every value is within the bounds, but {where} has dtype {array.dtype} where the space has "
                f"{np.dtype(dtype)} (cast it: np.asarray(obs, dtype=np.{np.dtype(dtype).name}))")
    return f"every value of {where} is within the bounds and of dtype {array.dtype}"


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
        shown = (type(a).__name__, type(b).__name__)
        if shown[0] == shown[1]:  # NumPy 2 names np.bool_ "bool": "type bool != bool" said nothing
            shown = (type_name(a), type_name(b))
        return f"{where}: type {shown[0]} != {shown[1]}"
    # A foreign (JAX, Torch, array-API) array compares as the NumPy array it converts to; the exact comparison has
    # already required equal types, so a JAX array never equals a NumPy one there.
    a_np, b_np = as_numpy(a), as_numpy(b)
    a, b = (a if a_np is None else a_np), (b if b_np is None else b_np)
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
