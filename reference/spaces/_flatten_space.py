"""``flatten_space``: the space whose elements are the flattened elements of a space."""

from __future__ import annotations

from functools import singledispatch
from typing import Any, cast

import numpy as np

from reference.spaces._flat_dims import flat_dtype, flatdim, require_flattenable_oneof
from reference.spaces.box import Box
from reference.spaces.dict import Dict
from reference.spaces.discrete import Discrete
from reference.spaces.graph import Graph
from reference.spaces.multi_binary import MultiBinary
from reference.spaces.multi_discrete import MultiDiscrete
from reference.spaces.oneof import OneOf
from reference.spaces.sequence import Sequence
from reference.spaces.space import Space
from reference.spaces.text import Text
from reference.spaces.tuple import Tuple
from reference.utils._format import describe

__all__ = ["flatten_space"]


@singledispatch
def flatten_space(space: Space[Any]) -> Box[Any] | Dict[Any] | Sequence | Tuple[Any] | Graph:
    """Return the flat space whose elements are the flattened elements of ``space``.

    A flattenable space becomes a 1-D :class:`Box` of :func:`flatdim` entries (``Discrete(3)`` becomes
    ``Box(0, 1, (3,), int64)``; a Tuple/Dict of Discrete and float32 Box a float64 Box). Graph, Sequence and
    containers holding them keep their structure with flattened parts.

    Args:
        space: The space.

    Returns:
        The flattened space.

    Raises:
        TypeError: ``space`` is not a space.
        NotImplementedError: No implementation is registered for the space's type.
    """
    if not isinstance(space, Space):
        raise TypeError(f"flatten_space space must be a Space, got {describe(space)}")
    raise NotImplementedError(f"flatten_space space must be a registered space type, got {describe(space)}")


@flatten_space.register(Box)
def _flatten_space_box(space: Box[Any]) -> Box[Any]:
    return Box(space.low.flatten(), space.high.flatten(), dtype=space.dtype)


@flatten_space.register(Discrete)
@flatten_space.register(MultiBinary)
@flatten_space.register(MultiDiscrete)
def _flatten_space_binary(space: Discrete[Any] | MultiBinary | MultiDiscrete[Any]) -> Box[Any]:
    return Box(low=0, high=1, shape=(flatdim(space),), dtype=space.dtype)


def _concat_boxes(boxes: list[Box[Any]]) -> Box[Any]:
    return Box(
        low=np.concatenate([b.low for b in boxes]),
        high=np.concatenate([b.high for b in boxes]),
        dtype=np.result_type(*[b.dtype for b in boxes]),
    )


@flatten_space.register(Tuple)
def _flatten_space_tuple(space: Tuple[Any]) -> Box[Any] | Tuple[Any]:
    if space.is_np_flattenable:
        return _concat_boxes([flatten_space(s) for s in space.spaces])  # type: ignore[misc]
    return Tuple([flatten_space(s) for s in space.spaces])


@flatten_space.register(Dict)
def _flatten_space_dict(space: Dict[Any]) -> Box[Any] | Dict[Any]:
    if space.is_np_flattenable:
        return _concat_boxes([flatten_space(s) for s in space.spaces.values()])  # type: ignore[misc]
    return Dict({key: flatten_space(s) for key, s in space.spaces.items()}, sort_keys=space.sort_keys)


@flatten_space.register(Graph)
def _flatten_space_graph(space: Graph) -> Graph:
    edge_space = None if space.edge_space is None else flatten_space(space.edge_space)
    return Graph(node_space=flatten_space(space.node_space), edge_space=edge_space)


@flatten_space.register(Text)
def _flatten_space_text(space: Text) -> Box[Any]:
    return Box(low=0, high=len(space.character_set), shape=(space.max_length,), dtype=np.int32)


@flatten_space.register(Sequence)
def _flatten_space_sequence(space: Sequence) -> Sequence:
    return Sequence(flatten_space(space.feature_space), stack=space.stack)


@flatten_space.register(OneOf)
def _flatten_space_oneof(space: OneOf[Any]) -> Box[Any]:
    require_flattenable_oneof(space, "flatten_space")
    width = max(flatdim(s) for s in space.spaces) + 1
    flat = [cast(Box[Any], flatten_space(s)) for s in space.spaces]
    # Zero-width alternatives (e.g. Text(0)) contribute no bounds.
    lows = [np.min(f.low) for f in flat if f.low.size]
    highs = [np.max(f.high) for f in flat if f.high.size]
    overall_low = np.min(np.array(lows)) if lows else 0
    overall_high = np.max(np.array(highs)) if highs else 0
    low = np.concatenate([[0], np.full(width - 1, overall_low)])
    high = np.concatenate([[len(space.spaces) - 1], np.full(width - 1, overall_high)])
    dtype = flat_dtype(space)
    # Cast here (as Box would) so the internal float64 bounds do not trigger a precision warning.
    return Box(low=low.astype(dtype), high=high.astype(dtype), shape=(width,), dtype=dtype)
