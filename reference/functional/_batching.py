"""Row operations on batched states, observations and infos (arrays, or tuples/lists/dicts of them).

A batch is a NumPy array whose leading dimension indexes the sub-environments, or a tuple, list or dict nesting
such arrays. Infos of a batched ``FuncEnv`` map keys to arrays with one entry per state (or to nested dicts);
:func:`add_batched_info` turns them into Gymnasium's vector-info layout, ``info[k]`` plus a ``info["_k"]`` mask.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

__all__ = ["add_batched_info", "tree_copy", "tree_scatter", "tree_take"]

_Tree: TypeAlias = Any
_Info: TypeAlias = dict[str, Any]
_Index: TypeAlias = NDArray[np.intp]


def _not_a_batch(owner: str, tree: object) -> TypeError:
    return TypeError(
        f"{owner} state must be an array or a tuple/list/dict of arrays with a leading batch dimension, "
        f"got {type(tree).__name__}"
    )


def tree_copy(tree: _Tree, owner: str = "FunctionalVectorEnv") -> _Tree:
    """Copy every array of a batch.

    Args:
        tree: The batch.
        owner: Who is asking, for the error message.

    Returns:
        A batch of the same structure holding copies.

    Raises:
        TypeError: If a leaf is not an array.
    """
    if isinstance(tree, np.ndarray):
        return tree.copy()  # pyright: ignore[reportUnknownVariableType]
    if isinstance(tree, (tuple, list)):
        return type(tree)(tree_copy(item, owner) for item in tree)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(tree, dict):
        return {key: tree_copy(item, owner) for key, item in tree.items()}  # pyright: ignore[reportUnknownVariableType]
    raise _not_a_batch(owner, tree)


def tree_scatter(tree: _Tree, rows: _Index, values: _Tree, owner: str = "FunctionalVectorEnv") -> _Tree:
    """Write ``values`` (a batch of ``len(rows)``) into ``tree`` at ``rows``, in place.

    Args:
        tree: The batch to update (its arrays are modified).
        rows: The row positions.
        values: A batch with the same structure and one row per position.
        owner: Who is asking, for the error message.

    Returns:
        ``tree`` (tuples are rebuilt around the same arrays).

    Raises:
        TypeError: If the structures differ or a leaf is not an array.
    """
    if isinstance(tree, np.ndarray):
        tree[rows] = values
        return tree  # pyright: ignore[reportUnknownVariableType]
    if isinstance(tree, (tuple, list)) and isinstance(values, (tuple, list)) and len(tree) == len(values):  # pyright: ignore[reportUnknownArgumentType]
        return type(tree)(tree_scatter(t, rows, v, owner) for t, v in zip(tree, values))  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(tree, dict) and isinstance(values, dict) and tree.keys() == values.keys():
        return {key: tree_scatter(tree[key], rows, values[key], owner) for key in tree}  # pyright: ignore[reportUnknownVariableType]
    raise _not_a_batch(owner, tree)  # pyright: ignore[reportUnknownArgumentType]


def tree_take(tree: _Tree, row: int, owner: str = "FunctionalVectorEnv") -> _Tree:
    """Extract row ``row`` of a batch (views, not copies).

    Args:
        tree: The batch.
        row: The row position.
        owner: Who is asking, for the error message.

    Returns:
        One element with the batch's structure.

    Raises:
        TypeError: If a leaf is not an array.
    """
    if isinstance(tree, np.ndarray):
        return tree[row]
    if isinstance(tree, (tuple, list)):
        return type(tree)(tree_take(item, row, owner) for item in tree)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(tree, dict):
        return {key: tree_take(item, row, owner) for key, item in tree.items()}  # pyright: ignore[reportUnknownVariableType]
    raise _not_a_batch(owner, tree)


def _leaf_array(num_envs: int, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray[Any]:
    if dtype == object:
        return np.full((num_envs, *shape), None, dtype=object)
    return np.zeros((num_envs, *shape), dtype=dtype)


def add_batched_info(
    vector_infos: _Info, info: Mapping[str, Any], rows: _Index | None, num_envs: int, owner: str = "FunctionalVectorEnv"
) -> _Info:
    """Merge a batched info dict, reported by the sub-envs ``rows``, into ``vector_infos`` (in place).

    Args:
        vector_infos: The vector info built so far (``{}`` to start).
        info: Keys mapped to arrays with one entry per reporting sub-env (or to nested dicts).
        rows: The reporting sub-envs, in the order of the arrays' leading dimension (``None``: all of them).
        num_envs: The number of sub-environments.
        owner: Who is asking, for the error message.

    Returns:
        ``vector_infos``: ``info[k]`` arrays of leading dimension ``num_envs`` and ``info["_k"]`` bool masks.

    Raises:
        ValueError: If a value does not have one entry per reporting sub-env.
    """
    count = num_envs if rows is None else len(rows)
    target = slice(None) if rows is None else rows
    for key, value in info.items():
        mask_key = f"_{key}"
        if isinstance(value, Mapping):
            nested = vector_infos.get(key)
            vector_infos[key] = add_batched_info(nested if isinstance(nested, dict) else {}, value, rows, num_envs, owner)  # pyright: ignore[reportUnknownArgumentType]
        else:
            arr = np.asarray(value)
            if arr.ndim == 0 or arr.shape[0] != count:
                raise ValueError(
                    f"{owner} info[{key!r}] must have one entry per state (leading dimension {count}), "
                    f"got shape {arr.shape}"
                )
            existing = vector_infos.get(key)
            if not isinstance(existing, np.ndarray) or existing.shape[1:] != arr.shape[1:]:  # pyright: ignore[reportUnknownMemberType]
                existing = _leaf_array(num_envs, arr.shape[1:], arr.dtype)
            elif existing.dtype != arr.dtype:  # pyright: ignore[reportUnknownMemberType]
                try:
                    existing = existing.astype(np.promote_types(existing.dtype, arr.dtype))  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType, reportUnknownVariableType]
                except TypeError:
                    existing = existing.astype(object)  # pyright: ignore[reportUnknownVariableType]
            existing[target] = arr
            vector_infos[key] = existing
        mask = vector_infos.get(mask_key)
        if not (isinstance(mask, np.ndarray) and mask.shape == (num_envs,) and mask.dtype == np.bool_):  # pyright: ignore[reportUnknownMemberType]
            mask = np.zeros(num_envs, dtype=np.bool_)
        mask[target] = True
        vector_infos[mask_key] = mask
    return vector_infos
