"""Waiting on the worker processes of an ``AsyncVectorEnv``: one selector over every reply pipe and process exit.

Watching exits alongside the pipes is what turns a dead worker into an immediate error instead of a hang.
"""

from __future__ import annotations

import os
import select
from collections.abc import Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, TypeAlias

__all__ = ["CONN", "SENTINEL", "Waiter"]

#: A started ``multiprocessing`` process of any context.
Process: TypeAlias = Any
#: Event kinds reported by :meth:`Waiter.ready`: a reply pipe is readable, or a worker process exited.
CONN, SENTINEL = 0, 1
# Without pidfds, how often a long wait checks that the workers are still alive.
_POLL_INTERVAL = 0.25


class Waiter:
    """Waits until some worker pipe is readable or some worker process has exited.

    Exit is watched through a pidfd where Linux offers one: unlike the process sentinel (a pipe the child holds),
    it also fires when a grandchild the worker forked still holds copies of the worker's file descriptors.
    Elsewhere the sentinel is watched and, as a backstop, liveness is polled every :data:`_POLL_INTERVAL` seconds.

    Args:
        readers: The parent's reply-pipe end of each worker.
        processes: Each worker's process, in the same order.
    """

    def __init__(self, readers: Sequence[Connection], processes: Sequence[Process]) -> None:
        self._processes = processes
        self._pidfds: list[int] = []
        self._polling = False
        # descriptor -> (kind, worker), and the objects multiprocessing.connection.wait needs where there is no poll.
        self._events: dict[int, tuple[int, int]] = {}
        self._objects: dict[int, Any] = {}
        for worker, reader in enumerate(readers):
            self._watch(reader.fileno(), reader, (CONN, worker))
        for worker, process in enumerate(processes):
            handle = self._exit_handle(process)
            self._watch(handle, handle, (SENTINEL, worker))
        self._epoll = select.epoll() if hasattr(select, "epoll") else None
        self._poll = select.poll() if self._epoll is None and hasattr(select, "poll") else None
        for fd in self._events:
            if self._epoll is not None:
                self._epoll.register(fd, select.EPOLLIN)
            elif self._poll is not None:
                self._poll.register(fd, select.POLLIN)

    def _watch(self, fd: int, obj: object, event: tuple[int, int]) -> None:
        self._events[fd] = event
        self._objects[fd] = obj

    def _exit_handle(self, process: Process) -> int:
        pidfd_open = getattr(os, "pidfd_open", None)
        if pidfd_open is not None:
            try:
                pidfd: int = pidfd_open(process.pid)
            except OSError:
                pass  # e.g. a kernel older than 5.3
            else:
                self._pidfds.append(pidfd)
                return pidfd
        self._polling = True
        sentinel: int = process.sentinel
        return sentinel

    def ready(self, timeout: float | None) -> list[tuple[int, int]]:
        """Wait until some watched pipe is readable or some watched process has exited.

        Args:
            timeout: Seconds to wait at most; ``None`` waits until something happens.

        Returns:
            ``(kind, worker)`` per event (:data:`CONN` or :data:`SENTINEL`); empty when the wait timed out.
        """
        if self._polling:
            timeout = _POLL_INTERVAL if timeout is None else min(timeout, _POLL_INTERVAL)
        if self._epoll is not None:
            fds = [fd for fd, _ in self._epoll.poll(timeout)]
        elif self._poll is not None:
            fds = [fd for fd, _ in self._poll.poll(None if timeout is None else timeout * 1000)]
        else:
            by_object = {id(obj): fd for fd, obj in self._objects.items()}
            fds = [by_object[id(obj)] for obj in wait(list(self._objects.values()), timeout)]
        events = [self._events[fd] for fd in fds]
        if not events and self._polling:
            live = {worker for kind, worker in self._events.values() if kind == SENTINEL}
            events = [(SENTINEL, w) for w in sorted(live) if not self._processes[w].is_alive()]
        return events

    def forget(self, worker: int) -> None:
        """Stop watching worker ``worker``'s pipe and exit (it is known to be dead).

        Args:
            worker: The worker's index.
        """
        for fd, (_, owner) in list(self._events.items()):
            if owner == worker:
                del self._events[fd], self._objects[fd]
                if self._epoll is not None:
                    self._epoll.unregister(fd)
                elif self._poll is not None:
                    self._poll.unregister(fd)

    def close(self) -> None:
        """Release the selector and any pidfds."""
        if self._epoll is not None:
            self._epoll.close()
        self._events.clear()
        self._objects.clear()
        for pidfd in self._pidfds:
            os.close(pidfd)
        self._pidfds.clear()
