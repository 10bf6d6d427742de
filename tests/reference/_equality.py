"""Assertions over :mod:`conformance.equality`, the project's one comparison of what environments return.

``assert_identical`` is exact: the same types at every level (``tuple`` is not ``list``, ``np.float32`` is not
``float``), array dtypes and shapes, and values (NaN equals NaN). ``assert_equal_values`` compares values and
shapes only (``np.int64(3)`` equals ``3``; an int32 array equals an int64 one of the same values). The failure
message is the first difference with its path, e.g. ``reset[0]['position']: 0.5 != 0.25``.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from conformance.equality import difference, value_difference

__all__ = ["assert_equal_values", "assert_identical"]

_Value: TypeAlias = Any  # anything an environment, a space or a wrapper returns


def _message(where: str, found: str) -> str:
    return f"{where}: {found}" if where else found


def assert_identical(a: _Value, b: _Value, where: str = "") -> None:
    """Assert ``a`` and ``b`` are identical in type, dtype, shape and value, recursively.

    Args:
        a: One value.
        b: The other.
        where: Context for the failure message (a step, a sub-env, a recipe).
    """
    found = difference(a, b)
    assert found is None, _message(where, found)


def assert_equal_values(a: _Value, b: _Value, where: str = "") -> None:
    """Assert ``a`` and ``b`` hold equal values in equal shapes, recursively, whatever their scalar types and dtypes.

    Args:
        a: One value.
        b: The other.
        where: Context for the failure message.
    """
    found = value_difference(a, b)
    assert found is None, _message(where, found)
