"""Merging per-sub-env info dicts into one batched info dict with ``_key`` masks.

Every key ``k`` a sub-env reports becomes ``info[k]``, an array with one entry per sub-env, plus ``info["_k"]``, a
bool array that is true where the sub-env reported ``k``. Numbers (Python ``bool``/``int``/``float`` and NumPy
scalars) batch into a numeric array, arrays into a stacked array, dicts recursively into dicts with their own
masks, anything else into an object array. ``final_obs`` is always an object array, so each entry is one
observation exactly as the sub-env returned it.

Unlike Gymnasium, the array is not fixed by the first sub-env that reports a key: a later value that does not fit
promotes it (``int`` then ``float`` gives float64; a longer string array widens the dtype) or, when no common
dtype or shape exists (an int then a string, arrays of different shapes, a dict then a number), turns it into an
object array holding the values as reported. Nothing is silently truncated, cast or broadcast.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_array, is_dict, is_numpy_scalar

__all__ = ["add_info"]

InfoDict: TypeAlias = dict[str, Any]
_Array: TypeAlias = NDArray[Any]

# Exact types only: a bool or int *subclass* (an IntEnum, say) is an arbitrary object, as in Gymnasium.
_PY_SCALARS = (bool, int, float)
_FINAL_OBS = "final_obs"


def _scalar_dtype(value: object) -> np.dtype[Any] | None:
    if type(value) in _PY_SCALARS:
        return np.dtype(type(value))
    if is_numpy_scalar(value):
        return value.dtype
    return None


def _objects(num_envs: int) -> _Array:
    return np.full(num_envs, None, dtype=object)


def _new_leaf(value: object, num_envs: int) -> _Array:
    dtype = _scalar_dtype(value)
    if dtype is not None:
        return np.zeros(num_envs, dtype=dtype)
    if is_array(value):
        return np.zeros((num_envs, *value.shape), dtype=value.dtype)
    return _objects(num_envs)


def _present(mask: object, num_envs: int) -> _Array:
    if is_array(mask) and mask.shape == (num_envs,) and mask.dtype == np.bool_:
        return mask
    if mask is None:
        return np.zeros(num_envs, dtype=np.bool_)  # a key seen for the first time: nothing to keep yet
    # No usable mask (a sub-env key collided with it): keep every entry rather than lose data.
    return np.ones(num_envs, dtype=np.bool_)


def _unbatch(batched: InfoDict, env_num: int) -> InfoDict:
    """Rebuild the dict sub-env ``env_num`` reported from a batched info dict."""
    out: InfoDict = {}
    for key, value in batched.items():
        mask = batched.get(f"_{key}")
        if key.startswith("_") and key[1:] in batched:
            continue
        if is_array(mask) and mask.dtype == np.bool_ and not mask[env_num]:
            continue
        out[key] = _unbatch(value, env_num) if is_dict(value) else value[env_num]
    return out


def _as_objects(existing: _Array | InfoDict, mask: object, num_envs: int) -> _Array:
    """Turn a batched leaf (or a batched dict) into an object array holding each reported value."""
    objects = _objects(num_envs)
    for j in np.flatnonzero(_present(mask, num_envs)).tolist():
        objects[j] = _unbatch(existing, j) if isinstance(existing, dict) else existing[j]
    return objects


def _fit(existing: _Array, value: object, mask: object, num_envs: int) -> _Array:
    """Return an array that can hold ``value`` as well as everything ``existing`` holds."""
    if existing.dtype == object and existing.ndim == 1:
        return existing
    dtype = _scalar_dtype(value)
    if dtype is not None:
        shape: tuple[int, ...] = ()
    elif is_array(value):
        dtype, shape = value.dtype, value.shape
    else:
        return _as_objects(existing, mask, num_envs)
    if shape != existing.shape[1:]:
        return _as_objects(existing, mask, num_envs)
    try:
        common = np.promote_types(existing.dtype, dtype)
    except TypeError:
        return _as_objects(existing, mask, num_envs)
    return existing if common == existing.dtype else existing.astype(common)


def _store(array: _Array, env_num: int, value: object, mask: object, num_envs: int) -> _Array:
    try:
        array[env_num] = value
    except (OverflowError, ValueError, TypeError):
        # The value does not fit after all (a Python int beyond int64, say): keep it as an object.
        array = _as_objects(array, mask, num_envs)
        array[env_num] = value
    return array


def add_info(vector_infos: InfoDict, env_info: Mapping[str, Any], env_num: int, num_envs: int) -> InfoDict:
    """Merge sub-env ``env_num``'s info into the batched ``vector_infos`` (updated in place and returned).

    Args:
        vector_infos: The batched info dict built so far (``{}`` to start).
        env_info: The info dict one sub-env returned.
        env_num: That sub-env's index.
        num_envs: The number of sub-envs (the length of every batched array).

    Returns:
        ``vector_infos``, with every key of ``env_info`` batched and masked.
    """
    for key, value in env_info.items():
        mask_key = f"_{key}"
        existing = vector_infos.get(key)
        mask = vector_infos.get(mask_key)
        batched: _Array | InfoDict
        if key == _FINAL_OBS:
            if existing is None:
                existing = _objects(num_envs)
            elif not is_array(existing) or existing.dtype != object or existing.ndim != 1:
                existing = _as_objects(existing, mask, num_envs)
            existing[env_num] = value
            batched = existing
        elif is_dict(value) and (existing is None or is_dict(existing)):
            batched = add_info({} if existing is None else existing, value, env_num, num_envs)
        else:
            if existing is None:
                array = _new_leaf(value, num_envs)
            elif is_dict(existing):
                array = _as_objects(existing, mask, num_envs)
            elif not is_array(existing):
                array = _objects(num_envs)
            else:
                array = _fit(existing, value, mask, num_envs)
            batched = _store(array, env_num, value, mask, num_envs)
        if not (is_array(mask) and mask.shape == (num_envs,) and mask.dtype == np.bool_):
            mask = np.zeros(num_envs, dtype=np.bool_)
        mask[env_num] = True
        vector_infos[key] = batched
        vector_infos[mask_key] = mask
    return vector_infos
