"""The messages ``AsyncVectorEnv`` and its worker processes exchange.

Every message is one frame (see :mod:`~reference.vector._channel`) whose first byte is a :class:`Command`
(parent → worker) or a :class:`Status` (worker → parent), optionally followed by a pickled payload dataclass. The
hot path carries no payload at all: ``STEP`` is a single byte because actions, observations, rewards and flags
travel through shared memory, and the worker answers ``OK`` (one byte) unless some sub-env reported an info.
"""

from __future__ import annotations

import enum
import os
import pickle
import traceback
from dataclasses import dataclass, field
from typing import Any, TypeAlias

__all__ = [
    "CallRequest",
    "Command",
    "RemoteError",
    "RemoteTraceback",
    "Report",
    "ResetRequest",
    "SetAttrRequest",
    "Status",
    "StepRequest",
    "decode",
    "encode",
    "merge_replies",
]

#: An info dict, an observation or a call result: whatever sub-envs produce.
Payload: TypeAlias = Any
Options: TypeAlias = dict[str, Any]
_PROTOCOL = pickle.HIGHEST_PROTOCOL


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
    """A sub-env (or the worker) raised; a :class:`RemoteError` follows."""


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


@dataclass
class Report:
    """What a worker returns besides shared memory.

    Attributes:
        infos: ``(sub-env index, info)`` pairs to merge in this order (non-empty infos only).
        observations: ``(sub-env index, observation)`` pairs when observations do not use shared memory.
        results: One ``call`` result per sub-env of the worker.
    """

    infos: list[tuple[int, Payload]] = field(default_factory=list)
    observations: list[tuple[int, Payload]] = field(default_factory=list)
    results: list[Payload] = field(default_factory=list)


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker process, attached as the re-raised error's cause."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class RemoteError:
    """An exception raised in a worker, in a form that always crosses the pipe.

    Attributes:
        worker: The worker's index.
        pid: The worker's process id.
        index: The sub-env that raised (``None`` when the worker itself failed).
        type_name: The exception's qualified class name.
        message: ``str(exception)``.
        traceback: The formatted remote traceback.
        exception: The pickled exception, or ``None`` if it could not be pickled.
    """

    worker: int
    pid: int
    index: int | None
    type_name: str
    message: str
    traceback: str
    exception: bytes | None

    @classmethod
    def capture(cls, exc: BaseException, worker: int, index: int | None) -> RemoteError:
        """Record ``exc`` (being handled in a worker).

        Args:
            exc: The exception.
            worker: The worker's index.
            index: The sub-env that raised it, if any.

        Returns:
            The record.
        """
        try:
            pickled: bytes | None = pickle.dumps(exc, protocol=_PROTOCOL)
        except Exception:  # noqa: BLE001 - any pickling failure just means the parent gets a stand-in
            pickled = None
        kind = type(exc)
        return cls(
            worker=worker,
            pid=os.getpid(),
            index=index,
            type_name=f"{kind.__module__}.{kind.__qualname__}",
            message=str(exc),
            traceback="".join(traceback.format_exception(kind, exc, exc.__traceback__)),
            exception=pickled,
        )

    def where(self) -> str:
        """Describe where the exception was raised (for messages and notes)."""
        origin = "the worker itself" if self.index is None else f"sub-env {self.index}"
        return f"{origin} (AsyncVectorEnv worker {self.worker}, pid {self.pid})"

    def rebuild(self) -> BaseException:
        """Re-create the exception in the parent, with the origin as a note and the remote traceback as cause.

        Returns:
            The original exception type when it can be unpickled, else a ``RuntimeError`` naming it.
        """
        exc: object = None
        if self.exception is not None:
            try:
                exc = pickle.loads(self.exception)
            except Exception:  # noqa: BLE001 - e.g. an exception class that cannot be re-constructed
                exc = None
        if not isinstance(exc, BaseException):
            exc = RuntimeError(f"{self.type_name}: {self.message}")
        add_note = getattr(exc, "add_note", None)
        if add_note is not None:
            add_note(f"Raised by {self.where()}; the remote traceback is the cause above.")
        exc.__cause__ = RemoteTraceback(f"\n\nRemote traceback from {self.where()}:\n{self.traceback}")
        return exc


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
# The (never modified) report of a call whose every worker answered a bare OK.
_NOTHING = Report()


def merge_replies(replies: dict[int, bytes]) -> Report:
    """Merge the workers' replies in sub-env order; raise the first sub-env's error after reading them all.

    Args:
        replies: Each worker's reply frame.

    Returns:
        The merged report (a shared, empty report when every worker answered a bare ``OK``: do not modify it).

    Raises:
        BaseException: The first error a worker reported, re-created by :meth:`RemoteError.rebuild`, with the
            other workers' failures listed in a note.
    """
    if all(frame == _OK for frame in replies.values()):
        return _NOTHING  # the common step: everything travelled through shared memory
    merged = Report()
    errors: list[RemoteError] = []
    for worker in sorted(replies):
        status, payload = decode(replies[worker])
        if status == Status.ERROR:
            errors.append(payload)
        elif status == Status.DATA:
            merged.infos.extend(payload.infos)
            merged.observations.extend(payload.observations)
            merged.results.extend(payload.results)
    if errors:
        exc = errors[0].rebuild()
        if len(errors) > 1:
            others = ", ".join(error.where() for error in errors[1:])
            getattr(exc, "add_note", lambda note: None)(f"Other failures in the same call: {others}")
        raise exc
    return merged
