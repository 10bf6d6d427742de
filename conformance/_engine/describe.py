"""Short, typed descriptions of values for failure messages (arrays by shape and dtype, never in full)."""

from __future__ import annotations

from typing import Any

from conformance._engine.narrowing import is_array, is_list_or_tuple, is_mapping, is_scalar

__all__ = ["describe_exception", "summarize", "type_name"]

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
