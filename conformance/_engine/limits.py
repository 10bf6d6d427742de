"""How long one call into a target may take: derived from what the same kind of call has cost, never a fixed figure.

A JIT-compiled env (JAX, numba) pays its compile on the first ``reset`` and ``step`` of every process; a benchmark env
may take half a minute to construct. Neither is a hang, and neither may become one because a flat per-call timeout
was chosen for a cheap env. So each kind of call (the board's ``method``: ``construct``, ``reset``, ``step``, ...)
gets its own limit:

* the **first** call of a kind in a process gets a grace: :data:`COST_FACTOR` times what the first call of that kind
  cost where it was measured (the target's cost probe, handed to every job), or, where nothing was measured yet,
  :data:`FIRST_CALL_GRACE` times the timeout;
* a **later** call gets :data:`COST_FACTOR` times the cheapest call of its kind seen so far (measured in this process
  or by the probe);
* never less than the timeout (``--conformance-timeout``), the floor every call of a cheap target is held to.

A hanging call therefore still fails: after the timeout when its kind is cheap, after a few times its measured cost
when it is not.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["COST_FACTOR", "FIRST_CALL_GRACE", "CallLimits"]

FIRST_CALL_GRACE = 6.0
"""The first call of a kind nobody has measured may take this many timeouts (a compile, a slow constructor)."""
COST_FACTOR = 3.0
"""A call whose kind has a measured cost may take this many times that cost (when that exceeds the timeout)."""


class CallLimits:
    """Per-process memory of what each kind of call cost, and the limit it gives the next call of that kind.

    Forked processes inherit what their parent measured (a zygote's construction of the probe, say); which kinds have
    been called *in this process* starts afresh in each one, since a compile cache does not survive a new process.

    Args:
        timeout: The floor of every limit, in seconds.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._pid = os.getpid()
        self._called: set[str] = set()
        self._first: dict[str, float] = {}  # first call of each kind, as measured (by the probe or here)
        self._cheapest: dict[str, float] = {}

    def prime(self, first: Mapping[str, float], steady: Mapping[str, float]) -> None:
        """Take in costs measured elsewhere: the first call of each kind, and a later one (seconds)."""
        for method, seconds in first.items():
            self._first[method] = max(self._first.get(method, 0.0), float(seconds))
        for method, seconds in steady.items():
            self._cheapest[method] = min(self._cheapest.get(method, float("inf")), float(seconds))

    def limit(self, method: str) -> float:
        """Seconds the next call of ``method`` may take."""
        if os.getpid() != self._pid:
            self._pid, self._called = os.getpid(), set()
        if method not in self._called:
            first = self._first.get(method)
            if first is None:
                return FIRST_CALL_GRACE * self.timeout
            return max(self.timeout, COST_FACTOR * first)
        return max(self.timeout, COST_FACTOR * self._cheapest.get(method, 0.0))

    def took(self, method: str, seconds: float) -> None:
        """Record that a call of ``method`` returned after ``seconds``."""
        if method not in self._called:
            self._called.add(method)
            self._first.setdefault(method, seconds)
        self._cheapest[method] = min(self._cheapest.get(method, float("inf")), seconds)
