"""reference.utils.colorize."""

from __future__ import annotations

import pytest

from reference.utils import colorize


def test_codes() -> None:
    assert colorize("x", "red") == "\x1b[31mx\x1b[0m"
    assert colorize("x", "yellow", bold=True, highlight=True) == "\x1b[43;1mx\x1b[0m"
    with pytest.raises(ValueError, match="colorize color must be one of"):
        colorize("x", "mauve")
