"""``is_space_dtype_shape_equiv``: whether two spaces batch alike (same structure, dtypes and shapes)."""

from __future__ import annotations

from functools import singledispatch
from typing import Any

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

__all__ = ["is_space_dtype_shape_equiv"]


@singledispatch
def is_space_dtype_shape_equiv(space_1: Space[Any], space_2: Space[Any]) -> bool:
    """Tell whether two spaces have the same structure, dtypes and shapes (what batching needs to match).

    Args:
        space_1: A space.
        space_2: Another space.

    Returns:
        Whether they are equivalent for batching.

    Raises:
        NotImplementedError: No implementation is registered for ``space_1``'s type.
        TypeError: ``space_1`` is not a space.
    """
    for name, space in (("space_1", space_1), ("space_2", space_2)):
        if not isinstance(space, Space):
            raise TypeError(f"is_space_dtype_shape_equiv {name} must be a Space, got {describe(space)}")
    raise NotImplementedError(f"is_space_dtype_shape_equiv space_1 must be a registered space type, got {describe(space_1)}")


@is_space_dtype_shape_equiv.register(Box)
@is_space_dtype_shape_equiv.register(Discrete)
@is_space_dtype_shape_equiv.register(MultiDiscrete)
@is_space_dtype_shape_equiv.register(MultiBinary)
def _equiv_fundamental(space_1: Space[Any], space_2: Space[Any]) -> bool:
    return type(space_1) is type(space_2) and space_1.shape == space_2.shape and space_1.dtype == space_2.dtype


@is_space_dtype_shape_equiv.register(Text)
def _equiv_text(space_1: Text, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Text)
        and space_1.max_length == space_2.max_length
        and space_1.character_set == space_2.character_set
    )


@is_space_dtype_shape_equiv.register(Dict)
def _equiv_dict(space_1: Dict[Any], space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Dict)
        and space_1.keys() == space_2.keys()
        and all(is_space_dtype_shape_equiv(space_1[key], space_2[key]) for key in space_1.keys())
    )


@is_space_dtype_shape_equiv.register(Tuple)
@is_space_dtype_shape_equiv.register(OneOf)
def _equiv_tuple_oneof(space_1: Tuple[Any] | OneOf[Any], space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, type(space_1))
        and len(space_1) == len(space_2)  # pyright: ignore[reportUnknownArgumentType]
        and all(is_space_dtype_shape_equiv(a, b) for a, b in zip(space_1.spaces, space_2.spaces, strict=True))  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
    )


@is_space_dtype_shape_equiv.register(Graph)
def _equiv_graph(space_1: Graph, space_2: Space[Any]) -> bool:
    if not isinstance(space_2, Graph) or not is_space_dtype_shape_equiv(space_1.node_space, space_2.node_space):
        return False
    if space_1.edge_space is None or space_2.edge_space is None:
        return space_1.edge_space is None and space_2.edge_space is None
    return is_space_dtype_shape_equiv(space_1.edge_space, space_2.edge_space)


@is_space_dtype_shape_equiv.register(Sequence)
def _equiv_sequence(space_1: Sequence, space_2: Space[Any]) -> bool:
    return (
        isinstance(space_2, Sequence)
        and space_1.stack is space_2.stack
        and is_space_dtype_shape_equiv(space_1.feature_space, space_2.feature_space)
    )
