"""``isinstance`` checks that narrow what a target returned to precise types.

A plain ``isinstance(value, np.ndarray)`` on an ``Any`` or ``object`` value narrows it, under pyright, to
``ndarray[Unknown, Unknown]`` (and ``list``, ``tuple``, ``dict``, ``Mapping`` likewise), which strict mode then
reports wherever the value is used. These helpers answer the same question and narrow to the ``Any``-parametrised
type, which is what the suite means: an array of any shape and dtype, a list of anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeIs

__all__ = [
    "is_array",
    "is_bool",
    "is_dict",
    "is_float",
    "is_integer",
    "is_list",
    "is_list_or_tuple",
    "is_mapping",
    "is_scalar",
    "is_sequence",
    "is_tuple",
]

# Whatever a target put in the container (or the array): the checks look at it at run time.
_Item: TypeAlias = Any


def is_array(value: object) -> TypeIs[NDArray[_Item]]:
    """Whether ``value`` is a NumPy array (of any dtype and shape)."""
    return isinstance(value, np.ndarray)


def is_scalar(value: object) -> TypeIs[np.generic[_Item]]:
    """Whether ``value`` is a NumPy scalar (``np.float32(1.0)``, ``np.bool_(True)``...)."""
    return isinstance(value, np.generic)


def is_bool(value: object) -> TypeIs[bool | np.bool_[_Item]]:
    """Whether ``value`` is a Python ``bool`` or a NumPy bool scalar."""
    return isinstance(value, (bool, np.bool_))


def is_float(value: object) -> TypeIs[float | np.floating[_Item]]:
    """Whether ``value`` is a Python ``float`` or a NumPy floating scalar."""
    return isinstance(value, (float, np.floating))


def is_integer(value: object) -> TypeIs[np.integer[_Item]]:
    """Whether ``value`` is a NumPy integer scalar."""
    return isinstance(value, np.integer)


def is_tuple(value: object) -> TypeIs[tuple[_Item, ...]]:
    """Whether ``value`` is a ``tuple``."""
    return isinstance(value, tuple)


def is_list(value: object) -> TypeIs[list[_Item]]:
    """Whether ``value`` is a ``list``."""
    return isinstance(value, list)


def is_list_or_tuple(value: object) -> TypeIs[list[_Item] | tuple[_Item, ...]]:
    """Whether ``value`` is a ``list`` or a ``tuple``."""
    return isinstance(value, (list, tuple))


def is_dict(value: object) -> TypeIs[dict[_Item, _Item]]:
    """Whether ``value`` is a ``dict``."""
    return isinstance(value, dict)


def is_mapping(value: object) -> TypeIs[Mapping[_Item, _Item]]:
    """Whether ``value`` is a ``Mapping``."""
    return isinstance(value, Mapping)


def is_sequence(value: object) -> TypeIs[Sequence[_Item]]:
    """Whether ``value`` is a ``Sequence``."""
    return isinstance(value, Sequence)

