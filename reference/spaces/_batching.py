"""The few batching operations ``Graph`` and stacked ``Sequence`` spaces need.

They match ``reference.vector.utils`` (and Gymnasium's ``gymnasium.vector.utils``) for the fundamental spaces,
which are what graph nodes/edges and stacked sequences normally hold. Any other space is delegated to
``reference.vector.utils`` when that module is importable; it is imported lazily because it depends on this
package.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator
from copy import deepcopy
from types import ModuleType
from typing import Any, TypeAlias

import numpy as np

from reference.spaces._guards import is_box, is_multi_discrete
from reference.spaces.box import Box
from reference.spaces.discrete import Discrete
from reference.spaces.multi_binary import MultiBinary
from reference.spaces.multi_discrete import MultiDiscrete
from reference.spaces.space import Space
from reference.utils._format import describe

__all__ = ["batch_space", "concatenate", "create_empty_array", "iterate"]

_Batch: TypeAlias = Any

_FUNDAMENTAL = (Box, Discrete, MultiDiscrete, MultiBinary)


def _vector_utils(space: Space[Any], operation: str) -> ModuleType:
    try:
        return importlib.import_module("reference.vector.utils")
    except ImportError:
        raise TypeError(
            f"{operation} space must be a Box, Discrete, MultiDiscrete or MultiBinary here "
            f"(reference.vector.utils is not available for other spaces), got {describe(space)}"
        ) from None


def batch_space(space: Space[Any], n: int) -> Space[Any]:
    """Return the space of ``n`` stacked elements of ``space``; its generator is a copy of ``space``'s.

    Args:
        space: The element space.
        n: The batch size.

    Returns:
        The batched space.
    """
    if is_box(space):
        repeats = (n,) + (1,) * space.low.ndim
        low, high = np.tile(space.low, repeats), np.tile(space.high, repeats)
        return Box(low, high, dtype=space.dtype, seed=deepcopy(space.np_random))
    if isinstance(space, Discrete):
        return MultiDiscrete(
            np.full((n,), space.n, dtype=space.dtype),
            dtype=space.dtype,
            seed=deepcopy(space.np_random),
            start=np.full((n,), space.start, dtype=space.dtype),
        )
    if is_multi_discrete(space):
        repeats = (n,) + (1,) * space.nvec.ndim
        low = np.tile(space.start, repeats)
        high = low + np.tile(space.nvec, repeats) - 1
        return Box(low, high, dtype=space.dtype, seed=deepcopy(space.np_random))
    if isinstance(space, MultiBinary):
        return Box(0, 1, shape=(n, *space.shape), dtype=space.dtype, seed=deepcopy(space.np_random))
    return _vector_utils(space, "batch_space").batch_space(space, n)  # type: ignore[no-any-return]


def iterate(space: Space[Any], items: _Batch) -> Iterator[Any]:
    """Iterate over the elements of a batch of ``space``.

    Args:
        space: The batched space.
        items: A batch.

    Returns:
        An iterator over the elements.

    Raises:
        TypeError: ``items`` cannot be iterated.
    """
    if isinstance(space, (Box, MultiDiscrete, MultiBinary)):
        try:
            return iter(items)
        except TypeError:
            raise TypeError(f"iterate items must be iterable for {describe(space)}, got {type(items).__name__}") from None  # pyright: ignore[reportUnknownArgumentType]
    return _vector_utils(space, "iterate").iterate(space, items)  # type: ignore[no-any-return]


def create_empty_array(space: Space[Any], n: int) -> _Batch:
    """Return a zero batch of ``n`` elements of ``space``, to be filled by :func:`concatenate`.

    Args:
        space: The element space.
        n: The batch size.

    Returns:
        The batch buffer.
    """
    if isinstance(space, _FUNDAMENTAL):
        return np.zeros((n, *(space.shape or ())), dtype=space.dtype)  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
    return _vector_utils(space, "create_empty_array").create_empty_array(space, n)


def concatenate(space: Space[Any], items: Iterable[Any], out: _Batch) -> _Batch:
    """Stack elements of ``space`` into ``out``.

    Args:
        space: The element space.
        items: The elements.
        out: The buffer from :func:`create_empty_array`.

    Returns:
        The filled batch.
    """
    if isinstance(space, _FUNDAMENTAL):
        stacked = list(items)
        # np.stack rejects an empty list; an empty batch is simply the (empty) buffer.
        return np.stack(stacked, axis=0, out=out) if stacked else out
    return _vector_utils(space, "concatenate").concatenate(space, items, out)
