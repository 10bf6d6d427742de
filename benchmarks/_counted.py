"""A slow constructor that logs each of its constructions, for ``benchmarks/bench_constructions.py``.

:class:`CountedSlowConstructor` is tests/meta's ``SlowConstructor`` (every construction sleeps ``seconds``) that
appends one JSON line per construction to the file named by ``$GYMSPEC_CONSTRUCTION_LOG``: when it started and
ended, the process, the render mode, whether it raised, the item in progress (``$PYTEST_CURRENT_TEST``, empty in a
zygote's warm-up) and the innermost suite frame that asked for it. Nothing in the suite knows about it: the count is
the target's own, as a user's instrumented env would see it.
"""

from __future__ import annotations

import json
import os
import sys
import time
from types import FrameType

from tests.meta.broken.unchecked import SlowConstructor

__all__ = ["LOG_VARIABLE", "CountedSlowConstructor"]

LOG_VARIABLE = "GYMSPEC_CONSTRUCTION_LOG"


def _caller() -> str:
    """The innermost function of the suite (``conformance``) on the stack: which check, or the shelf, constructs."""
    frame: FrameType | None = sys._getframe(2)  # noqa: SLF001 - the caller of this class's __init__
    while frame is not None:
        if frame.f_globals.get("__name__", "").startswith("conformance"):
            return f"{frame.f_globals['__name__']}:{frame.f_code.co_name}"
        frame = frame.f_back
    return ""


class CountedSlowConstructor(SlowConstructor):
    """``SlowConstructor`` that logs its constructions (see the module)."""

    def __init__(self, render_mode: str | None = None, seconds: float = 2.0) -> None:
        started = time.time()
        caller = _caller()
        raised = True
        try:
            super().__init__(render_mode, seconds)
            raised = False
        finally:
            path = os.environ.get(LOG_VARIABLE)
            if path:
                record = {
                    "started": started, "ended": time.time(), "pid": os.getpid(), "mode": render_mode,
                    "raised": raised, "item": os.environ.get("PYTEST_CURRENT_TEST", ""), "caller": caller,
                }
                with open(path, "a", encoding="utf-8") as log:
                    log.write(json.dumps(record) + "\n")
