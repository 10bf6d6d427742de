"""Where an item's time goes: the seconds spent inside calls into the target (its *target time*), apart from the rest
of its wall time, which is the suite's own (drawing examples, copying and comparing results, reporting).

Every call into a target goes through the session's guard (:class:`~conformance._engine.watchdog.Guard`): a
construction, ``reset``, ``step``, ``render``, ``close``, an attribute read through a handle, the probe's reads, the
shelf's constructions. :class:`MeteredGuard` wraps that guard and adds the wall time of each call to the process's
:class:`Meter`; a call made inside another call on the same thread (a check timing a whole helper that itself calls
through a handle) is counted once, as the outer call. The plugin reads the meter around each phase of an item, so
every item's record (:class:`~conformance.results.RuleResult`) carries ``target_seconds`` beside ``seconds``: an
item whose suite time is many times its target time spends its time on the suite's own work, which is a defect of the
suite to fix, not a cost of the target.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, ParamSpec, TypeVar

if TYPE_CHECKING:
    from conformance._engine.watchdog import CallLimits, Guard

__all__ = ["METER", "Meter", "MeteredGuard", "metered"]

T = TypeVar("T")
P = ParamSpec("P")


class Meter:
    """The seconds this process spent inside calls into the target (:attr:`seconds`, only ever growing).

    Args:
        clock: Seconds, monotonic (a test gives a fake one).
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.seconds = 0.0
        # Per thread: whether a timed call is in progress there. A worker thread abandoned inside a call that never
        # returned keeps its own mark, so it cannot stop the meter for the calls made after it.
        self._inside = threading.local()

    def timed(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """Call ``fn(*args, **kwargs)`` as a call into the target, adding its wall time to :attr:`seconds` (once,
        when calls nest)."""
        inside = self._inside
        if getattr(inside, "busy", False):
            return fn(*args, **kwargs)
        inside.busy = True
        started = self.clock()
        try:
            return fn(*args, **kwargs)
        finally:
            self.seconds += self.clock() - started
            inside.busy = False


METER = Meter()
"""The meter of this process: the session's guard feeds it, the plugin reads it around each item's phases."""


class MeteredGuard:
    """A guard that times every call it passes on to ``guard`` into ``meter``; everything else is ``guard``'s.

    Args:
        guard: The guard that runs and watches the calls (a thread watchdog, or a supervised process's board).
        meter: Where the calls' seconds go.
    """

    def __init__(self, guard: Guard, meter: Meter = METER) -> None:
        self.guard = guard
        self.meter = meter

    @property
    def timeout(self) -> float:
        """The wrapped guard's timeout."""
        return self.guard.timeout

    @property
    def limits(self) -> CallLimits:
        """The wrapped guard's call limits."""
        return self.guard.limits

    def call(
        self, label: str, fn: Callable[[], T], *, method: str = "", mode: str = "", limit: float = 0.0,
        arguments: Mapping[str, object] | None = None, beside: bool = False,
    ) -> T:
        """The wrapped guard's call, timed into the meter."""
        return self.meter.timed(self.guard.call, label, fn, method=method, mode=mode, limit=limit,
                                arguments=arguments, beside=beside)

    def run(self, body: Callable[[], T]) -> T:
        """The wrapped guard's run (a body is the suite's code; the calls inside it are timed one by one)."""
        return self.guard.run(body)

    def in_worker(self) -> bool:
        """The wrapped guard's answer."""
        return self.guard.in_worker()

    def shutdown(self) -> None:
        """Shut the wrapped guard down."""
        self.guard.shutdown()


def metered(guard: Guard) -> Guard:
    """``guard`` timed into the process's meter (a guard that already is, as it is)."""
    return guard if isinstance(guard, MeteredGuard) else MeteredGuard(guard)
