"""Summaries of user-supplied values for error messages (always one line, arrays by shape and dtype)."""

from __future__ import annotations

from reference._narrowing import is_array

__all__ = ["describe"]

_MAX_REPR = 80


def describe(value: object) -> str:
    """Summarise ``value`` for an error message: arrays by shape and dtype, anything else by a short ``repr``.

    Args:
        value: The offending value.

    Returns:
        A single-line description.
    """
    if is_array(value):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    text = repr(value)
    if len(text) > _MAX_REPR or "\n" in text:
        first = text.splitlines()[0] if text else ""
        text = f"<{type(value).__name__} {first[:60]}...>"
    return text
