"""Warning and error messages in Gymnasium's style (coloured ``WARN:`` / ``ERROR:`` prefixes).

Messages go through :mod:`warnings`, so they can be filtered, turned into errors with ``-W error`` and captured
by ``pytest.warns``. Set :data:`min_level` to :data:`ERROR` to silence warnings, or above it to silence both.
"""

from __future__ import annotations

import warnings

from reference.utils.colorize import colorize

__all__ = ["ERROR", "WARN", "deprecation", "error", "min_level", "warn"]

WARN = 30
ERROR = 40

#: Messages below this level are dropped.
min_level = WARN


def warn(msg: str, *args: object, category: type[Warning] | None = None, stacklevel: int = 1) -> None:
    """Emit a yellow ``WARN:`` warning if :data:`min_level` allows it.

    Args:
        msg: The message; ``%``-formatted with ``args`` when any are given.
        *args: Values interpolated into ``msg``.
        category: The warning class (``UserWarning`` when omitted).
        stacklevel: Which frame to blame, counted from the caller of this function: ``1`` is the caller,
            ``2`` the caller's caller (usually the user code that triggered the problem).
    """
    if min_level <= WARN:
        text = msg % args if args else msg
        warnings.warn(colorize(f"WARN: {text}", "yellow"), category=category, stacklevel=stacklevel + 1)


def deprecation(msg: str, *args: object) -> None:
    """Emit a ``DeprecationWarning`` blaming the caller's caller.

    Args:
        msg: The message; ``%``-formatted with ``args`` when any are given.
        *args: Values interpolated into ``msg``.
    """
    warn(msg, *args, category=DeprecationWarning, stacklevel=3)


def error(msg: str, *args: object) -> None:
    """Emit a red ``ERROR:`` warning if :data:`min_level` allows it.

    Args:
        msg: The message; ``%``-formatted with ``args`` when any are given.
        *args: Values interpolated into ``msg``.
    """
    if min_level <= ERROR:
        text = msg % args if args else msg
        warnings.warn(colorize(f"ERROR: {text}", "red"), stacklevel=3)
