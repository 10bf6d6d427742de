"""The wire between ``AsyncVectorEnv`` and its workers: the frames they exchange and how each side waits for one.

**Frames.** Every message is one frame whose first byte is a :class:`Command` (parent → worker) or a
:class:`Status` (worker → parent), optionally followed by a pickled payload dataclass. The hot path carries no
payload: ``STEP`` is one byte because actions, observations, rewards and flags travel through shared memory, and the
worker answers ``OK`` (one byte) unless some sub-env reported an info.

**Transport.** Each worker has two one-way pipes (commands down, replies up; a round trip through pipes costs about
half of one through a duplex socket) and two counters in shared memory: how many frames each side has sent. A
frame is written to its pipe first and counted second, so the pipe is the truth and the counter a hint.

**Waiting.** A receiver that expects a frame soon *spins* on the counter, yielding the CPU every round: a memory
read instead of a sleep and a wake-up, which cost tens of microseconds each on a virtual machine whose idle CPUs
halt. It then reads the frame, which is already in the pipe. Spinning pays only while CPUs are spare, so it stops
after :data:`SPIN_SECONDS`, or as soon as one yield takes longer than :data:`CONTENDED` (another process needed
the CPU: on a loaded machine a sleeper is woken sooner than a spinner is rescheduled). Then the receiver blocks on
the pipe (the parent also on the workers' exit handles, the worker on its parent's), so a late frame, a dead worker
or a dead parent all end the wait. No ordering of the counter and the pipe can lose a frame: a blocked reader is
woken by the pipe itself.
"""

from __future__ import annotations

import ctypes
import enum
import functools
import multiprocessing
import os
import pickle
import selectors
import struct
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any, Generic, TypeAlias, TypeVar

from gymspec import InfoDict, Options

if TYPE_CHECKING:
    from reference.vector._async.worker import RemoteError

__all__ = [
    "CONTENDED",
    "MAX_BACKOFF",
    "SPIN_SECONDS",
    "CallRequest",
    "Channel",
    "Command",
    "Link",
    "Report",
    "ResetRequest",
    "SetAttrRequest",
    "Spinner",
    "Status",
    "StepRequest",
    "Watch",
    "allocate_counters",
    "decode",
    "encode",
    "merge_replies",
]

#: A value only a sub-env interprets: an action, an observation, a call argument or result, an attribute value.
Payload: TypeAlias = Any
#: The frame counters: two per worker (sent by the parent, sent by the worker), each on its own cache line.
Counters: TypeAlias = "ctypes.Array[ctypes.c_int64]"
_PROTOCOL = pickle.HIGHEST_PROTOCOL
_T = TypeVar("_T")
#: How long a receiver spins on the frame counter before it blocks on the pipe.
SPIN_SECONDS = 0.0002
#: A spin round this long means the yield let another process run: the CPU is contended, so stop spinning.
CONTENDED = 0.00005
#: The most waits that skip spinning after spins kept failing.
MAX_BACKOFF = 256
# 8 int64 per counter: writers on different cores never share a cache line.
_STRIDE = 8
_HEADER = struct.Struct("!I")
_READ_SIZE = 1 << 16
_yield: Callable[[], object] = getattr(os, "sched_yield", lambda: time.sleep(0))


class Command(enum.IntEnum):
    """What the parent asks a worker to do (the first byte of a parent → worker frame)."""

    STEP = 1
    """Step the worker's sub-envs; actions are in shared memory unless a :class:`StepRequest` follows."""
    RESET = 2
    """Reset some of the worker's sub-envs (:class:`ResetRequest`)."""
    CALL = 3
    """Call a method, or read an attribute, on every sub-env (:class:`CallRequest`)."""
    SET_ATTR = 4
    """Set an attribute on every sub-env (:class:`SetAttrRequest`)."""
    CLOSE = 5
    """Close the sub-envs, acknowledge and exit."""


class Status(enum.IntEnum):
    """How a command went (the first byte of a worker → parent frame)."""

    OK = 0
    """Done, nothing to report (the common step reply)."""
    DATA = 1
    """Done; a :class:`Report` follows."""
    ERROR = 2
    """A sub-env (or the worker) raised; a ``RemoteError`` (see the worker module) follows."""


@dataclass(frozen=True)
class StepRequest:
    """Actions sent through the pipe, used when a batch cannot go through the shared action buffer.

    Attributes:
        actions: One action per sub-env of the worker, in order.
    """

    actions: tuple[Payload, ...]


@dataclass(frozen=True)
class ResetRequest:
    """Reset the listed sub-envs.

    Attributes:
        entries: ``(sub-env index, seed)`` pairs, in increasing index order.
        options: The options for every reset.
    """

    entries: tuple[tuple[int, int | None], ...]
    options: Options | None


@dataclass(frozen=True)
class CallRequest:
    """Call ``name`` on every sub-env with ``args``/``kwargs`` (or read it, if it is not callable)."""

    name: str
    args: tuple[Payload, ...]
    kwargs: dict[str, Payload]


@dataclass(frozen=True)
class SetAttrRequest:
    """Set ``name`` on every sub-env of the worker.

    Attributes:
        name: The attribute name.
        values: One value per sub-env of the worker, in order.
    """

    name: str
    values: tuple[Payload, ...]


@dataclass(frozen=True)
class Report:
    """What a worker returns besides shared memory.

    Frozen, with tuple fields, so the one empty report :func:`merge_replies` returns on the hot path can be shared
    by every caller without one of them changing what the next one reads.

    Attributes:
        infos: ``(sub-env index, info)`` pairs to merge in this order (non-empty infos only).
        observations: ``(sub-env index, observation)`` pairs when observations do not use shared memory.
        results: One ``call`` result per sub-env of the worker.
    """

    infos: tuple[tuple[int, InfoDict], ...] = ()
    observations: tuple[tuple[int, Payload], ...] = ()
    results: tuple[Payload, ...] = ()


def encode(code: int, payload: object | None = None) -> bytes:
    """Build one frame.

    Args:
        code: A :class:`Command` or :class:`Status`.
        payload: An optional dataclass to pickle after the code byte.

    Returns:
        The frame.
    """
    head = bytes((code,))
    return head if payload is None else head + pickle.dumps(payload, protocol=_PROTOCOL)


def decode(frame: bytes) -> tuple[int, Payload]:
    """Split a frame into its code and (unpickled) payload.

    Args:
        frame: A frame built by :func:`encode`.

    Returns:
        ``(code, payload)``; the payload is ``None`` for a bare code.
    """
    if len(frame) == 1:
        return frame[0], None
    return frame[0], pickle.loads(memoryview(frame)[1:])


_OK = encode(Status.OK)
# The report of a call whose every worker answered a bare OK: one object for every such call, safe because frozen.
_NOTHING = Report()


def _drop_note(note: str) -> None:
    """Stand-in for ``BaseException.add_note`` on Python 3.10, which has no exception notes."""


def merge_replies(replies: dict[int, bytes]) -> Report:
    """Merge the workers' replies in sub-env order; raise the first sub-env's error after reading them all.

    Args:
        replies: Each worker's reply frame.

    Returns:
        The merged report (one shared empty report, immutable like every report, when every worker answered a
        bare ``OK``).

    Raises:
        BaseException: The first error a worker reported, re-created by ``RemoteError.rebuild``, with the
            other workers' failures listed in a note.
    """
    if all(frame == _OK for frame in replies.values()):
        return _NOTHING  # the common step: everything travelled through shared memory
    infos: list[tuple[int, InfoDict]] = []
    observations: list[tuple[int, Payload]] = []
    results: list[Payload] = []
    errors: list[RemoteError] = []
    for worker in sorted(replies):
        status, payload = decode(replies[worker])
        if status == Status.ERROR:
            errors.append(payload)
        elif status == Status.DATA:
            infos.extend(payload.infos)
            observations.extend(payload.observations)
            results.extend(payload.results)
    if errors:
        exc = errors[0].rebuild()
        if len(errors) > 1:
            others = ", ".join(error.where() for error in errors[1:])
            add_note: Callable[[str], object] = getattr(exc, "add_note", _drop_note)
            add_note(f"Other failures in the same call: {others}")
        raise exc
    return Report(tuple(infos), tuple(observations), tuple(results))


# --- transport ----------------------------------------------------------------------------------------------------


def allocate_counters(ctx: BaseContext, num_workers: int) -> Counters:
    """Allocate the shared frame counters of ``num_workers`` workers (all zero).

    Args:
        ctx: The ``multiprocessing`` context the workers are started from.
        num_workers: The number of workers.

    Returns:
        The counter block, to give every :class:`Channel`.
    """
    counters: Counters = ctx.RawArray(ctypes.c_int64, 2 * _STRIDE * num_workers)
    return counters


class Spinner:
    """Spins until a condition holds, yielding the CPU between looks, and stops spinning while it does not pay.

    A spin *fails* when its budget (:data:`SPIN_SECONDS`) runs out, or when one yield takes longer than
    :data:`CONTENDED` (another process got the CPU: it was not spare), even if the condition then holds. After a
    failure the next ``backoff`` waits do not spin at all; ``backoff`` doubles with every failure up to
    :data:`MAX_BACKOFF` and returns to 1 after a success. So spinning stays on while CPUs are spare, and a loaded
    machine sees one probing spin every few hundred waits.

    Args:
        clock: Returns the time in seconds.
        pause: Gives the CPU away for a moment (``os.sched_yield`` where there is one).
    """

    __slots__ = ("_backoff", "_clock", "_pause", "_skip")

    def __init__(self, clock: Callable[[], float] = time.perf_counter, pause: Callable[[], object] = _yield) -> None:
        self._clock, self._pause = clock, pause
        self._skip = 0
        self._backoff = 1

    def spin(self, ready: Callable[[], bool], budget: float | None = None) -> bool:
        """Call ``ready`` until it returns true or the spin fails (see the class doc).

        Args:
            ready: The condition; called once more after every yield.
            budget: Seconds to spin at most (default :data:`SPIN_SECONDS`).

        Returns:
            The last value of ``ready()``: false means the caller must block.
        """
        if ready():
            return True
        if self._skip:
            self._skip -= 1
            return False
        clock, pause = self._clock, self._pause
        now = clock()
        end = now + (SPIN_SECONDS if budget is None else budget)
        while True:
            pause()
            before, now = now, clock()
            if now - before > CONTENDED or now >= end:
                # Even if the frame is here now, the yield gave the CPU away for long: stop spinning for a while.
                self._skip = self._backoff
                self._backoff = min(2 * self._backoff, MAX_BACKOFF)
                return ready()
            if ready():
                self._backoff = 1
                return True


class Channel:
    """One side of one worker's link: frames out through ``writer``, in from ``reader``, counted in ``counters``.

    Commands and replies strictly alternate, so a read never returns bytes of the next frame.

    Args:
        reader: The readable end of the incoming pipe.
        writer: The writable end of the outgoing pipe.
        counters: The block from :func:`allocate_counters`.
        worker: The worker this link serves.
        parent: Whether this is the parent's side.
    """

    def __init__(self, reader: Connection, writer: Connection, counters: Counters, worker: int, parent: bool) -> None:
        self._bind(reader, writer, counters, worker, parent)

    def _bind(self, reader: Connection, writer: Connection, counters: Counters, worker: int, parent: bool) -> None:
        self.reader, self.writer, self._counters, self._worker, self._parent = reader, writer, counters, worker, parent
        # POSIX pipes are read and written straight through their descriptors: one system call per small frame,
        # instead of the separate header and body calls (and checks) of Connection.send_bytes/recv_bytes.
        posix = os.name == "posix"
        self._in, self._out = (reader.fileno(), writer.fileno()) if posix else (-1, -1)
        self._count = memoryview(counters).cast("B").cast("q")
        base = 2 * _STRIDE * worker
        self._sent_slot, self._arrival_slot = (base, base + _STRIDE) if parent else (base + _STRIDE, base)
        # Frames read so far; resuming after a fork or spawn starts from what the counters say was sent to us.
        self._received = self._count[self._arrival_slot]
        self._sent = self._count[self._sent_slot]

    def __getstate__(self) -> tuple[Connection, Connection, Counters, int, bool]:
        # Descriptors and views are per process: a spawned worker rebuilds them from its own copies.
        return self.reader, self.writer, self._counters, self._worker, self._parent

    def __setstate__(self, state: tuple[Connection, Connection, Counters, int, bool]) -> None:
        self._bind(*state)

    def send(self, frame: bytes) -> None:
        """Write one frame, then count it.

        Args:
            frame: The frame.

        Raises:
            OSError: The peer is gone (``BrokenPipeError``).
        """
        if self._out < 0:
            self.writer.send_bytes(frame)
        else:
            data = memoryview(_HEADER.pack(len(frame)) + frame)
            while data:
                data = data[os.write(self._out, data) :]
        self._sent += 1
        self._count[self._sent_slot] = self._sent

    def arrived(self) -> bool:
        """Tell whether the peer has counted a frame this side has not read yet (a hint; see the module doc)."""
        return self._count[self._arrival_slot] > self._received

    def recv(self) -> bytes:
        """Read one frame, blocking until it is complete.

        Returns:
            The frame.

        Raises:
            EOFError: The peer closed its end (or died) before a complete frame arrived.
        """
        if self._in < 0:
            frame = self.reader.recv_bytes()
            self._received += 1
            return frame
        data = os.read(self._in, _READ_SIZE)
        while len(data) < _HEADER.size:
            data += self._more(_HEADER.size - len(data))
        size = _HEADER.unpack_from(data)[0] + _HEADER.size
        if len(data) < size:
            buffer = bytearray(data)
            while len(buffer) < size:
                buffer += self._more(min(size - len(buffer), _READ_SIZE))
            data = bytes(buffer)
        self._received += 1
        return data[_HEADER.size :]

    def _more(self, wanted: int) -> bytes:
        chunk = os.read(self._in, wanted)
        if not chunk:
            raise EOFError("the other end of the pipe was closed")
        return chunk

    def poll(self) -> bool:
        """Tell whether a frame (or end-of-file) can be read without blocking."""
        return self.reader.poll(0)

    def close(self) -> None:
        """Close both pipe ends."""
        self.reader.close()
        self.writer.close()


class Watch(Generic[_T]):
    """Waits until some watched object is readable: a pipe end, a descriptor, a process sentinel.

    POSIX keeps one epoll/poll selector for all waits; elsewhere ``multiprocessing.connection.wait`` (which also
    takes Windows handles) is called each time.
    """

    def __init__(self) -> None:
        self._selector: selectors.BaseSelector | None = selectors.DefaultSelector() if os.name == "posix" else None
        self._watched: dict[Connection | int, _T] = {}

    def add(self, source: Connection | int, tag: _T) -> None:
        """Watch ``source``; :meth:`wait` reports it as ``tag``."""
        self._watched[source] = tag
        if self._selector is not None:
            self._selector.register(source, selectors.EVENT_READ, tag)

    def discard(self, tag: _T) -> None:
        """Stop watching everything reported as ``tag``."""
        for source in [source for source, watched in self._watched.items() if watched == tag]:
            del self._watched[source]
            if self._selector is not None:
                self._selector.unregister(source)

    def wait(self, timeout: float | None) -> list[_T]:
        """The tags of the watched objects that are readable, waiting up to ``timeout`` seconds for one."""
        if self._selector is not None:
            return [key.data for key, _ in self._selector.select(timeout)]
        return [self._watched[source] for source in wait(list(self._watched), timeout)]  # type: ignore[index]

    def close(self) -> None:
        """Release the selector."""
        if self._selector is not None:
            self._selector.close()
        self._watched.clear()


_CONN, _EXIT = 0, 1


class Link:
    """The parent's side of every worker's channel: send commands and collect replies, spinning then blocking.

    Replies received before a timeout are kept, so collecting again resumes where a timed-out collect stopped and
    the pipes never get out of step with the commands. A worker is declared dead when its exit handle fires (or,
    without pidfds, when ``alive`` says so) with no reply left in its pipe; ``died(worker)`` builds the error.

    Args:
        channels: The parent's channel to each worker.
        exit_handles: A descriptor per worker that becomes readable when it exits (a pidfd or process sentinel).
        alive: Tells whether a worker still runs; polled every :data:`_LIVENESS_POLL` seconds when ``polling``.
        died: Builds the error for a dead worker.
        polling: Whether the exit handles can miss an exit (sentinels: a grandchild may hold them open).
    """

    def __init__(
        self,
        channels: Sequence[Channel],
        exit_handles: Sequence[int],
        alive: Callable[[int], bool],
        died: Callable[[int], BaseException],
        polling: bool,
    ) -> None:
        self.channels = list(channels)
        self.dead: set[int] = set()
        self._alive, self._died, self._polling = alive, died, polling
        self._replies: dict[int, bytes] = {}
        self._spinner = Spinner()
        self._watch: Watch[tuple[int, int]] = Watch()
        for worker, (channel, handle) in enumerate(zip(channels, exit_handles, strict=True)):
            self._watch.add(channel.reader, (_CONN, worker))
            self._watch.add(handle, (_EXIT, worker))

    def death(self, worker: int) -> BaseException:
        """Record ``worker`` as dead (its descriptors are no longer watched) and return the error to raise.

        Args:
            worker: The worker's index.

        Returns:
            The error.
        """
        if worker not in self.dead:
            self.dead.add(worker)
            self._watch.discard((_CONN, worker))
            self._watch.discard((_EXIT, worker))
        return self._died(worker)

    def send(self, worker: int, frame: bytes) -> None:
        """Send one frame to ``worker``.

        Raises:
            BaseException: The worker is dead (the error ``died`` builds).
        """
        if worker in self.dead:
            raise self.death(worker)
        try:
            self.channels[worker].send(frame)
        except OSError as exc:
            raise self.death(worker) from exc

    def _receive(self, worker: int) -> None:
        try:
            self._replies[worker] = self.channels[worker].recv()
        except (EOFError, OSError) as exc:
            raise self.death(worker) from exc

    def collect(self, workers: Sequence[int], timeout: float | None) -> dict[int, bytes]:
        """Wait for one reply from each of ``workers``: spin for up to :data:`SPIN_SECONDS`, then block.

        Args:
            workers: The workers that owe a reply.
            timeout: Seconds to wait at most; ``None`` waits as long as the workers live.

        Returns:
            Each worker's reply frame.

        Raises:
            multiprocessing.TimeoutError: Not every reply arrived in time; those that did are kept for the next call.
            BaseException: A worker that owes a reply died (the error ``died`` builds).
        """
        pending = [worker for worker in workers if worker not in self._replies]
        for worker in pending:
            if worker in self.dead:
                raise self.death(worker)
        if pending:
            budget = SPIN_SECONDS if timeout is None else min(SPIN_SECONDS, timeout)
            self._spinner.spin(functools.partial(self._take_arrived, pending), budget)
        if pending:
            self._block(pending, timeout)
        return {worker: self._replies.pop(worker) for worker in workers}

    def _take_arrived(self, pending: list[int]) -> bool:
        """Receive the replies counted as sent; tell whether none is pending any more."""
        channels = self.channels
        for worker in tuple(pending):
            if channels[worker].arrived():
                self._receive(worker)
                pending.remove(worker)
        return not pending

    def _block(self, pending: list[int], timeout: float | None) -> None:
        deadline = None if timeout is None else time.monotonic() + timeout
        while pending:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            if self._polling:
                wait = _LIVENESS_POLL if wait is None else min(wait, _LIVENESS_POLL)
            events = self._watch.wait(wait)
            if self._polling:
                events += [(_EXIT, w) for w in pending if not self._alive(w)]
            # Replies before exits: a worker may answer and then exit (after CLOSE).
            for kind, worker in sorted(events):
                if worker in self.dead or worker not in pending:
                    if worker not in self.dead and not self._alive(worker):
                        self.death(worker)  # only a dead worker's descriptors become ready unasked
                    continue
                if kind == _CONN or self.channels[worker].poll():
                    self._receive(worker)
                    pending.remove(worker)
                else:
                    raise self.death(worker)
            if pending and deadline is not None and time.monotonic() >= deadline:
                raise multiprocessing.TimeoutError(f"AsyncVectorEnv workers {pending} did not reply within {timeout} s")

    def unanswered(self, workers: Sequence[int]) -> list[int]:
        """Those of ``workers`` whose reply has not been received (by a :meth:`collect` that timed out)."""
        return [worker for worker in workers if worker not in self._replies and worker not in self.dead]

    def discard_replies(self) -> None:
        """Forget replies kept from a timed-out collect."""
        self._replies.clear()

    def close(self) -> None:
        """Stop watching and close every pipe end."""
        self._watch.close()
        for channel in self.channels:
            channel.close()


#: Without pidfds, how often a blocked collect checks that the workers are still alive.
_LIVENESS_POLL = 0.25
