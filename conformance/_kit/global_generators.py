"""The process-wide generators a target must not draw from (SEED-008): NumPy's legacy global one and ``random``'s."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from conformance.equality import difference

__all__ = ["advanced", "state"]


def state() -> tuple[Any, Any]:
    """Both generators' states, ``random``'s first."""
    return random.getstate(), np.random.get_state()


def advanced(before: tuple[Any, Any], after: tuple[Any, Any]) -> str:
    """Which generator moved between two :func:`state` readings (``""``: neither)."""
    if before[0] != after[0]:
        return "random"
    return "numpy's legacy global generator" if difference(before[1], after[1]) is not None else ""
