"""Assertions over :mod:`conformance.equality`, the project's one comparison of what environments return.

``assert_identical`` is exact: the same types at every level (``tuple`` is not ``list``, ``np.float32`` is not
``float``), array dtypes and shapes, and values (NaN equals NaN). ``assert_equal_values`` compares values and
shapes only (``np.int64(3)`` equals ``3``; an int32 array equals an int64 one of the same values). The failure
message is the first difference with its path, e.g. ``reset[0]['position']: 0.5 != 0.25``.

Three things the tests need that ``conformance.equality`` does not express yet are prepared here, before its
comparison, by :func:`_prepared` (the comparison itself stays conformance's):

* a Gymnasium ``GraphInstance`` stands for the reference's one with the same fields (the differential tests compare
  the two libraries' samples; ``difference`` would report the two classes as different types);
* ``key_order=True``: dicts must list their keys in the same order (``difference`` compares key sets), as a Dict
  space's samples do;
* ``scalars_as_arrays=True``: a NumPy scalar equals the 0-d array of its dtype (dtypes still compared), as values
  read back from a batch or a JSON round trip may come as either.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from typing_extensions import TypeIs

from conformance.equality import difference, value_difference
from reference.spaces import GraphInstance

__all__ = ["assert_equal_values", "assert_identical"]

_Value: TypeAlias = Any  # anything an environment, a space or a wrapper returns


def _message(where: str, found: str) -> str:
    return f"{where}: {found}" if where else found


def _is_dict(value: object) -> TypeIs[dict[_Value, _Value]]:
    return isinstance(value, dict)


def _is_sequence(value: object) -> TypeIs[list[_Value] | tuple[_Value, ...]]:
    return isinstance(value, (list, tuple))


def _prepared(value: _Value, key_orders: list[tuple[_Value, ...]], scalars_as_arrays: bool) -> _Value:
    """``value`` with foreign graph instances (and, if asked, NumPy scalars) replaced; dict key orders recorded."""
    if _is_dict(value):
        key_orders.append(tuple(value))
        return {key: _prepared(item, key_orders, scalars_as_arrays) for key, item in value.items()}
    if _is_sequence(value):
        items = [_prepared(item, key_orders, scalars_as_arrays) for item in value]
        kind: type[_Value] = type(value)
        if hasattr(kind, "_fields"):  # a named tuple; another library's GraphInstance stands for ours
            return (GraphInstance if kind.__name__ == "GraphInstance" else kind)(*items)
        return kind(items)
    if scalars_as_arrays and isinstance(value, np.generic):
        return np.asarray(value)
    return value


def assert_identical(
    a: _Value, b: _Value, where: str = "", *, key_order: bool = False, scalars_as_arrays: bool = False
) -> None:
    """Assert ``a`` and ``b`` are identical in type, dtype, shape and value, recursively.

    Args:
        a: One value.
        b: The other.
        where: Context for the failure message (a step, a sub-env, a recipe).
        key_order: Also require every dict to list its keys in the same order.
        scalars_as_arrays: Let a NumPy scalar equal the 0-d array of the same dtype.
    """
    a_orders: list[tuple[_Value, ...]] = []
    b_orders: list[tuple[_Value, ...]] = []
    found = difference(_prepared(a, a_orders, scalars_as_arrays), _prepared(b, b_orders, scalars_as_arrays))
    assert found is None, _message(where, found)
    if key_order:
        assert a_orders == b_orders, _message(where, f"dict key orders {a_orders} != {b_orders}")


def assert_equal_values(a: _Value, b: _Value, where: str = "") -> None:
    """Assert ``a`` and ``b`` hold equal values in equal shapes, recursively, whatever their scalar types and dtypes.

    Args:
        a: One value.
        b: The other.
        where: Context for the failure message.
    """
    found = value_difference(a, b)
    assert found is None, _message(where, found)
