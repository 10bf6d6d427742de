"""Render values as Python source, so a failure's reproducer can be pasted into a script and run.

Only the value kinds that actions, seeds, options and constructor kwargs take are rendered exactly (NumPy arrays and
scalars, Python scalars, strings, tuples, lists, dicts); anything else becomes ``not_literal('<repr>')``, which
fails loudly when run, because a reproducer that says "this part is not literal" beats one that silently lies.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from conformance._engine.narrowing import is_array, is_list, is_mapping, is_scalar, is_tuple

__all__ = ["source"]


def _not_literal(value: object) -> str:
    return f"not_literal({repr(value)!r})"


def _float(value: float) -> str:
    if math.isnan(value):
        return "float('nan')"
    if math.isinf(value):
        return "float('inf')" if value > 0 else "-float('inf')"
    return repr(value)


def _nested(value: object) -> str:
    """Source of the nested lists ``ndarray.tolist()`` produces, spelling non-finite floats out."""
    if is_list(value):
        return "[" + ", ".join(_nested(item) for item in value) + "]"
    if isinstance(value, float):
        return _float(value)
    return repr(value)


def _array(value: np.ndarray[Any, Any]) -> str:
    if value.dtype.kind not in "biufcU":
        return _not_literal(value)
    return f"np.array({_nested(value.tolist())}, dtype=np.{value.dtype.name})"


def source(value: object) -> str:
    """Return Python source that evaluates to ``value`` (given ``import numpy as np``).

    Args:
        value: The value to render.

    Returns:
        A source expression; values that cannot be written literally are rendered with ``repr`` followed by a
        ``# not literal`` comment.
    """
    # NumPy first: np.float64 is also a Python float.
    if is_array(value):
        return _array(value)
    if is_scalar(value) and isinstance(value, np.bool_):
        return f"np.bool_({bool(value)})"
    if is_scalar(value) and value.dtype.kind in "iuf":
        item = value.item()
        text = _float(item) if isinstance(item, float) else repr(item)
        return f"np.{value.dtype.name}({text})"
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return repr(value)
    if isinstance(value, float):
        return _float(value)
    if is_tuple(value):
        inner = ", ".join(source(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if is_list(value):
        return "[" + ", ".join(source(item) for item in value) + "]"
    if is_mapping(value):
        return "{" + ", ".join(f"{source(k)}: {source(v)}" for k, v in value.items()) + "}"
    return _not_literal(value)
