"""Flattening: converting spaces and their elements to and from flat arrays.

Every function is a :func:`functools.singledispatch` function, so a custom space registers its own
implementation (``flatten.register(MySpace)(fn)``). Outputs match Gymnasium's value for value and dtype for dtype;
``Tuple``/``Dict`` spaces of plain Box/Discrete/MultiBinary leaves use a cached layout instead of dispatching per
leaf (see :mod:`reference.spaces._flat_plan`). ``flatdim``, ``flatten_space`` and ``is_space_dtype_shape_equiv``
live in their own private modules and are re-exported here, as in Gymnasium.
"""

from __future__ import annotations

import math
import operator
from functools import singledispatch
from typing import Any, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_dict, is_tuple
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

# What NumPy and Python raise when an element has the wrong type, shape, keys or length: each becomes one
# ElementError naming the space (a nested part's own ElementError passes through unchanged).
_MALFORMED = (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError)


class ElementError(ValueError):
    """``flatten``/``unflatten`` was given something that is not a (flattened) element of the space."""


def _not_element(operation: str, space: Space[Any], x: object, expectation: str = "") -> ElementError:
    what = expectation or f"an element of {space}"
    return ElementError(f"{operation} x must be {what}, got {describe(x)}")


def _require_space(operation: str, space: object) -> None:
    # A non-space gets a TypeError; an unregistered Space subclass keeps Gymnasium's NotImplementedError.
    if not isinstance(space, Space):
        raise TypeError(f"{operation} space must be a Space, got {describe(space)}")


def _flat_vector(operation: str, space: Space[Any], x: _Element, size: int) -> _Array:
    """``x`` as the 1-D array of ``size`` entries a flattened element of ``space`` is."""
    try:
        flat = np.asarray(x)
    except (TypeError, ValueError):  # a ragged sequence
        raise _not_element(operation, space, x, f"a 1-D array of {size} numbers for {space}") from None
    if flat.ndim != 1 or flat.shape[0] != size or flat.dtype.kind not in "biuf":
        raise _not_element(operation, space, x, f"a 1-D array of {size} numbers for {space}")
    return flat


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
        TypeError: ``space`` is not a space.
        ValueError: ``x`` is not an element of ``space`` (of its type, shape, range, keys or length).
        NotImplementedError: No implementation is registered for the space's type.
    """
    _require_space("flatten", space)
    raise NotImplementedError(f"flatten space must be a registered space type, got {describe(space)}")


@flatten.register(Box)
@flatten.register(MultiBinary)
def _flatten_box_multibinary(space: Box[Any] | MultiBinary, x: _Element) -> _Array:
    try:
        flat = np.asarray(x, dtype=space.dtype).flatten()
    except _MALFORMED as exc:
        raise _not_element("flatten", space, x) from exc
    if flat.size != math.prod(space.shape):
        raise _not_element("flatten", space, x, f"an array of shape {space.shape} for {space}")
    return flat


def _discrete_index(operation: str, space: Discrete[Any], x: _Element) -> int:
    """The position of ``x`` in ``space`` (``x - start``), checked to be in range."""
    try:
        index = operator.index(x) - int(space.start)
    except TypeError:
        raise _not_element(operation, space, x) from None
    if not 0 <= index < int(space.n):
        raise _not_element(operation, space, x)
    return index


@flatten.register(Discrete)
def _flatten_discrete(space: Discrete[Any], x: _Element) -> _Array:
    onehot = np.zeros(space.n, dtype=space.dtype)
    onehot[_discrete_index("flatten", space, x)] = 1
    return onehot


@flatten.register(MultiDiscrete)
def _flatten_multidiscrete(space: MultiDiscrete[Any], x: _Element) -> _Array:
    try:
        values = np.asarray(x)
    except (TypeError, ValueError):  # a ragged sequence
        raise _not_element("flatten", space, x) from None
    if values.shape != space.shape or values.dtype.kind not in "iu":
        raise _not_element("flatten", space, x, f"an int array of shape {space.shape} for {space}")
    positions = values - space.start
    if np.any(positions < 0) or np.any(positions >= space.nvec):
        raise _not_element("flatten", space, x)
    offsets = np.zeros((space.nvec.size + 1,), dtype=np.int32)
    offsets[1:] = np.cumsum(space.nvec.flatten())
    onehot = np.zeros((offsets[-1],), dtype=space.dtype)
    onehot[offsets[:-1] + positions.flatten()] = 1
    return onehot


def _concatenate_flat(subspaces: list[Space[Any]], parts: list[_Element]) -> _Array:
    return np.concatenate([np.array(flatten(s, part)) for s, part in zip(subspaces, parts, strict=True)])


@flatten.register(Tuple)
def _flatten_tuple(space: Tuple[Any], x: _Element) -> tuple[Any, ...] | _Array:
    try:
        parts = list(x)
    except TypeError:
        raise _not_element("flatten", space, x) from None
    if len(parts) != len(space.spaces):
        raise _not_element("flatten", space, x, f"a tuple of {len(space.spaces)} parts for {space}")
    fast = plan_for(space, space.spaces).flatten(parts)
    if fast is not None:
        return fast
    if space.is_np_flattenable:
        return _concatenate_flat(list(space.spaces), parts)
    return tuple(flatten(s, part) for part, s in zip(parts, space.spaces, strict=True))


@flatten.register(Dict)
def _flatten_dict(space: Dict[Any], x: _Element) -> dict[str, Any] | _Array:
    subspaces = tuple(space.spaces.values())
    try:
        parts = [x[key] for key in space.spaces]
    except (TypeError, KeyError, IndexError):
        raise _not_element("flatten", space, x, f"a dict with the keys {list(space.spaces)}") from None
    fast = plan_for(space, subspaces).flatten(parts)
    if fast is not None:
        return fast
    if space.is_np_flattenable:
        return _concatenate_flat(list(subspaces), parts)
    return {key: flatten(s, part) for (key, s), part in zip(space.spaces.items(), parts, strict=True)}


def _flatten_batch(space: Space[Any], batch_space: Space[Any], items: _Element) -> _Element:
    flat_space = flatten_space(space)
    try:
        flattened = [flatten(space, item) for item in _batching.iterate(batch_space, items)]
        out = _batching.create_empty_array(flat_space, len(flattened))
        return _batching.concatenate(flat_space, flattened, out)
    except ElementError:
        raise
    except _MALFORMED as exc:
        raise _not_element("flatten", batch_space, items) from exc


def _require_graph_instance(operation: str, space: Graph, x: object) -> GraphInstance:
    if not all(hasattr(x, name) for name in ("nodes", "edges", "edge_links")):
        raise _not_element(operation, space, x, f"a GraphInstance for {space}")
    return cast(GraphInstance, x)


@flatten.register(Graph)
def _flatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    x = _require_graph_instance("flatten", space, x)
    nodes = _flatten_batch(space.node_space, space.batch_node_space, x.nodes)
    edges = None
    if x.edges is not None:
        if space.edge_space is None or space.batch_edge_space is None:
            raise ElementError(f"flatten x must have no edges for a Graph without edge space, got {_describe_edges(x)}")
        edges = _flatten_batch(space.edge_space, space.batch_edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


def _describe_edges(x: GraphInstance) -> str:
    edges = x.edges
    return f"array(shape={edges.shape}, dtype={edges.dtype})" if isinstance(edges, np.ndarray) else repr(edges)  # pyright: ignore[reportUnknownMemberType]


@flatten.register(Text)
def _flatten_text(space: Text, x: str) -> _Array:
    if not isinstance(x, str) or len(x) > space.max_length:
        raise _not_element("flatten", space, x, f"a string of at most {space.max_length} characters")
    arr = np.full((space.max_length,), len(space.character_set), dtype=np.int32)
    try:
        for i, char in enumerate(x):
            arr[i] = space.character_index(char)
    except KeyError:
        raise _not_element("flatten", space, x, f"a string of the characters of {space}") from None
    return arr


@flatten.register(Sequence)
def _flatten_sequence(space: Sequence, x: _Element) -> _Element:
    if space.stack:
        return _flatten_batch(space.feature_space, space.stacked_feature_space, x)
    try:
        items = tuple(x)
    except TypeError:
        raise _not_element("flatten", space, x) from None
    return tuple(flatten(space.feature_space, item) for item in items)


def _oneof_part(operation: str, space: OneOf[Any], x: _Element) -> tuple[int, _Element]:
    """``x``'s ``(index, sample)``, the index checked to name one of the subspaces."""
    try:
        index, sample = x
        position = operator.index(index)
    except (TypeError, ValueError):
        raise _not_element(operation, space, x, f"an (index, sample) pair for {space}") from None
    if not 0 <= position < len(space.spaces):
        raise _not_element(operation, space, x, f"an (index, sample) pair for {space}")
    return position, sample


@flatten.register(OneOf)
def _flatten_oneof(space: OneOf[Any], x: _Element) -> _Array:
    require_flattenable_oneof(space, "flatten")
    index, sample = _oneof_part("flatten", space, x)
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
        TypeError: ``space`` is not a space.
        ValueError: ``x`` is not a valid flattened element (e.g. an all-zero one-hot vector, or the wrong size),
            or has the wrong container type for ``space``.
        NotImplementedError: No implementation is registered for the space's type.
    """
    _require_space("unflatten", space)
    raise NotImplementedError(f"unflatten space must be a registered space type, got {describe(space)}")


@unflatten.register(Box)
@unflatten.register(MultiBinary)
def _unflatten_box_multibinary(space: Box[Any] | MultiBinary, x: _Element) -> _Array:
    try:
        return np.asarray(x, dtype=space.dtype).reshape(space.shape)
    except _MALFORMED as exc:
        raise _not_element("unflatten", space, x, f"{math.prod(space.shape)} numbers for {space}") from exc


@unflatten.register(Discrete)
def _unflatten_discrete(space: Discrete[Any], x: _Element) -> _Element:
    nonzero = np.nonzero(_flat_vector("unflatten", space, x, int(space.n)))[0]
    if len(nonzero) == 0:
        raise ElementError(
            f"unflatten x must be a one-hot vector for {space}, got {describe(x)} with no non-zero entry "
            "(not every element of the flattened space can be unflattened)"
        )
    return space.start + nonzero[0].astype(space.dtype)


@unflatten.register(MultiDiscrete)
def _unflatten_multidiscrete(space: MultiDiscrete[Any], x: _Element) -> _Array:
    offsets = np.zeros((space.nvec.size + 1,), dtype=space.dtype)
    offsets[1:] = np.cumsum(space.nvec.flatten())
    # The size in Python ints: offsets has the space's dtype, which the sum may overflow (int8, say).
    (indices,) = np.nonzero(_flat_vector("unflatten", space, x, sum(int(n) for n in space.nvec.flat)))
    if len(indices) == 0:
        raise ElementError(
            f"unflatten x must concatenate one-hot vectors for {space}, got {describe(x)} with no non-zero entry "
            "(not every element of the flattened space can be unflattened)"
        )
    if len(indices) != space.nvec.size:
        raise ElementError(
            f"unflatten x must concatenate one one-hot vector per dimension of {space}, got {describe(x)} with "
            f"{len(indices)} non-zero entries"
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
            raise ElementError(f"unflatten x must be a numpy array for the flattenable {space}, got {type(x).__name__}")
        return tuple(_unflatten_parts(space, space.spaces, x))  # pyright: ignore[reportUnknownArgumentType]
    if not is_tuple(x) or len(x) != len(space.spaces):
        raise ElementError(
            f"unflatten x must be a tuple of {len(space.spaces)} parts for the non-flattenable {space}, got {describe(x)}"
        )
    return tuple(unflatten(s, part) for part, s in zip(x, space.spaces, strict=True))


@unflatten.register(Dict)
def _unflatten_dict(space: Dict[Any], x: _Element) -> dict[str, Any]:
    if space.is_np_flattenable:
        if not isinstance(x, np.ndarray):
            raise ElementError(f"unflatten x must be a numpy array for the flattenable {space}, got {type(x).__name__}")
        return dict(zip(space.spaces, _unflatten_parts(space, tuple(space.spaces.values()), x), strict=True))  # pyright: ignore[reportUnknownArgumentType]
    if not is_dict(x) or not set(space.spaces) <= set(x):
        raise ElementError(
            f"unflatten x must be a dict with the keys {list(space.spaces)} for the non-flattenable {space}, "
            f"got {describe(x)}"
        )
    return {key: unflatten(s, x[key]) for key, s in space.spaces.items()}


def _unflatten_batch(space: Space[Any], items: _Element) -> _Element:
    try:
        flat_items = list(_batching.iterate(flatten_space(space), items))
        unflat = [unflatten(space, item) for item in flat_items]
        out = _batching.create_empty_array(space, len(unflat))
        return _batching.concatenate(space, unflat, out)
    except ElementError:
        raise
    except _MALFORMED as exc:
        raise _not_element("unflatten", space, items, f"a batch of flattened elements of {space}") from exc


@unflatten.register(Graph)
def _unflatten_graph(space: Graph, x: GraphInstance) -> GraphInstance:
    x = _require_graph_instance("unflatten", space, x)
    nodes = _unflatten_batch(space.node_space, x.nodes)
    edges = None
    if x.edges is not None:
        if space.edge_space is None:
            raise ElementError(f"unflatten x must have no edges for a Graph without edge space, got {_describe_edges(x)}")
        edges = _unflatten_batch(space.edge_space, x.edges)
    return GraphInstance(nodes, edges, x.edge_links)


@unflatten.register(Text)
def _unflatten_text(space: Text, x: _Element) -> str:
    chars = space.character_list
    codes = _flat_vector("unflatten", space, x, space.max_length)
    if np.any(codes < 0):
        raise _not_element("unflatten", space, x, f"non-negative character indices for {space}")
    # int() also accepts the float indices a Text gets inside a float-flattened Tuple/Dict (Gymnasium fails there).
    return "".join(chars[int(val)] for val in codes if val < len(chars))


@unflatten.register(Sequence)
def _unflatten_sequence(space: Sequence, x: _Element) -> _Element:
    if space.stack:
        return _unflatten_batch(space.feature_space, x)
    try:
        items = tuple(x)
    except TypeError:
        raise _not_element("unflatten", space, x, f"a tuple of flattened elements of {space}") from None
    return tuple(unflatten(space.feature_space, item) for item in items)


@unflatten.register(OneOf)
def _unflatten_oneof(space: OneOf[Any], x: _Element) -> tuple[Any, Any]:
    require_flattenable_oneof(space, "unflatten")
    flat = _flat_vector("unflatten", space, x, flatdim(space))
    index = np.int64(flat[0])
    if not 0 <= index < len(space.spaces) or index != flat[0]:
        raise _not_element("unflatten", space, x, f"a flattened element of {space} (its first entry a subspace index)")
    subspace = space.spaces[index]
    size = flatdim(subspace)
    trimmed = flat[1 : 1 + size].astype(flat_dtype(subspace))
    return index, unflatten(subspace, trimmed)
