"""Batched spaces for vector environments (Gymnasium-compatible results).

* :func:`batch_space` — the space of ``n`` stacked elements of one space;
* :func:`batch_differing_spaces` — the same for ``n`` spaces that differ only in bounds/sizes.

Array-valued spaces (Box, Discrete, MultiDiscrete, MultiBinary) batch into one array space with a leading ``n``
axis; Tuple and Dict batch component-wise; spaces without a fixed shape (Text, Sequence, Graph, OneOf and
user-defined spaces) batch into a ``Tuple`` of ``n`` copies. :func:`batch_space` is a
:func:`functools.singledispatch` function, so a user-defined space can register its own implementation.
"""

from __future__ import annotations

from collections.abc import Sequence as PySequence
from copy import deepcopy
from functools import singledispatch
from typing import Any, TypeAlias

import numpy as np

from reference.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
)
from reference.vector.utils._errors import not_a_space

__all__ = ["batch_differing_spaces", "batch_space"]

_AnySpace: TypeAlias = Space[Any]


def _rng_copy(space: _AnySpace) -> np.random.Generator:
    # The batched space starts from the same random state as the single one, but must not share it: sampling one
    # must not advance the other.
    return deepcopy(space.np_random)


# --- batch_space ------------------------------------------------------------------------------------------------


@singledispatch
def batch_space(space: _AnySpace, n: int = 1) -> _AnySpace:
    """Return the space of ``n`` stacked elements of ``space``.

    Box of shape ``S`` → Box of shape ``(n, *S)`` with tiled bounds; Discrete → MultiDiscrete; MultiDiscrete and
    MultiBinary → Box; Tuple/Dict → component-wise; any other space → a ``Tuple`` of ``n`` independently seeded
    copies. The result's generator is a copy of ``space``'s, so seeded sampling is reproducible.

    Args:
        space: The single space, e.g. one sub-environment's observation space.
        n: The batch size (number of sub-environments).

    Returns:
        The batched space.

    Raises:
        TypeError: ``space`` is not a space.
    """
    raise not_a_space("batch_space", space)


@batch_space.register(Box)
def _batch_space_box(space: Box[Any], n: int = 1) -> Box[Any]:
    repeats = (n,) + (1,) * space.low.ndim
    low, high = np.tile(space.low, repeats), np.tile(space.high, repeats)
    return Box(low=low, high=high, dtype=space.dtype, seed=_rng_copy(space))


@batch_space.register(Discrete)
def _batch_space_discrete(space: Discrete[Any], n: int = 1) -> MultiDiscrete[Any]:
    return MultiDiscrete(
        np.full((n,), space.n, dtype=space.dtype),
        dtype=space.dtype,
        seed=_rng_copy(space),
        start=np.full((n,), space.start, dtype=space.dtype),
    )


@batch_space.register(MultiDiscrete)
def _batch_space_multi_discrete(space: MultiDiscrete[Any], n: int = 1) -> Box[Any]:
    repeats = (n,) + (1,) * space.nvec.ndim
    low = np.tile(space.start, repeats)
    high = low + np.tile(space.nvec, repeats) - 1
    return Box(low=low, high=high, dtype=space.dtype, seed=_rng_copy(space))


@batch_space.register(MultiBinary)
def _batch_space_multi_binary(space: MultiBinary, n: int = 1) -> Box[Any]:
    return Box(low=0, high=1, shape=(n, *space.shape), dtype=space.dtype, seed=_rng_copy(space))


@batch_space.register(Tuple)
def _batch_space_tuple(space: Tuple[Any], n: int = 1) -> Tuple[Any]:
    return Tuple(tuple(batch_space(subspace, n) for subspace in space.spaces), seed=_rng_copy(space))


@batch_space.register(Dict)
def _batch_space_dict(space: Dict[Any], n: int = 1) -> Dict[Any]:
    return Dict(
        {key: batch_space(subspace, n) for key, subspace in space.spaces.items()},
        seed=_rng_copy(space),
        sort_keys=space.sort_keys,
    )


@batch_space.register(Graph)
@batch_space.register(Text)
@batch_space.register(Sequence)
@batch_space.register(OneOf)
@batch_space.register(Space)
def _batch_space_opaque(space: _AnySpace, n: int = 1) -> Tuple[Any]:
    batched: Tuple[Any] = Tuple(tuple(deepcopy(space) for _ in range(n)), seed=_rng_copy(space))
    # Each copy gets its own seed, drawn (as Gymnasium does) from a copy of the single space's generator, so the
    # n copies do not all sample the same values.
    seeds = [int(seed) for seed in _rng_copy(space).integers(0, int(1e8), n)]
    batched.seed(seeds)
    return batched


# --- batch_differing_spaces -------------------------------------------------------------------------------------


def batch_differing_spaces(spaces: PySequence[_AnySpace]) -> _AnySpace:
    """Batch ``n`` spaces of one type that may differ in bounds or sizes (not in shape or dtype).

    Box → Box stacking each space's bounds; Discrete → MultiDiscrete of the sizes and starts; MultiDiscrete and
    MultiBinary → Box; Tuple/Dict → component-wise; Text, Sequence, Graph and OneOf → a ``Tuple`` of copies.

    Args:
        spaces: One space per sub-environment, all of the same type.

    Returns:
        The batched space; its generator is a copy of the first space's.

    Raises:
        ValueError: ``spaces`` is empty, or the spaces differ in dtype, shape or keys.
        TypeError: The spaces are of different types, or of a type with no registered implementation.
    """
    if len(spaces) == 0:
        raise ValueError("batch_differing_spaces spaces must be a non-empty sequence of spaces, got an empty one")
    first_type = type(spaces[0])
    if not all(type(space) is first_type for space in spaces):
        raise TypeError(
            "batch_differing_spaces spaces must all have the same type, "
            f"got {[type(space).__name__ for space in spaces]}"
        )
    implementation = _batch_differing.dispatch(first_type)
    if implementation is _batch_differing.dispatch(object):
        raise TypeError(
            "batch_differing_spaces spaces must be of a type with a registered implementation, "
            f"got {first_type.__name__}"
        )
    return implementation(spaces[0], spaces)


@singledispatch
def _batch_differing(first: object, spaces: PySequence[Any]) -> _AnySpace:
    raise TypeError(
        f"batch_differing_spaces spaces must be of a type with a registered implementation, got {type(first).__name__}"
    )


def _require_equal(what: str, values: list[Any]) -> None:
    if any(value != values[0] for value in values[1:]):
        raise ValueError(f"batch_differing_spaces spaces must all have the same {what}, got {values}")


@_batch_differing.register(Box)
def _batch_differing_box(first: Box[Any], spaces: PySequence[Box[Any]]) -> Box[Any]:
    _require_equal("dtype", [space.dtype for space in spaces])
    _require_equal("shape", [space.low.shape for space in spaces])
    return Box(
        low=np.array([space.low for space in spaces]),
        high=np.array([space.high for space in spaces]),
        dtype=first.dtype,
        seed=_rng_copy(first),
    )


@_batch_differing.register(Discrete)
def _batch_differing_discrete(first: Discrete[Any], spaces: PySequence[Discrete[Any]]) -> MultiDiscrete[Any]:
    # The widest dtype holds every space's values.
    widest = max((space.dtype for space in spaces), key=lambda dtype: dtype.itemsize)
    return MultiDiscrete(
        np.array([space.n for space in spaces]),
        dtype=widest,
        start=np.array([space.start for space in spaces]),
        seed=_rng_copy(first),
    )


@_batch_differing.register(MultiDiscrete)
def _batch_differing_multi_discrete(first: MultiDiscrete[Any], spaces: PySequence[MultiDiscrete[Any]]) -> Box[Any]:
    _require_equal("dtype", [space.dtype for space in spaces])
    _require_equal("shape", [space.nvec.shape for space in spaces])
    return Box(
        low=np.array([space.start for space in spaces]),
        high=np.array([space.start + space.nvec for space in spaces]) - 1,
        dtype=first.dtype,
        seed=_rng_copy(first),
    )


@_batch_differing.register(MultiBinary)
def _batch_differing_multi_binary(first: MultiBinary, spaces: PySequence[MultiBinary]) -> Box[Any]:
    _require_equal("shape", [space.shape for space in spaces])
    return Box(low=0, high=1, shape=(len(spaces), *first.shape), dtype=first.dtype, seed=_rng_copy(first))


@_batch_differing.register(Tuple)
def _batch_differing_tuple(first: Tuple[Any], spaces: PySequence[Tuple[Any]]) -> Tuple[Any]:
    _require_equal("length", [len(space.spaces) for space in spaces])
    columns = zip(*(space.spaces for space in spaces), strict=True)
    return Tuple(tuple(batch_differing_spaces(column) for column in columns), seed=_rng_copy(first))


@_batch_differing.register(Dict)
def _batch_differing_dict(first: Dict[Any], spaces: PySequence[Dict[Any]]) -> Dict[Any]:
    _require_equal("keys", [list(space.keys()) for space in spaces])
    return Dict(
        {key: batch_differing_spaces([space[key] for space in spaces]) for key in first.keys()},
        seed=_rng_copy(first),
        sort_keys=first.sort_keys,
    )


@_batch_differing.register(Graph)
@_batch_differing.register(Text)
@_batch_differing.register(Sequence)
@_batch_differing.register(OneOf)
def _batch_differing_opaque(first: _AnySpace, spaces: PySequence[_AnySpace]) -> Tuple[Any]:
    return Tuple([deepcopy(space) for space in spaces], seed=_rng_copy(first))
