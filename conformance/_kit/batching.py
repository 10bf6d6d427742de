"""The batching convention of vector envs, checked structurally: batched spaces, splitting batches, info masks.

Nothing here knows a space class. A space is read through :func:`~conformance._kit.strategies.space_kind`, so the same
code checks Gymnasium's, the reference's and any duck-typed implementation:

* :func:`batch_problem` says where a batched space departs from ``batch_space(single, n)`` semantics (Box shape
  ``(n, *shape)`` with tiled bounds and the same dtype, Discrete to MultiDiscrete, Tuple and Dict component-wise);
* :func:`split` cuts a batch (of observations or actions) into its ``n`` per-sub-env elements,
  :func:`replace_rows` builds a batch that takes some sub-envs' elements from another batch, and
  :func:`batch_of_one` makes a batch of one element (for a ``num_envs=1`` construction);
* :func:`sub_info` reads one sub-env's entries out of a batched info dict by its ``_key`` masks, and
  :func:`mask_problem` / :func:`batch_info_problem` check that convention itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np

from conformance._engine.describe import (
    is_array,
    is_dict,
    is_list_or_tuple,
    is_mapping,
    is_sequence,
    is_tuple,
    summarize,
    type_name,
)
from conformance._kit.strategies import space_kind

__all__ = [
    "SplitError",
    "batch_info_problem",
    "batch_of_one",
    "batch_problem",
    "first_rows",
    "is_blank",
    "mask_problem",
    "replace_rows",
    "row_source",
    "split",
    "sub_info",
]

_Info: TypeAlias = dict[str, Any]
_ARRAY_KINDS = ("box", "discrete", "multidiscrete", "multibinary")


class SplitError(ValueError):
    """A batch does not have the structure its single space implies (the message says where)."""


def _shape(space: Any) -> tuple[int, ...] | None:
    shape = getattr(space, "shape", None)
    try:
        return None if shape is None else tuple(int(d) for d in shape)
    except TypeError:
        return None


def _tiled(single: Any, n: int, shape: tuple[int, ...], dtype: Any) -> np.ndarray[Any, Any]:
    return np.broadcast_to(np.asarray(single, dtype=dtype), shape)


def _box_problem(single: Any, batched: Any, n: int, path: str) -> str | None:
    kind = space_kind(batched)
    if kind != "box":
        return f"{path}: a Box batches to a Box, got a {kind} space ({type_name(batched)})"
    expected = (n, *(_shape(single) or ()))
    if _shape(batched) != expected:
        return f"{path}: shape {_shape(batched)}, expected {expected} (num_envs first)"
    if np.dtype(batched.dtype) != np.dtype(single.dtype):
        return f"{path}: dtype {np.dtype(batched.dtype)}, expected the single space's {np.dtype(single.dtype)}"
    for bound in ("low", "high"):
        want = _tiled(getattr(single, bound), n, expected, np.dtype(single.dtype))
        got = np.asarray(getattr(batched, bound))
        if got.shape != expected or not np.array_equal(got, want, equal_nan=want.dtype.kind == "f"):
            return f"{path}: {bound} is {summarize(got)}, expected the single {bound} tiled to {expected}"
    return None


def _discrete_problem(single: Any, batched: Any, n: int, path: str) -> str | None:
    kind = space_kind(batched)
    if kind != "multidiscrete":
        return f"{path}: a Discrete batches to a MultiDiscrete, got a {kind} space ({type_name(batched)})"
    nvec = np.asarray(batched.nvec)
    if nvec.shape != (n,) or not np.all(nvec == int(single.n)):
        return f"{path}: nvec {summarize(nvec)}, expected [{int(single.n)}] * {n}"
    start = np.asarray(getattr(batched, "start", 0))
    if not np.all(start == int(getattr(single, "start", 0))):
        return f"{path}: start {summarize(start)}, expected {int(getattr(single, 'start', 0))} for every sub-env"
    return None


def batch_problem(single: Any, batched: Any, n: int, path: str = "space") -> str | None:
    """Where ``batched`` departs from the batched form of ``single`` (``None`` when it conforms).

    Args:
        single: The single (per-sub-env) space.
        batched: The vector env's batched space.
        n: ``num_envs``.
        path: How to name the space in the description.

    Returns:
        A description of the first departure, or ``None``.
    """
    kind = space_kind(single)
    if kind == "box":
        return _box_problem(single, batched, n, path)
    if kind == "discrete":
        return _discrete_problem(single, batched, n, path)
    if kind in ("multidiscrete", "multibinary"):
        expected = (n, *(_shape(single) or ()))
        if _shape(batched) != expected:
            return f"{path}: shape {_shape(batched)}, expected {expected} (num_envs first)"
        return None
    if kind == "tuple":
        if space_kind(batched) != "tuple" or len(batched.spaces) != len(single.spaces):
            return f"{path}: a Tuple of {len(single.spaces)} batches to a Tuple of as many, got {type_name(batched)}"
        for index, (sub, bsub) in enumerate(zip(single.spaces, batched.spaces)):
            found = batch_problem(sub, bsub, n, f"{path}[{index}]")
            if found:
                return found
        return None
    if kind == "dict":
        keys = list(single.spaces)
        if space_kind(batched) != "dict" or list(batched.spaces) != keys:
            return f"{path}: a Dict with keys {keys} batches to a Dict with the same keys, got {type_name(batched)}"
        for key in keys:
            found = batch_problem(single.spaces[key], batched.spaces[key], n, f"{path}[{key!r}]")
            if found:
                return found
        return None
    inner = getattr(batched, "spaces", None)
    if not is_sequence(inner) or len(inner) != n:
        return f"{path}: a {kind} space batches to a Tuple of num_envs={n} copies, got {type_name(batched)}"
    return None


def split(single: Any, batch: Any, n: int, path: str = "batch") -> list[Any]:
    """Cut a batch into its ``n`` elements, following the single space's structure.

    Args:
        single: The single space.
        batch: A batch (an element of the batched space, or what a vector env returned).
        n: ``num_envs``.
        path: How to name the batch in error messages.

    Returns:
        One element per sub-env.

    Raises:
        SplitError: If the batch does not have the structure the single space implies.
    """
    kind = space_kind(single)
    if kind in _ARRAY_KINDS:
        if not is_array(batch) and hasattr(batch, "__array__") and hasattr(batch, "shape"):
            # A JAX or torch array: whether its type is allowed is VEC-011/VEC-012's to say; its rows are read here.
            batch = np.asarray(batch)
        if not is_array(batch) or batch.ndim == 0 or batch.shape[0] != n:
            raise SplitError(f"{path} must be an array with leading dimension {n}, got {summarize(batch)}")
        if kind == "discrete":
            return [batch[i] for i in range(n)]
        # Rows of array spaces are arrays, even of shape () (indexing alone would give NumPy scalars).
        return [np.asarray(batch[i]) for i in range(n)]
    if kind == "tuple":
        subs = list(single.spaces)
        if not is_tuple(batch) or len(batch) != len(subs):
            raise SplitError(f"{path} must be a tuple of {len(subs)} batches, got {summarize(batch)}")
        parts = [split(sub, item, n, f"{path}[{index}]") for index, (sub, item) in enumerate(zip(subs, batch))]
        return [tuple(part[i] for part in parts) for i in range(n)]
    if kind == "dict":
        keys = list(single.spaces)
        if not is_mapping(batch) or set(batch) != set(keys):
            raise SplitError(f"{path} must be a dict with keys {keys}, got {summarize(batch)}")
        columns = {key: split(single.spaces[key], batch[key], n, f"{path}[{key!r}]") for key in keys}
        return [{key: columns[key][i] for key in keys} for i in range(n)]
    if not is_list_or_tuple(batch) or len(batch) != n:
        raise SplitError(f"{path} must be a tuple of {n} elements, got {summarize(batch)}")
    return list(batch)


def row_source(single: Any, batch: str, i: int) -> str:
    """Source of sub-env ``i``'s element of the batch the expression ``batch`` evaluates to, as :func:`split` cuts
    it (for a reproducer's assertion on one sub-env)."""
    kind = space_kind(single)
    if kind == "discrete":
        return f"{batch}[{i}]"
    if kind in _ARRAY_KINDS:
        return f"np.asarray({batch}[{i}])"
    if kind == "tuple":
        items = [row_source(sub, f"{batch}[{index}]", i) for index, sub in enumerate(single.spaces)]
        return f"({', '.join(items)},)"
    if kind == "dict":
        return "{" + ", ".join(f"{key!r}: {row_source(single.spaces[key], f'{batch}[{key!r}]', i)}"
                               for key in single.spaces) + "}"
    return f"{batch}[{i}]"


def batch_of_one(single: Any, element: Any) -> Any:
    """The batch of ``n = 1`` holding ``element`` (the inverse of :func:`split` with ``n = 1``).

    Args:
        single: The single space.
        element: An element of it.

    Returns:
        The batch: arrays gain a leading dimension of 1 (a Discrete element becomes a MultiDiscrete row), Tuple and
        Dict elements are batched component by component, other kinds become a 1-tuple.
    """
    kind = space_kind(single)
    if kind in _ARRAY_KINDS:
        dtype = getattr(single, "dtype", None)
        return np.asarray(element, dtype=None if dtype is None else np.dtype(dtype))[None, ...]
    if kind == "tuple":
        return tuple(batch_of_one(sub, item) for sub, item in zip(single.spaces, element))
    if kind == "dict":
        return {key: batch_of_one(single.spaces[key], element[key]) for key in single.spaces}
    return (element,)


def first_rows(single: Any, batch: Any, n: int) -> Any:
    """The batch of the first ``n`` elements of ``batch`` (a batch of the same structure, with more rows)."""
    kind = space_kind(single)
    if kind in _ARRAY_KINDS:
        return np.array(batch, copy=True)[:n]
    if kind == "tuple":
        return tuple(first_rows(sub, part, n) for sub, part in zip(single.spaces, batch))
    if kind == "dict":
        return {key: first_rows(single.spaces[key], batch[key], n) for key in single.spaces}
    return tuple(batch)[:n]


def replace_rows(single: Any, batch: Any, other: Any, rows: Sequence[int]) -> Any:
    """A copy of ``batch`` whose elements at ``rows`` come from ``other`` (a batch of the same structure).

    Args:
        single: The single space.
        batch: The batch to copy.
        other: Where the replaced elements come from.
        rows: The sub-env indices to replace.

    Returns:
        The new batch (``batch`` and ``other`` are not modified).
    """
    kind = space_kind(single)
    if kind in _ARRAY_KINDS:
        out = np.array(batch, copy=True)
        for row in rows:
            out[row] = other[row]
        return out
    if kind == "tuple":
        return tuple(replace_rows(sub, b, o, rows) for sub, b, o in zip(single.spaces, batch, other))
    if kind == "dict":
        return {key: replace_rows(single.spaces[key], batch[key], other[key], rows) for key in single.spaces}
    items = list(batch)
    for row in rows:
        items[row] = other[row]
    return tuple(items)


def _mask(info: Mapping[str, Any], key: str) -> Any:
    return info.get(f"_{key}")


def _is_mask(value: Any, n: int) -> bool:
    return is_array(value) and value.dtype == np.bool_ and value.shape == (n,)


def mask_problem(info: Any, n: int, path: str = "info") -> str | None:
    """Where a batched info dict breaks the ``_key`` mask convention (``None`` when it follows it).

    Every key ``k`` not starting with ``_`` needs ``info["_k"]``, a bool array of shape ``(n,)``; dict values follow
    the same convention recursively.
    """
    if not is_mapping(info):
        return f"{path} is {summarize(info)}, not a dict"
    for key, value in info.items():
        if not isinstance(key, str) or key.startswith("_"):
            continue
        mask = _mask(info, key)
        if not _is_mask(mask, n):
            shown = "missing" if f"_{key}" not in info else summarize(mask)
            return f"{path}[{'_' + key!r}] is {shown}, expected a bool array of shape ({n},) for key {key!r}"
        if is_mapping(value):
            found = mask_problem(value, n, f"{path}[{key!r}]")
            if found:
                return found
    return None


def is_blank(value: Any) -> bool:
    """Whether a batched info entry carries no data: ``None``, zero, ``False``, empty, or NaN."""
    if value is None:
        return True
    if is_array(value):
        if value.dtype == object:
            return all(is_blank(item) for item in value.reshape(-1))
        return value.size == 0 or bool(np.all((value == 0) | (value != value)))
    if isinstance(value, (str, bytes)) or is_list_or_tuple(value) or is_dict(value):
        return len(value) == 0
    try:
        return bool(value == 0) or bool(value != value)
    except Exception:  # noqa: BLE001 - an exotic value that cannot be compared is data
        return False


def batch_info_problem(info: Any, n: int, path: str = "info") -> str | None:
    """Where array-valued info entries break the batching convention (``None`` when they follow it).

    An array value ``info[k]`` must have leading dimension ``n``, and its rows where ``info["_k"]`` is false must be
    blank (:func:`is_blank`). Keys without a well-formed mask are :func:`mask_problem`'s subject and are skipped.
    """
    if not is_mapping(info):
        return None
    for key, value in info.items():
        if not isinstance(key, str) or key.startswith("_"):
            continue
        mask = _mask(info, key)
        if is_mapping(value):
            found = batch_info_problem(value, n, f"{path}[{key!r}]")
            if found:
                return found
            continue
        if not is_array(value):
            continue
        if value.ndim == 0 or value.shape[0] != n:
            return f"{path}[{key!r}] is {summarize(value)}, expected leading dimension num_envs={n}"
        if not _is_mask(mask, n):
            continue
        for i in np.flatnonzero(~mask).tolist():
            if not is_blank(value[i]):
                return (
                    f"{path}[{key!r}][{i}] is {summarize(value[i])} although {path}[{'_' + key!r}][{i}] is False "
                    "(a masked-out entry must carry no sub-env data)"
                )
    return None


def sub_info(info: Any, i: int, *, exclude: Sequence[str] = ()) -> _Info:
    """Sub-env ``i``'s entries of a batched info dict: every key whose mask is true at ``i``, recursively.

    Args:
        info: The batched info.
        i: The sub-env index.
        exclude: Top-level keys to leave out (e.g. ``final_obs`` and ``final_info`` under ``SameStep``).

    Returns:
        A plain dict, as the sub-env itself would have reported it.
    """
    found: _Info = {}
    if not is_mapping(info):
        return found
    for key, value in info.items():
        if not isinstance(key, str) or key.startswith("_") or key in exclude:
            continue
        mask = _mask(info, key)
        try:
            present = bool(mask[i])
        except Exception:  # noqa: BLE001 - a malformed mask is mask_problem's subject; read it as "absent"
            continue
        if not present:
            continue
        if is_mapping(value):
            found[key] = sub_info(value, i)
        else:
            try:
                found[key] = value[i]
            except Exception:  # noqa: BLE001 - batch_info_problem reports unbatched values
                found[key] = value
    return found
