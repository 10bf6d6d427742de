"""``flatdim`` and the flat dtype of a space (the length and dtype of what ``flatten`` returns)."""

from __future__ import annotations

import operator
from functools import reduce, singledispatch
from typing import Any

import numpy as np

from reference.spaces.box import Box
from reference.spaces.dict import Dict
from reference.spaces.discrete import Discrete
from reference.spaces.graph import Graph
from reference.spaces.multi_binary import MultiBinary
from reference.spaces.multi_discrete import MultiDiscrete
from reference.spaces.oneof import OneOf
from reference.spaces.space import Space
from reference.spaces.text import Text
from reference.spaces.tuple import Tuple
from reference.utils._format import describe

__all__ = ["flat_dtype", "flatdim", "not_flattenable", "require_flattenable_oneof"]


def require_flattenable_oneof(space: OneOf[Any], operation: str) -> None:
    if not space.is_np_flattenable:
        raise ValueError(
            f"{operation} space must be a OneOf of flattenable subspaces, got {space} "
            "(a Graph or Sequence alternative has no fixed flat size)"
        )


def not_flattenable(space: Space[Any]) -> ValueError:
    return ValueError(
        f"flatdim space must be flattenable to a numpy array, got {space} "
        "(it contains a Graph or Sequence subspace, whose size varies)"
    )


# --- flat dtype -------------------------------------------------------------------------------------------------


@singledispatch
def flat_dtype(space: Space[Any]) -> np.dtype[Any]:
    """The dtype of the Box that ``space`` flattens to, without building that Box."""
    if space.dtype is None:
        raise not_flattenable(space)
    return space.dtype


@flat_dtype.register(Text)
def flat_dtype_text(space: Text) -> np.dtype[Any]:
    return np.dtype(np.int32)


@flat_dtype.register(Tuple)
def flat_dtype_tuple(space: Tuple[Any]) -> np.dtype[Any]:
    return np.result_type(*(flat_dtype(s) for s in space.spaces))


@flat_dtype.register(Dict)
def flat_dtype_dict(space: Dict[Any]) -> np.dtype[Any]:
    return np.result_type(*(flat_dtype(s) for s in space.spaces.values()))


@flat_dtype.register(OneOf)
def flat_dtype_oneof(space: OneOf[Any]) -> np.dtype[Any]:
    dtype = np.result_type(*(flat_dtype(s) for s in space.spaces))
    max_index = len(space.spaces) - 1
    # The subspace index is stored in the same array, so the dtype must be able to hold it.
    if (dtype.kind == "b" and max_index > 1) or (dtype.kind in "iu" and max_index > np.iinfo(dtype).max):
        dtype = np.result_type(dtype, np.min_scalar_type(max_index))
    return dtype


# --- flatdim ----------------------------------------------------------------------------------------------------


@singledispatch
def flatdim(space: Space[Any]) -> int:
    """Return the length of the flat array :func:`flatten` produces for elements of ``space``.

    Args:
        space: The space.

    Returns:
        The flat dimension, e.g. ``3`` for ``Discrete(3)`` and ``5`` for ``MultiDiscrete([2, 3])``.

    Raises:
        TypeError: ``space`` is not a space.
        ValueError: The space cannot be flattened to an array (it contains a Graph or Sequence).
        NotImplementedError: No implementation is registered for the space's type.
    """
    if not isinstance(space, Space):
        raise TypeError(f"flatdim space must be a Space, got {describe(space)}")
    if space.is_np_flattenable is False:
        raise not_flattenable(space)
    raise NotImplementedError(f"flatdim space must be a registered space type, got {describe(space)}")


@flatdim.register(Box)
@flatdim.register(MultiBinary)
def _flatdim_box_multibinary(space: Box[Any] | MultiBinary) -> int:
    return reduce(operator.mul, space.shape, 1)


@flatdim.register(Discrete)
def _flatdim_discrete(space: Discrete[Any]) -> int:
    return int(space.n)


@flatdim.register(MultiDiscrete)
def _flatdim_multidiscrete(space: MultiDiscrete[Any]) -> int:
    return int(np.sum(space.nvec))


@flatdim.register(Tuple)
def _flatdim_tuple(space: Tuple[Any]) -> int:
    if not space.is_np_flattenable:
        raise not_flattenable(space)
    return sum(flatdim(s) for s in space.spaces)


@flatdim.register(Dict)
def _flatdim_dict(space: Dict[Any]) -> int:
    if not space.is_np_flattenable:
        raise not_flattenable(space)
    return sum(flatdim(s) for s in space.spaces.values())


@flatdim.register(Graph)
def _flatdim_graph(space: Graph) -> int:
    raise ValueError(f"flatdim space must have a fixed size, got {space} (a Graph's size varies)")


@flatdim.register(Text)
def _flatdim_text(space: Text) -> int:
    return space.max_length


@flatdim.register(OneOf)
def _flatdim_oneof(space: OneOf[Any]) -> int:
    require_flattenable_oneof(space, "flatdim")
    return 1 + max(flatdim(s) for s in space.spaces)
