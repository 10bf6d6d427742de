"""``isinstance`` checks for the generic spaces that narrow to precise types.

pyright narrows ``isinstance(space, Box)`` to ``Box[Unknown]`` (the element type of ``Space[Any]`` does not
determine Box's scalar parameter), which strict mode then reports wherever the box is used. These helpers answer
the same question and narrow to the ``Any``-parametrised space.
"""

from __future__ import annotations

from typing import Any

from typing_extensions import TypeAlias, TypeIs

from reference.spaces.box import Box
from reference.spaces.dict import Dict
from reference.spaces.discrete import Discrete
from reference.spaces.multi_discrete import MultiDiscrete
from reference.spaces.space import Space
from reference.spaces.tuple import Tuple

__all__ = ["is_box", "is_dict_space", "is_discrete", "is_multi_discrete", "is_space", "is_tuple_space"]

_Param: TypeAlias = Any


def is_space(value: object) -> TypeIs[Space[_Param]]:
    """Whether ``value`` is a :class:`Space` (of any element type)."""
    return isinstance(value, Space)


def is_box(value: object) -> TypeIs[Box[_Param]]:
    """Whether ``value`` is a :class:`Box`."""
    return isinstance(value, Box)


def is_discrete(value: object) -> TypeIs[Discrete[_Param]]:
    """Whether ``value`` is a :class:`Discrete`."""
    return isinstance(value, Discrete)


def is_multi_discrete(value: object) -> TypeIs[MultiDiscrete[_Param]]:
    """Whether ``value`` is a :class:`MultiDiscrete`."""
    return isinstance(value, MultiDiscrete)


def is_dict_space(value: object) -> TypeIs[Dict[_Param]]:
    """Whether ``value`` is a :class:`Dict` space."""
    return isinstance(value, Dict)


def is_tuple_space(value: object) -> TypeIs[Tuple[_Param]]:
    """Whether ``value`` is a :class:`Tuple` space."""
    return isinstance(value, Tuple)
