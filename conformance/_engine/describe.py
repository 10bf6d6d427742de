"""Values in types and in messages: ``isinstance`` checks that narrow what a target returned, and short descriptions of
values for failure messages.

**Narrowing.** ``isinstance`` checks that narrow what a target returned to precise types.

A plain ``isinstance(value, np.ndarray)`` on an ``Any`` or ``object`` value narrows it, under pyright, to
``ndarray[Unknown, Unknown]`` (and ``list``, ``tuple``, ``dict``, ``Mapping`` likewise), which strict mode then
reports wherever the value is used. These helpers answer the same question and narrow to the ``Any``-parametrised
type, which is what the suite means: an array of any shape and dtype, a list of anything.

**Descriptions.** Short, typed descriptions of values for failure messages (arrays by shape and dtype, never in full).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeIs

__all__ = [
    "describe_exception",
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
    "rebuilt_dict",
    "rebuilt_tuple",
    "summarize",
    "type_name",
]


# --- Narrowing -----------------------------------------------------------------------------------------------------

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


def rebuilt_tuple(value: tuple[_Item, ...], items: Iterable[_Item]) -> tuple[_Item, ...]:
    """A tuple of ``items`` of ``value``'s own type: a named tuple (Graph spaces' ``GraphInstance``) stays one, since
    the checks compare types and a copy that turned it into a plain tuple would read as a changed value."""
    parts = list(items)
    kind = type(value)
    make = getattr(kind, "_make", None) if kind is not tuple else None
    if callable(make):
        try:
            return cast("tuple[_Item, ...]", make(parts))
        except Exception:  # noqa: BLE001, S110 - a tuple subclass that cannot be rebuilt so is copied as a tuple
            pass
    return tuple(parts)


def rebuilt_dict(value: dict[_Item, _Item], items: Iterable[tuple[_Item, _Item]]) -> dict[_Item, _Item]:
    """A dict of ``items`` of ``value``'s own type: a ``defaultdict`` stays one (with its factory), an ``OrderedDict``
    too, since the checks compare types and a copy that turned it into a plain dict would read as a changed value."""
    pairs = list(items)
    if type(value) is dict:
        return dict(pairs)
    try:
        rebuilt = copy.copy(value)  # the subclass's own copy keeps its type and state (a default factory)
        rebuilt.clear()
        for key, item in pairs:
            rebuilt[key] = item
        return rebuilt
    except Exception:  # noqa: BLE001 - a dict subclass that cannot be rebuilt so is copied as a dict
        return dict(pairs)


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


# --- Descriptions --------------------------------------------------------------------------------------------------

_MAX_ITEMS = 6
_MAX_TEXT = 80


def describe_exception(exc: BaseException) -> str:
    """``"ValueError: message"``, or ``"AssertionError (no message)"`` when the exception says nothing."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else f"{type(exc).__name__} (no message)"


def type_name(value: object) -> str:
    """The qualified type name of a value, NumPy scalars spelled ``np.float32``."""
    cls = type(value)
    if cls.__module__ == "numpy":
        return f"np.{cls.__name__}"
    if cls.__module__ == "builtins":
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def summarize(value: Any, *, depth: int = 0) -> str:
    """Describe a value in one short line.

    Args:
        value: Anything a target returned.
        depth: Nesting level (containers deeper than two levels are elided).

    Returns:
        E.g. ``"ndarray(shape=(4,), dtype=float32, [0.1, -0.2, 0.03, 0.0])"`` or ``"np.float64(1.0)"``.
    """
    if is_array(value):
        flat = value.reshape(-1)
        if flat.size <= _MAX_ITEMS and value.dtype.kind in "biufc":
            head = ", ".join(repr(item) for item in flat.tolist())
            return f"ndarray(shape={value.shape}, dtype={value.dtype}, [{head}])"
        return f"ndarray(shape={value.shape}, dtype={value.dtype})"
    if is_scalar(value):
        return f"{type_name(value)}({value.item()!r})"
    if is_list_or_tuple(value):
        if depth >= 2:
            return f"{type_name(value)}(len={len(value)})"
        items = [summarize(item, depth=depth + 1) for item in value[:_MAX_ITEMS]]
        more = ", ..." if len(value) > _MAX_ITEMS else ""
        opener, closer = ("(", ")") if isinstance(value, tuple) else ("[", "]")
        return f"{opener}{', '.join(items)}{more}{closer}"
    if is_mapping(value):
        if depth >= 2:
            return f"{type_name(value)}(keys={list(value)[:_MAX_ITEMS]})"
        items = [f"{k!r}: {summarize(v, depth=depth + 1)}" for k, v in list(value.items())[:_MAX_ITEMS]]
        more = ", ..." if len(value) > _MAX_ITEMS else ""
        prefix = "" if type(value) is dict else type_name(value)
        return f"{prefix}{{{', '.join(items)}{more}}}"
    text = repr(value)
    if len(text) > _MAX_TEXT:
        text = text[: _MAX_TEXT - 3] + "..."
    if isinstance(value, (bool, int, float, str)) or value is None:
        return text
    return f"{type_name(value)}: {text}"
