"""How many frames a render rule draws: every frame while frames are cheap, fewer when a frame is costly.

A frame costs from microseconds (a text grid) to seconds (a MuJoCo scene drawn by a software OpenGL: Gymnasium-
Robotics' FrankaKitchen takes 1-3 s a frame on a CPU-only machine, its first ~4 s). A fixed frame count per rule
made such a target spend minutes drawing frames that find nothing a few frames do not. So an item's frames are
budgeted by what they cost, as steps are by what steps cost (:mod:`conformance._engine.profiles`):

* a rollout whose frames would cost at most :data:`ALL_SECONDS` in all renders after every step;
* otherwise it renders at a stride that keeps its frames within the item's render budget (the profile's
  ``render_seconds``), never fewer than :data:`ENOUGH` frames while the budget affords them and never fewer
  than :data:`FEWEST` however costly a frame;
* frames the caller marks forced (those right after each reset: a rule about frames across episode ends needs
  them) are drawn whatever they cost, and so is the one at the rollout's last step when no frame after a step was
  drawn in it;
* a cost is the mean of the renders timed so far, and the stride is set after :data:`READINGS` renders, or at
  once when the renders so far took half the budget (the first render of an instance may create its GL context:
  a cheap target's stride shrinks again as its later frames come cheap).

A rule whose renders are calls of a program rather than frames of a rollout (SEED-009) makes a render call only
while :meth:`RenderBudget.allows` it, timing each with :meth:`RenderBudget.timed`.

An item's later examples draw nothing once its budget is spent and a frame after a step was drawn
(:meth:`RenderBudget.spent_out`; a first example of no steps draws only the reset's) -- unless an example failed: then every later one, Hypothesis' shrinking and its final replay included, renders as the first
did, so a finding is replayed, never lost to the budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import Any

from conformance._engine.handles import Handle

__all__ = ["ALL_SECONDS", "ENOUGH", "FEWEST", "READINGS", "RenderBudget"]

ALL_SECONDS = 0.15
"""What a rollout's frames may cost in all for it to render after every step."""

ENOUGH = 20
"""The frames a rollout draws at a stride when the budget affords them."""

FEWEST = 1
"""The fewest frames a rollout draws at a stride (besides the forced ones), however costly a frame."""

READINGS = 3
"""Renders timed before a stride is set (unless they took half the budget already)."""


class RenderBudget:
    """One item's render budget: which positions of a rollout render, and the time its renders took.

    Args:
        seconds: The item's render budget (the profile's ``render_seconds``).
        clock: Where the time comes from (tests give a fake one).
    """

    def __init__(self, seconds: float, clock: Callable[[], float] = time.perf_counter) -> None:
        self.seconds = seconds
        self.clock = clock
        self.spent = 0.0
        self.renders = 0
        self.stepped = 0
        self.failed = False
        self.steps = 0
        self.stride = 1
        self._stepped_before = 0

    def start(self, steps: int) -> None:
        """A new rollout of ``steps`` steps begins (its stride follows from the renders timed so far)."""
        self.steps = steps
        self.stride = self._stride()
        self._stepped_before = self.stepped

    def due(self, position: int, *, forced: bool = False) -> bool:
        """Whether the rollout renders at ``position`` (``forced``: whatever it costs)."""
        last = position == self.steps and self.stepped == self._stepped_before
        return forced or last or position % self.stride == 0

    def render(self, env: Handle, *, forced: bool = False) -> Any:
        """``env.render()``, timed (``forced``: a frame :meth:`due` draws whatever it costs)."""
        self.stepped += not forced
        start = self.clock()
        try:
            return env.render()
        finally:
            took = self.clock() - start
            self.spent += took
            self.renders += 1
            self.stride = self._stride()

    def spent_out(self) -> bool:
        """Whether the budget is spent, a frame at a step was drawn and no example failed (a later example then
        draws nothing)."""
        return self.spent >= self.seconds and self.stepped > 0 and not self.failed

    def allows(self) -> bool:
        """Whether a render made outside a rollout (a program's render call, :meth:`timed`) is still afforded: the
        budget is not spent, or an example failed (a replay renders as the first run did)."""
        return self.spent < self.seconds or self.failed

    @contextmanager
    def timed(self) -> Generator[None]:
        """Around a render made outside a rollout: its time counts against the budget."""
        start = self.clock()
        try:
            yield
        finally:
            self.spent += self.clock() - start
            self.renders += 1

    @contextmanager
    def example(self) -> Generator[None]:
        """Around one example: an example that raises makes every later one render in full (a replay must find
        what the first run found)."""
        try:
            yield
        except BaseException:
            self.failed = True
            raise

    def _stride(self) -> int:
        if not self.renders:
            return 1
        cost = self.spent / self.renders
        if cost * self.steps <= ALL_SECONDS:
            return 1
        if self.renders < READINGS and self.spent * 2 < self.seconds:
            return 1
        affordable = max(FEWEST, int(ALL_SECONDS / cost), min(ENOUGH, int(self.seconds / max(cost, 1e-9))))
        return max(1, math.ceil(self.steps / affordable))
