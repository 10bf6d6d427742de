"""``isinstance`` checks that narrow to precise types.

A plain ``isinstance(value, np.ndarray)`` on an ``object`` narrows it, under pyright, to ``ndarray[Unknown,
Unknown]`` (and ``list``, ``tuple``, ``dict`` likewise), which strict mode then reports wherever the value is used.
These helpers answer the same question and narrow to the ``Any``-parametrised type, which is what the checks mean:
an array of any shape and dtype, a list of anything. Hot paths (``contains``) keep the inline ``isinstance``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias, TypeIs

__all__ = [
    "is_array",
    "is_bool",
    "is_dict",
    "is_integer",
    "is_list",
    "is_list_or_tuple",
    "is_mapping",
    "is_numpy_scalar",
    "is_sequence",
    "is_tuple",
]

_Item: TypeAlias = Any


def is_array(value: object) -> TypeIs[NDArray[_Item]]:
    """Whether ``value`` is a NumPy array (of any dtype and shape)."""
    return isinstance(value, np.ndarray)


def is_bool(value: object) -> TypeIs[bool | np.bool_]:
    """Whether ``value`` is a Python or NumPy bool (a flag argument; ``0``/``1`` and arrays are not)."""
    return isinstance(value, (bool, np.bool_))


def is_integer(value: object) -> TypeIs[np.integer[_Item]]:
    """Whether ``value`` is a NumPy integer scalar."""
    return isinstance(value, np.integer)


def is_numpy_scalar(value: object) -> TypeIs[np.number[Any] | np.bool_]:
    """Whether ``value`` is a NumPy number or bool scalar (``np.float32(1)``, ``np.bool_(True)``, ...)."""
    return isinstance(value, (np.number, np.bool_))


def is_list(value: object) -> TypeIs[list[_Item]]:
    """Whether ``value`` is a ``list``."""
    return isinstance(value, list)


def is_list_or_tuple(value: object) -> TypeIs[list[_Item] | tuple[_Item, ...]]:
    """Whether ``value`` is a ``list`` or a ``tuple``."""
    return isinstance(value, (list, tuple))


def is_tuple(value: object) -> TypeIs[tuple[_Item, ...]]:
    """Whether ``value`` is a ``tuple``."""
    return isinstance(value, tuple)


def is_dict(value: object) -> TypeIs[dict[_Item, _Item]]:
    """Whether ``value`` is a ``dict``."""
    return isinstance(value, dict)


def is_mapping(value: object) -> TypeIs[Mapping[_Item, _Item]]:
    """Whether ``value`` is a ``Mapping``."""
    return isinstance(value, Mapping)


def is_sequence(value: object) -> TypeIs[Sequence[_Item]]:
    """Whether ``value`` is a ``Sequence``."""
    return isinstance(value, Sequence)
