"""Progress of long runs on the terminal: per target, items done of its total and the time so far."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import pytest

from conformance.results import RuleResult

__all__ = ["Progress"]


class Progress:
    """Per target, items done of total and the time since its first item, on the terminal of long runs.

    Args:
        config: The run's config (verbosity, the terminal reporter).
        target_of: The target id of a conformance item's node id (``None`` for other items).
        clock: Seconds, monotonic.

    A line is written when a target finishes and, while one runs, at most every :attr:`EVERY` seconds; nothing in
    the first few seconds (short runs stay as pytest prints them) and nothing under ``-q``.
    """

    EVERY = 10.0
    QUIET_FOR = 5.0

    def __init__(
        self, config: pytest.Config, target_of: Callable[[str], str | None], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.config = config
        self.target_of = target_of
        self.clock = clock
        self.totals: dict[str, int] = {}
        self.done: dict[str, set[str]] = {}
        self.started: dict[str, float] = {}
        self.announced: set[str] = set()
        self.began = clock()
        self.last = self.began

    def expect(self, nodeids: Iterable[str]) -> None:
        """Count each target's items (once: every xdist worker reports the same collection)."""
        if self.totals:
            return
        for nodeid in nodeids:
            target = self.target_of(nodeid)
            if target is not None:
                self.totals[target] = self.totals.get(target, 0) + 1

    def reported(self, report: pytest.TestReport, record: RuleResult) -> None:
        """Note an item's report; write a line when its target finished or the last line is old enough."""
        target = record.target
        now = self.clock()
        self.started.setdefault(target, now)
        done = self.done.setdefault(target, set())
        done.add(report.nodeid)
        total = self.totals.get(target)
        if self.config.get_verbosity() < 0 or total is None or now - self.began < self.QUIET_FOR:
            return
        finished = len(done) >= total
        if finished:
            if target in self.announced:  # the item's later phases
                return
            self.announced.add(target)
        elif now - self.last < self.EVERY or now - self.started[target] < self.QUIET_FOR:
            return
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:
            return
        self.last = now
        state = "done" if finished else "running"
        reporter.write_line(f"conformance: {target} {len(done)}/{total} items {state}, {now - self.started[target]:.1f} s")
