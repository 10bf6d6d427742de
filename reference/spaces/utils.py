"""Flattening: converting spaces and their elements to and from flat arrays.

Every function is a :func:`functools.singledispatch` function, so a custom space registers its own
implementation (``flatten.register(MySpace)(fn)``). Outputs match Gymnasium's value for value and dtype for dtype;
``Tuple``/``Dict`` spaces of plain Box/Discrete/MultiBinary leaves use a cached layout instead of dispatching per
leaf (see :mod:`reference.spaces._flat_plan`). ``flatdim``, ``flatten_space`` and ``is_space_dtype_shape_equiv``
live in their own private modules and are re-exported here, as in Gymnasium.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.spaces import _batching
from reference.spaces._dtype_shape_equiv import is_space_dtype_shape_equiv
from reference.spaces._flat_dims import flat_dtype, flatdim, require_flattenable_oneof
from reference.spaces._flat_plan import plan_for
from reference.spaces._flatten_space import flatten_space
from reference.spaces.box import Box
from reference.spaces.dict import Dict
from reference.spaces.discrete import Discrete
from reference.spaces.graph import Graph, GraphInstance
from reference.spaces.multi_binary import MultiBinary
from reference.spaces.multi_discrete import MultiDiscrete
from reference.spaces.oneof import OneOf
from reference.spaces.sequence import Sequence
from reference.spaces.space import Space
from reference.spaces.text import Text
from reference.spaces.tuple import Tuple
from reference.utils._format import describe

__all__ = [
    "FlatType",
    "flatdim",
    "flatten",
    "flatten_space",
    "is_space_dtype_shape_equiv",
    "unflatten",
]

#: What :func:`flatten` returns: an array for flattenable spaces, else a container of flattened parts.
FlatType: TypeAlias = NDArray[Any] | dict[str, Any] | tuple[Any, ...] | GraphInstance
_Element: TypeAlias = Any
_Array: TypeAlias = NDArray[Any]


# --- flatten ----------------------------------------------------------------------------------------------------


@singledispatch
def flatten(space: Space[Any], x: _Element) -> FlatType:
    """Flatten an element of ``space``.

    Box and MultiBinary elements are raveled; Discrete and MultiDiscrete become (concatenated) one-hot vectors;
    Text becomes ``max_length`` int32 character indices padded with ``len(charset)``; Tuple and Dict concatenate
    their parts when every part is flattenable, else keep the container; Graph flattens each node and edge.

    Args:
        space: The space ``x`` belongs to.
        x: The element.

    Returns:
        The flat array (or container of flattened parts).

    Raises:
        NotImplementedError: No implementation is registered for the space's type.
    """
    raise NotImplementedError(f"flatten space must be a registered space type, got {describe(space)}")


@flatten.register(Box)
@flatten.register(MultiBinary)
def _flatten_box_multibinary(space: Box[Any] | MultiBinary, x: _Element) -> _Array:
    return np.asarray(x, dtype=space.dtype).flatten()


@flatten.register(Discrete)
def _flatten_discrete(space: Discrete[Any], x: _Element) -> _Array:
    onehot = np.zeros(space.n, dtype=space.dtype)
    onehot[x - space.start] = 1
    return onehot


@flatten.register(MultiDiscrete)
def _flatten_multidiscrete(space: MultiDiscrete[Any], x: _Element) -> _Array:
    offsets = np.zeros((space.nvec.size + 1,), dtype=np.int32)
    offsets[1:] = np.cumsum(space.nvec.flatten())
    onehot = np.zeros((offsets[-1],), dtype=space.dtype)
    onehot[offsets[:-1] + (x - space.start).flatten()] = 1
    return onehot


def _concatenate_flat(subspaces: list[Space[Any]], parts: list[_Element]) -> _Array:
    return np.concatenate([np.array(flatten(s, part)) for s, part in zip(subspaces, parts, strict=True)])


@flatten.register(Tuple)
def _flatten_tuple(space: Tuple[Any], x: _Element) -> tuple[Any, ...] | _Array:
    parts = list(x)
    fast = plan_for(space, space.spaces).flatten(parts)
    if fast is not None:
        return fast
    if space.is_np_flattenable:
        return _concatenate_flat(list(space.spaces), parts)
    return tuple(flatten(s, part) for part, s in zip(x, space.spaces, strict=True))


@flatten.register(Dict)
def _flatten_dict(space: Dict[Any], x: _Element) -> dict[str, Any] | _Array:
    subspaces = tuple(space.spaces.values())
    parts = [x[key] for key in space.spaces]
    fast = plan_for(space, subspaces).flatten(parts)
    if fast is not None:
        return fast
    if space.is_np_flattenable:
        return _concatenate_flat(list(subspaces), parts)
    return {key: flatten(s, x[key]) for key, s in space.spaces.items()}


def _flatten_batch(space: Space[Any], batch_space: Space[Any], items: _Element) -> _Element:
    flat_space = flatten_space(space)
    flattened = [flatten(space, item) for item in _batching.iterate(batch_space, items)]
    out = _batching.create_empty_array(flat_space, len(flattened))
    return _batching.concatenate(flat_space, flattened, out)


@flatten.register(Graph)
def _flatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _flatten_batch(space.node_space, space.batch_node_space, x.nodes)
    edges = None
    if x.edges is not None:
        if space.edge_space is None or space.batch_edge_space is None:
            raise ValueError(f"flatten x must have no edges for a Graph without edge space, got {_describe_edges(x)}")
        edges = _flatten_batch(space.edge_space, space.batch_edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


def _describe_edges(x: GraphInstance) -> str:
    edges = x.edges
    return f"array(shape={edges.shape}, dtype={edges.dtype})" if isinstance(edges, np.ndarray) else repr(edges)  # pyright: ignore[reportUnknownMemberType]


@flatten.register(Text)
def _flatten_text(space: Text, x: str) -> _Array:
    arr = np.full((space.max_length,), len(space.character_set), dtype=np.int32)
    for i, char in enumerate(x):
        arr[i] = space.character_index(char)
    return arr


@flatten.register(Sequence)
def _flatten_sequence(space: Sequence, x: _Element) -> _Element:
    if space.stack:
        return _flatten_batch(space.feature_space, space.stacked_feature_space, x)
    return tuple(flatten(space.feature_space, item) for item in x)


@flatten.register(OneOf)
def _flatten_oneof(space: OneOf[Any], x: _Element) -> _Array:
    require_flattenable_oneof(space, "flatten")
    index, sample = x
    flat_sample = np.asarray(flatten(space.spaces[index], sample))
    width = flatdim(space) - 1
    if flat_sample.size < width:
        # Padding repeats the first entry (Gymnasium's choice); an empty alternative pads with zeros.
        fill = flat_sample[0] if flat_sample.size else 0
        padding = np.full(width - flat_sample.size, fill, dtype=flat_sample.dtype)
        flat_sample = np.concatenate([flat_sample, padding])
    dtype = flat_dtype(space)
    return np.concatenate([np.array([index], dtype=dtype), flat_sample.astype(dtype, copy=False)])


# --- unflatten --------------------------------------------------------------------------------------------------


@singledispatch
def unflatten(space: Space[Any], x: FlatType) -> _Element:
    """Invert :func:`flatten` (``space`` must be the space ``x`` was flattened with).

    Args:
        space: The space.
        x: The flattened element.

    Returns:
        The element.

    Raises:
        ValueError: ``x`` is not a valid flattened element (e.g. an all-zero one-hot vector), or has the wrong
            container type for ``space``.
        NotImplementedError: No implementation is registered for the space's type.
    """
    raise NotImplementedError(f"unflatten space must be a registered space type, got {describe(space)}")


@unflatten.register(Box)
@unflatten.register(MultiBinary)
def _unflatten_box_multibinary(space: Box[Any] | MultiBinary, x: _Element) -> _Array:
    return np.asarray(x, dtype=space.dtype).reshape(space.shape)


@unflatten.register(Discrete)
def _unflatten_discrete(space: Discrete[Any], x: _Element) -> _Element:
    nonzero = np.nonzero(x)[0]
    if len(nonzero) == 0:
        raise ValueError(
            f"unflatten x must be a one-hot vector for {space}, got {describe(x)} with no non-zero entry "
            "(not every element of the flattened space can be unflattened)"
        )
    return space.start + nonzero[0].astype(space.dtype)


@unflatten.register(MultiDiscrete)
def _unflatten_multidiscrete(space: MultiDiscrete[Any], x: _Element) -> _Array:
    offsets = np.zeros((space.nvec.size + 1,), dtype=space.dtype)
    offsets[1:] = np.cumsum(space.nvec.flatten())
    (indices,) = np.nonzero(x)
    if len(indices) == 0:
        raise ValueError(
            f"unflatten x must concatenate one-hot vectors for {space}, got {describe(x)} with no non-zero entry "
            "(not every element of the flattened space can be unflattened)"
        )
    values: _Array = np.asarray(indices - offsets[:-1], dtype=space.dtype).reshape(space.shape)
    shifted: _Array = values + space.start
    return shifted


def _unflatten_parts(space: Space[Any], subspaces: tuple[Space[Any], ...], x: _Array) -> list[_Element]:
    """Split ``x`` like ``np.split(x, cumsum(dims[:-1]))`` (views; the last runs to the end) and unflatten each."""
    plan = plan_for(space, subspaces)
    pieces = plan.split(x)
    if pieces is not None and plan.leaves is not None:
        # Plain leaves: call the implementations directly instead of dispatching.
        return [
            _unflatten_discrete(leaf.space, piece) if leaf.discrete else np.asarray(piece, dtype=leaf.dtype).reshape(leaf.shape)  # type: ignore[arg-type]
            for leaf, piece in zip(plan.leaves, pieces, strict=True)
        ]
    dims = np.asarray([flatdim(s) for s in subspaces], dtype=np.int_)
    return [unflatten(s, piece) for s, piece in zip(subspaces, np.split(x, np.cumsum(dims[:-1])), strict=True)]


@unflatten.register(Tuple)
def _unflatten_tuple(space: Tuple[Any], x: _Element) -> tuple[Any, ...]:
    if space.is_np_flattenable:
        if not isinstance(x, np.ndarray):
            raise ValueError(f"unflatten x must be a numpy array for the flattenable {space}, got {type(x).__name__}")
        return tuple(_unflatten_parts(space, space.spaces, x))  # pyright: ignore[reportUnknownArgumentType]
    if not isinstance(x, tuple):
        raise ValueError(f"unflatten x must be a tuple for the non-flattenable {space}, got {type(x).__name__}")
    return tuple(unflatten(s, part) for part, s in zip(x, space.spaces, strict=True))  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]


@unflatten.register(Dict)
def _unflatten_dict(space: Dict[Any], x: _Element) -> dict[str, Any]:
    if space.is_np_flattenable:
        if not isinstance(x, np.ndarray):
            raise ValueError(f"unflatten x must be a numpy array for the flattenable {space}, got {type(x).__name__}")
        return dict(zip(space.spaces, _unflatten_parts(space, tuple(space.spaces.values()), x), strict=True))  # pyright: ignore[reportUnknownArgumentType]
    if not isinstance(x, dict):
        raise ValueError(f"unflatten x must be a dict for the non-flattenable {space}, got {type(x).__name__}")
    return {key: unflatten(s, x[key]) for key, s in space.spaces.items()}


def _unflatten_batch(space: Space[Any], items: _Element) -> _Element:
    flat_items = list(_batching.iterate(flatten_space(space), items))
    unflat = [unflatten(space, item) for item in flat_items]
    out = _batching.create_empty_array(space, len(unflat))
    return _batching.concatenate(space, unflat, out)


@unflatten.register(Graph)
def _unflatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    nodes = _unflatten_batch(space.node_space, x.nodes)
    edges = None
    if x.edges is not None:
        if space.edge_space is None:
            raise ValueError(f"unflatten x must have no edges for a Graph without edge space, got {_describe_edges(x)}")
        edges = _unflatten_batch(space.edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


@unflatten.register(Text)
def _unflatten_text(space: Text, x: _Element) -> str:
    chars = space.character_list
    # int() also accepts the float indices a Text gets inside a float-flattened Tuple/Dict (Gymnasium fails there).
    return "".join(chars[int(val)] for val in x if val < len(chars))


@unflatten.register(Sequence)
def _unflatten_sequence(space: Sequence, x: _Element) -> _Element:
    if space.stack:
        return _unflatten_batch(space.feature_space, x)
    return tuple(unflatten(space.feature_space, item) for item in x)


@unflatten.register(OneOf)
def _unflatten_oneof(space: OneOf[Any], x: _Element) -> tuple[Any, Any]:
    require_flattenable_oneof(space, "unflatten")
    index = np.int64(x[0])
    subspace = space.spaces[index]
    size = flatdim(subspace)
    trimmed = x[1 : 1 + size].astype(flat_dtype(subspace))
    return index, unflatten(subspace, trimmed)
