"""Targets that attack the suite itself: hangs, busy loops and constructors that fail."""

from __future__ import annotations

import time
from typing import Any

from tests.meta.broken._base import Walk

_FOREVER = 3600.0


class SleepsOnStep(Walk):
    """``step`` blocks (in C, uninterruptibly) on its second call."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._steps >= 1:
            time.sleep(_FOREVER)
        return super().step(action)


class SpinsOnStep(Walk):
    """``step`` busy-loops in Python on its second call."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        while self._steps >= 1:
            pass
        return super().step(action)


class SleepsInConstructor(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        time.sleep(_FOREVER)
        super().__init__(render_mode)


class RaisesInConstructor(Walk):
    def __init__(self, render_mode: str | None = None) -> None:
        raise RuntimeError("RaisesInConstructor cannot be built")
