"""Precomputed layouts that let ``flatten``/``unflatten`` handle common Tuple/Dict spaces without dispatching.

When every subspace of a Tuple or Dict is exactly a :class:`Box`, :class:`Discrete` or :class:`MultiBinary`
(not a subclass, which may register its own implementation), the flat array is a fixed sequence of slices. A
:class:`FlatPlan` records each slice's offset, size and dtype once per composite space (cached on the space,
keyed by the identity of its subspaces), so a call does one allocation and one store per leaf. Results equal
Gymnasium's ``np.concatenate`` of the per-leaf flattenings value for value and dtype for dtype; any input the
plan cannot handle exactly (an out-of-range Discrete value, a wrongly sized array) makes it return ``None`` so
the caller falls back to the general path, which reports what is wrong with it.
"""

from __future__ import annotations

import operator
from functools import reduce
from typing import Any, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_array
from reference.spaces.box import Box
from reference.spaces.discrete import Discrete
from reference.spaces.multi_binary import MultiBinary
from reference.spaces.space import Space

__all__ = ["FlatPlan", "plan_for"]

_Array: TypeAlias = NDArray[Any]
_Element: TypeAlias = Any

_CACHE_ATTR = "_flat_plan"


class _Leaf(NamedTuple):
    discrete: bool
    offset: int
    size: int
    start: int
    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    space: Space[Any]


class FlatPlan:
    """The flat layout of a composite whose subspaces are plain leaves (``leaves is None`` when they are not).

    Args:
        key: The subspaces the plan was built for (compared by identity to detect replaced subspaces).
        leaves: One entry per subspace, or ``None`` when some subspace is not a plain leaf.
        size: The flat dimension.
        dtype: The flat dtype (the promotion of the leaf dtypes).
    """

    __slots__ = ("dtype", "key", "leaves", "size")

    def __init__(self, key: tuple[Space[Any], ...], leaves: list[_Leaf] | None, size: int, dtype: np.dtype[Any]) -> None:
        self.key = key
        self.leaves = leaves
        self.size = size
        self.dtype = dtype

    def flatten(self, parts: list[_Element]) -> _Array | None:
        """Flatten one part per leaf into a new array, or return ``None`` when the general path is needed.

        Args:
            parts: The element's parts, in subspace order.

        Returns:
            The flat array, or ``None``.
        """
        leaves = self.leaves
        if leaves is None or len(parts) != len(leaves):
            return None
        out = np.zeros(self.size, dtype=self.dtype)
        try:
            for (discrete, offset, size, start, dtype, _, _), part in zip(leaves, parts):
                if discrete:
                    if not isinstance(part, (int, np.integer)):
                        return None
                    index = int(part) - start  # pyright: ignore[reportUnknownArgumentType]
                    if not 0 <= index < size:
                        return None  # the general path names the out-of-range value
                    out[offset + index] = 1
                    continue
                arr = part if type(part) is np.ndarray and part.dtype == dtype else np.asarray(part, dtype=dtype)
                if arr.size != size:
                    return None
                out[offset : offset + size] = arr.ravel()
        except (ValueError, TypeError, OverflowError):
            return None
        return out

    def split(self, x: _Array) -> list[_Array] | None:
        """Cut a 1-D flat array into per-leaf views like ``np.split`` (the last view runs to the end).

        Args:
            x: The flat array.

        Returns:
            The views, or ``None`` when ``x`` is not a 1-D array or the plan does not apply.
        """
        leaves = self.leaves
        if leaves is None or not is_array(x) or x.ndim != 1:
            return None
        last = len(leaves) - 1
        return [x[leaf.offset :] if i == last else x[leaf.offset : leaf.offset + leaf.size] for i, leaf in enumerate(leaves)]


def _build(key: tuple[Space[Any], ...]) -> FlatPlan:
    leaves: list[_Leaf] = []
    dtypes: list[np.dtype[Any]] = []
    offset = 0
    for space in key:
        kind = type(space)
        if kind is Box:
            size = int(space.low.size)  # type: ignore[attr-defined]
            start = 0
        elif kind is Discrete:
            size = int(space.n)  # type: ignore[attr-defined]
            start = int(space.start)  # type: ignore[attr-defined]
        elif kind is MultiBinary:
            size = reduce(operator.mul, space.shape or (), 1)
            start = 0
        else:
            return FlatPlan(key, None, 0, np.dtype(np.float64))
        dtype = space.dtype
        if dtype is None:
            return FlatPlan(key, None, 0, np.dtype(np.float64))
        leaves.append(_Leaf(kind is Discrete, offset, size, start, dtype, space.shape or (), space))
        dtypes.append(dtype)
        offset += size
    return FlatPlan(key, leaves, offset, np.result_type(*dtypes))


def plan_for(composite: Space[Any], subspaces: tuple[Space[Any], ...]) -> FlatPlan:
    """Return the cached plan of ``composite``, rebuilding it when its subspaces were replaced.

    Args:
        composite: The Tuple or Dict space (the plan is cached in its ``__dict__``).
        subspaces: Its current subspaces, in order.

    Returns:
        The plan (whose ``leaves`` is ``None`` when the fast path does not apply).
    """
    plan: FlatPlan | None = composite.__dict__.get(_CACHE_ATTR)
    # Tuple equality checks identity first, so an unchanged composite costs one C-level comparison.
    if plan is not None and plan.key == subspaces:
        return plan
    plan = _build(subspaces)
    composite.__dict__[_CACHE_ATTR] = plan
    return plan
