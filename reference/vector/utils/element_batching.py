"""Batching the elements of spaces for vector environments (Gymnasium-compatible results).

* :func:`iterate` — split a batch back into its ``n`` elements;
* :func:`concatenate` — stack ``n`` elements into a batch buffer;
* :func:`create_empty_array` — allocate that buffer.

Array-valued spaces (Box, Discrete, MultiDiscrete, MultiBinary) batch into one array with a leading ``n`` axis;
Tuple and Dict batch component-wise; spaces without a fixed shape (Text, Sequence, Graph, OneOf and user-defined
spaces) batch into a Python tuple of their elements. Every function is a :func:`functools.singledispatch`
function, so a user-defined space can register its own implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import singledispatch
from typing import Any, NoReturn, TypeAlias

import numpy as np

from reference.error import CustomSpaceError
from reference.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    GraphInstance,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
)
from reference.vector.utils._errors import not_a_space

__all__ = ["concatenate", "create_empty_array", "iterate"]

#: A batch of elements: an array, a (nested) tuple or dict of arrays, or a tuple of opaque elements.
Batch: TypeAlias = Any
#: One element of a space.
Element: TypeAlias = Any
#: An array allocator with ``numpy.zeros``' signature (``np.zeros``, ``np.empty``, ``np.ones``, ...).
ArrayFactory: TypeAlias = Callable[..., Any]
_AnySpace: TypeAlias = Space[Any]



# --- iterate ----------------------------------------------------------------------------------------------------


@singledispatch
def iterate(space: _AnySpace, items: Batch) -> Iterator[Element]:
    """Iterate over the elements of a batch of a (batched) space.

    Args:
        space: The batched space, e.g. a vector environment's ``action_space``.
        items: A batch, e.g. ``action_space.sample()``.

    Returns:
        An iterator over the ``n`` elements, in order.

    Raises:
        CustomSpaceError: ``space`` is a user-defined space with no registered implementation.
        TypeError: ``space`` is not a space, is a ``Discrete`` (never a batched space), or ``items`` cannot be
            iterated.
    """
    if isinstance(space, Space):
        raise CustomSpaceError(
            f"iterate space must have a registered iterate implementation, got {type(space).__name__}; "
            f"register one with @iterate.register({type(space).__name__})"
        )
    raise not_a_space("iterate", space)


def _has_iterate(space: _AnySpace) -> bool:
    return iterate.dispatch(type(space)) is not iterate.dispatch(object)


@iterate.register(Discrete)
def _iterate_discrete(space: Discrete[Any], items: Batch) -> NoReturn:
    raise TypeError(f"iterate space must be a batched space, got {space!r} (a Discrete space is never batched)")


@iterate.register(Box)
@iterate.register(MultiDiscrete)
@iterate.register(MultiBinary)
def _iterate_array(space: _AnySpace, items: Batch) -> Iterator[Element]:
    try:
        return iter(items)
    except TypeError as exc:
        raise TypeError(f"iterate items must be iterable for {space!r}, got {type(items).__name__}: {items!r}") from exc


@iterate.register(Tuple)
def _iterate_tuple(space: Tuple[Any], items: Batch) -> Iterator[Element]:
    # A batched Tuple is either component-wise (a Tuple of batched spaces: zip the components) or the Tuple of
    # copies that batches an opaque space (its batch is already a tuple of elements).
    if all(_has_iterate(subspace) for subspace in space.spaces):
        return zip(*(iterate(subspace, items[i]) for i, subspace in enumerate(space.spaces)), strict=True)
    try:
        return iter(items)
    except TypeError as exc:
        unregistered = [type(s).__name__ for s in space.spaces if not _has_iterate(s)]
        raise CustomSpaceError(
            f"iterate items must be iterable for {space!r} (no iterate implementation for {unregistered}), "
            f"got {type(items).__name__}"
        ) from exc


@iterate.register(Dict)
def _iterate_dict(space: Dict[Any], items: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    keys = list(space.spaces.keys())
    columns = [iterate(space.spaces[key], items[key]) for key in keys]
    return (dict(zip(keys, row, strict=True)) for row in zip(*columns, strict=True))


# --- concatenate ------------------------------------------------------------------------------------------------


@singledispatch
def concatenate(space: _AnySpace, items: Iterable[Element], out: Batch) -> Batch:
    """Stack elements of ``space`` into one batch.

    Args:
        space: The single space the elements belong to.
        items: The elements, one per sub-environment.
        out: The buffer from :func:`create_empty_array`; array leaves are written in place.

    Returns:
        The batch: ``out`` itself for array spaces, a new tuple/dict around the written leaves for composite
        spaces, or a tuple of the elements for opaque spaces.

    Raises:
        TypeError: ``space`` is not a space.
    """
    raise not_a_space("concatenate", space)


@concatenate.register(Box)
@concatenate.register(Discrete)
@concatenate.register(MultiDiscrete)
@concatenate.register(MultiBinary)
def _concatenate_array(space: _AnySpace, items: Iterable[Element], out: Batch) -> Batch:
    return np.stack(list(items), axis=0, out=out)


@concatenate.register(Tuple)
def _concatenate_tuple(space: Tuple[Any], items: Iterable[Element], out: Batch) -> tuple[Any, ...]:
    elements = list(items)
    return tuple(
        concatenate(subspace, [element[i] for element in elements], out[i]) for i, subspace in enumerate(space.spaces)
    )


@concatenate.register(Dict)
def _concatenate_dict(space: Dict[Any], items: Iterable[Element], out: Batch) -> dict[str, Any]:
    elements = list(items)
    return {
        key: concatenate(subspace, [element[key] for element in elements], out[key])
        for key, subspace in space.spaces.items()
    }


@concatenate.register(Graph)
@concatenate.register(Text)
@concatenate.register(Sequence)
@concatenate.register(OneOf)
@concatenate.register(Space)
def _concatenate_opaque(space: _AnySpace, items: Iterable[Element], out: Batch) -> tuple[Any, ...]:
    return tuple(items)


# --- create_empty_array -----------------------------------------------------------------------------------------


@singledispatch
def create_empty_array(space: _AnySpace, n: int = 1, fn: ArrayFactory = np.zeros) -> Batch:
    """Allocate a batch buffer for ``n`` elements of ``space``, to be filled by :func:`concatenate`.

    The buffer is not necessarily an element of the batched space (zeros may lie outside a Box's bounds).

    Args:
        space: The single space.
        n: The batch size.
        fn: The allocator for array leaves, called as ``fn(shape, dtype=dtype)``.

    Returns:
        An array, a (nested) tuple/dict of arrays, a tuple of placeholder elements, or ``None`` for a
        user-defined space.

    Raises:
        TypeError: ``space`` is not a space.
    """
    raise not_a_space("create_empty_array", space)


@create_empty_array.register(Box)
@create_empty_array.register(Discrete)
@create_empty_array.register(MultiDiscrete)
@create_empty_array.register(MultiBinary)
def _create_empty_array_array(space: _AnySpace, n: int = 1, fn: ArrayFactory = np.zeros) -> Batch:
    return fn((n, *(space.shape or ())), dtype=space.dtype)


@create_empty_array.register(Tuple)
def _create_empty_array_tuple(space: Tuple[Any], n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[Any, ...]:
    return tuple(create_empty_array(subspace, n, fn) for subspace in space.spaces)


@create_empty_array.register(Dict)
def _create_empty_array_dict(space: Dict[Any], n: int = 1, fn: ArrayFactory = np.zeros) -> dict[str, Any]:
    return {key: create_empty_array(subspace, n, fn) for key, subspace in space.spaces.items()}


@create_empty_array.register(Graph)
def _create_empty_array_graph(space: Graph, n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[GraphInstance, ...]:
    def one() -> GraphInstance:
        has_edges = space.edge_space is not None
        return GraphInstance(
            nodes=create_empty_array(space.node_space, 1, fn),
            edges=create_empty_array(space.edge_space, 1, fn) if space.edge_space is not None else None,
            edge_links=fn((1, 2), dtype=np.int64) if has_edges else None,
        )

    return tuple(one() for _ in range(n))


@create_empty_array.register(Text)
def _create_empty_array_text(space: Text, n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[str, ...]:
    filler = space.characters[:1] * space.min_length
    return tuple(filler for _ in range(n))


@create_empty_array.register(Sequence)
def _create_empty_array_sequence(space: Sequence, n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[Any, ...]:
    if space.stack:
        return tuple(create_empty_array(space.feature_space, 1, fn) for _ in range(n))
    return tuple(() for _ in range(n))


@create_empty_array.register(OneOf)
def _create_empty_array_oneof(space: OneOf[Any], n: int = 1, fn: ArrayFactory = np.zeros) -> tuple[Any, ...]:
    return tuple(() for _ in range(n))


@create_empty_array.register(Space)
def _create_empty_array_custom(space: _AnySpace, n: int = 1, fn: ArrayFactory = np.zeros) -> None:
    return None
