"""Correct envs that talk while they run: what they print and warn is theirs to say, never a finding, and the run
shows it where a person reads it (issue 39 item 5).

:class:`PrintsEachStep` prints a progress line on every step (a simulator's log) and one on stderr per episode; the
run keeps the last lines of each item in its record, not on the terminal. :class:`WarnsAtItsCaller` warns once per
instance about its caller (``stacklevel=2``: the location is the suite's call) and once about itself: only the
second is the target's own warning.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np

from tests.meta.broken._base import Walk

__all__ = ["PRINTED", "PrintsAndBreaksEnv011", "PrintsEachStep", "WarnsAtItsCaller"]

PRINTED = "PrintsEachStep: step"
"""How each line :class:`PrintsEachStep` prints on stdout starts."""


class PrintsEachStep(Walk):
    """A correct env that prints a line on every step, and one on stderr at each reset."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        sys.stderr.write("PrintsEachStep: a new episode\n")
        return super().reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        print(f"{PRINTED} {self._steps + 1}, action {action}")
        return super().step(action)


class WarnsAtItsCaller(Walk):
    """A correct env whose first step of each instance warns about its caller, then about itself."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        if self._steps == 0:
            warnings.warn("WarnsAtItsCaller: about the call", UserWarning, stacklevel=2)
            warnings.warn("WarnsAtItsCaller: about itself", UserWarning, stacklevel=1)
        return super().step(action)


class PrintsAndBreaksEnv011(PrintsEachStep):
    """:class:`PrintsEachStep` with a 0-d array reward (ENV-011): pytest shows a failing item's captured output,
    which is where a target's prints reached the terminal."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, np.array(reward), terminated, truncated, info
