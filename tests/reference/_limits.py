"""A time limit for a block of test code that might block forever (a hung worker, a wedged pipe)."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator
from types import FrameType

__all__ = ["within"]


@contextlib.contextmanager
def within(seconds: float, error: Callable[[str], BaseException] = AssertionError) -> Iterator[None]:
    """Raise ``error(message)`` in the block (instead of hanging the suite) if it takes longer than ``seconds``.

    Uses ``SIGALRM``: main thread only, and not nested.
    """

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise error(f"blocked for more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
