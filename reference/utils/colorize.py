"""ANSI colouring for terminal messages (used by :mod:`reference.logger`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["color2num", "colorize"]

color2num: Final[Mapping[str, int]] = {
    "gray": 30,
    "red": 31,
    "green": 32,
    "yellow": 33,
    "blue": 34,
    "magenta": 35,
    "cyan": 36,
    "white": 37,
    "crimson": 38,
}


def colorize(string: str, color: str, bold: bool = False, highlight: bool = False) -> str:
    """Wrap ``string`` in ANSI escape codes.

    Args:
        string: The text to colour.
        color: One of the names in :data:`color2num`.
        bold: Also make the text bold.
        highlight: Colour the background instead of the foreground.

    Returns:
        The escaped text, reset to the default style at the end.

    Raises:
        ValueError: ``color`` is not a known colour name.
    """
    try:
        code = color2num[color]
    except KeyError:
        raise ValueError(f"colorize color must be one of {sorted(color2num)}, got {color!r}") from None
    if highlight:
        code += 10
    attrs = [str(code)]
    if bold:
        attrs.append("1")
    return f"\x1b[{';'.join(attrs)}m{string}\x1b[0m"
