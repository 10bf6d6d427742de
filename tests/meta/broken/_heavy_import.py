"""A package as heavy to import as torch or JAX: importing it takes seconds and leaves two threads running.

The seconds are ``CONFORMANCE_HEAVY_SECONDS`` (default :data:`SECONDS`), so a meta-test can keep its cost down while
the suite still sees a costly construction and a process unsafe to fork (threads besides the main one: spawn
isolation). The threads wait forever and are daemons, as a thread pool's workers are.
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["SECONDS", "THREADS"]

SECONDS = 4.0
"""How long the import takes unless ``CONFORMANCE_HEAVY_SECONDS`` says otherwise."""

_forever = threading.Event()
THREADS = [threading.Thread(target=_forever.wait, name=f"heavy-pool-{i}", daemon=True) for i in range(2)]
"""The threads importing this module starts (never joined)."""

time.sleep(float(os.environ.get("CONFORMANCE_HEAVY_SECONDS", SECONDS)))
for _thread in THREADS:
    _thread.start()
