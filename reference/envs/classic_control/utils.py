"""Reset-option parsing shared by the classic-control environments (Gymnasium's ``classic_control.utils``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat, TypeAlias

__all__ = ["maybe_parse_reset_bounds", "verify_number_and_cast"]

_Options: TypeAlias = Mapping[str, Any]


def verify_number_and_cast(x: SupportsFloat | str, *, owner: str = "reset", name: str = "option") -> float:
    """Convert a reset option to a float.

    Args:
        x: The option value.
        owner: Who is asking, for the error message.
        name: The option name, for the error message.

    Returns:
        The value as a Python float.

    Raises:
        ValueError: If the value cannot be converted to a float.
    """
    try:
        return float(x)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{owner} options[{name!r}] must be a real number, got {x!r}") from exc


def maybe_parse_reset_bounds(
    options: _Options | None, default_low: float, default_high: float, *, owner: str = "reset"
) -> tuple[float, float]:
    """Read the ``low``/``high`` bounds of the uniform initial-state distribution from reset options.

    Args:
        options: The ``options`` passed to ``reset`` (None means defaults).
        default_low: The lower bound used when ``options`` has no ``"low"``.
        default_high: The upper bound used when ``options`` has no ``"high"``.
        owner: Who is asking, for the error message.

    Returns:
        ``(low, high)`` as floats.

    Raises:
        ValueError: If a bound is not a number or ``low > high``.
    """
    if options is None:
        return default_low, default_high
    low = verify_number_and_cast(options.get("low", default_low), owner=owner, name="low")
    high = verify_number_and_cast(options.get("high", default_high), owner=owner, name="high")
    if low > high:
        raise ValueError(f"{owner} options['low'] must be <= options['high'], got low={low!r} high={high!r}")
    return low, high
