"""Correct envs whose episodes give a rule too little to judge: episodes that never end, that end only by a time
limit, or that end too slowly for the time an item has. The suite must not pass the rules about episode ends on
them, nor fail them: those items are *not observed* (a skip that says why) when the episodes do not give the event
within the episode cap, and *not checked* (an error naming the remedy) when the item ran out of time first
(``tests/meta/test_evidence.py``).
"""

from __future__ import annotations

import time
from typing import Any

from tests.meta.broken._base import Walk

__all__ = ["Endless", "OnlyTruncated", "SlowEpisodes"]


class Endless(Walk):
    """Never terminated, never truncated, no declared limit (an infinite-horizon task)."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, _, _, info = super().step(action)
        return obs, reward, False, False, info


class OnlyTruncated(Walk):
    """Every episode ends by its time limit (truncated after 30 steps), never in a terminal state."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, _, truncated, info = super().step(action)
        return obs, reward, False, truncated, info


class SlowEpisodes(Walk):
    """Episodes of 100 steps (truncated), each step taking :data:`STEP_SECONDS`."""

    STEP_SECONDS = 0.01

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        time.sleep(self.STEP_SECONDS)
        obs, reward, _, _, info = super().step(action)
        return obs, reward, False, self._steps >= 100, info
