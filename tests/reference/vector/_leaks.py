"""Leak guards for the ``AsyncVectorEnv`` tests: no worker, ``/dev/shm`` entry or descriptor left behind."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
from collections.abc import Iterator
from typing import Any

__all__ = ["SHM", "no_leaks", "open_fds", "workers_alive"]

SHM = "/dev/shm"


def open_fds() -> set[str]:
    """This process's open file descriptors, minus multiprocessing's heap arenas.

    ``multiprocessing`` keeps freed shared-memory arenas (unlinked ``/dev/shm/pym-*`` files) mapped for reuse; they
    are bounded and not ours to release.
    """
    fds = set()
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(FileNotFoundError):
            if "/dev/shm/pym-" not in os.readlink(f"/proc/self/fd/{fd}"):
                fds.add(fd)
    return fds


def workers_alive() -> list[Any]:
    return [p for p in multiprocessing.active_children() if "AsyncVectorEnv-worker" in p.name]


@contextlib.contextmanager
def no_leaks() -> Iterator[None]:
    """Assert the block leaves no worker, no /dev/shm entry and no file descriptor behind."""
    gc.collect()
    shm_before = set(os.listdir(SHM)) if os.path.isdir(SHM) else set()
    fds_before = open_fds()
    yield
    gc.collect()
    assert workers_alive() == []
    if os.path.isdir(SHM):
        assert set(os.listdir(SHM)) - shm_before == set()
    assert open_fds() <= fds_before
