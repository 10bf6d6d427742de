"""A stand-in for a heavy runtime package (torch, JAX): importing it takes seconds and leaves two threads running.

The import sleeps :data:`SECONDS` (``$CONFORMANCE_SLOW_IMPORT_SECONDS``, default 4) and starts two daemon threads
that never end, as importing torch or JAX starts its thread pools; the threads make the suite run the target's items
under spawn isolation (a fork would copy their locks, not them). Each import writes a file named after its process
in ``$CONFORMANCE_SLOW_IMPORT_LOG`` (when set), so a test or a benchmark counts how many processes paid for it.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

__all__ = ["IMPORT_LOG", "SECONDS"]

IMPORT_LOG = "CONFORMANCE_SLOW_IMPORT_LOG"
"""Environment variable naming a directory where each import of this module leaves a file (its process id)."""

SECONDS = float(os.environ.get("CONFORMANCE_SLOW_IMPORT_SECONDS", "4"))
"""How long the import takes."""


def _runtime_thread() -> None:
    while True:  # a pool worker waiting for work
        time.sleep(1.0)


time.sleep(SECONDS)
for _ in range(2):
    threading.Thread(target=_runtime_thread, name="slow-runtime", daemon=True).start()
_log = os.environ.get(IMPORT_LOG)
if _log:
    Path(_log, str(os.getpid())).write_text("", encoding="utf-8")
