"""``conformance._engine.describe``: each check answers exactly what its ``isinstance`` answers."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance._engine.describe import (
    is_array,
    is_bool,
    is_dict,
    is_float,
    is_integer,
    is_list,
    is_list_or_tuple,
    is_mapping,
    is_scalar,
    is_sequence,
    is_tuple,
    rebuilt_tuple,
)

_VALUES: list[object] = [
    np.zeros(3),
    np.zeros((), dtype=np.int8),
    np.float32(1.0),
    np.int64(3),
    3,
    np.bool_(True),
    1.0,
    True,
    (1, 2),
    [1, 2],
    {"a": 1},
    OrderedDict(a=1),
    MappingProxyType({"a": 1}),
    "text",
    None,
]
_CHECKS: list[tuple[Callable[[object], bool], type | tuple[type, ...]]] = [
    (is_array, np.ndarray),
    (is_scalar, np.generic),
    (is_integer, np.integer),
    (is_float, (float, np.floating)),
    (is_bool, (bool, np.bool_)),
    (is_tuple, tuple),
    (is_list, list),
    (is_list_or_tuple, (list, tuple)),
    (is_dict, dict),
    (is_mapping, Mapping),
    (is_sequence, Sequence),
]


@pytest.mark.parametrize(("check", "classes"), _CHECKS, ids=[check.__name__ for check, _ in _CHECKS])
def test_check_agrees_with_isinstance(check: Callable[[object], bool], classes: type | tuple[type, ...]) -> None:
    assert [check(value) for value in _VALUES] == [isinstance(value, classes) for value in _VALUES]


class _Point(NamedTuple):
    x: int
    y: np.ndarray[Any, np.dtype[np.float64]]


class _Strict(tuple[int, ...]):
    """A tuple subclass with no ``_make``: copied as a plain tuple."""


@given(st.integers(), st.lists(st.floats(allow_nan=False), max_size=4))
def test_rebuilt_tuple_keeps_a_named_tuple_named(x: int, ys: list[float]) -> None:
    point = _Point(x, np.array(ys))
    copied = rebuilt_tuple(point, (item for item in point))
    assert type(copied) is _Point and copied.x == x and copied.y is point.y
    assert type(rebuilt_tuple((1, 2), iter([3, 4]))) is tuple
    assert rebuilt_tuple(_Strict((1, 2)), [5, 6]) == (5, 6)
