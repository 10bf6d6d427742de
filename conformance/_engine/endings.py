"""How a supervised job ended: it returned (:class:`Finished`), or it did not (a :data:`Failure`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from conformance._engine.board import Snapshot
from conformance._engine.zygote import JSON

__all__ = ["Died", "Failure", "Finished", "Hung", "Interrupted", "Outcome", "OverMemory"]


@dataclass(frozen=True)
class Finished:
    """The job returned; ``value`` is what its function returned (JSON data), ``imported`` the top-level modules it
    imported that its zygote had not, ``peak_mib`` its largest resident memory (the kernel's high-water mark),
    ``parts`` what it handed over with :func:`~conformance._engine.zygote.emit` on the way, in order."""

    value: JSON
    seconds: float
    imported: tuple[str, ...] = ()
    peak_mib: float = 0.0
    parts: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Died:
    """The process ended without returning: a signal, ``os._exit``, an abort in native code.

    Attributes:
        status: E.g. ``"SIGSEGV"`` or ``"exit code 3"``.
        board: What it was doing.
        detail: An internal error's traceback (the suite's own code failed in the job process), else ``""``.
        stage: ``"warm"`` when the zygote died while warming up (the job never ran), else ``"job"``.
        traceback: The Python stacks at a fatal signal (from ``faulthandler``), else ``""``.
        parts: What the job handed over with :func:`~conformance._engine.zygote.emit` before it died.
    """

    status: str
    board: Snapshot
    seconds: float
    detail: str = ""
    stage: str = "job"
    traceback: str = ""
    parts: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Hung:
    """The process was killed for taking too long.

    Attributes:
        limit: The timeout it exceeded, in seconds.
        board: What it was doing (``board.active`` false: no call was in progress, nothing made progress).
        stage: ``"warm"`` when it was the zygote, warming up (the job never ran), else ``"job"``.
        traceback: The Python stacks of the job's threads when it was stopped (from ``faulthandler``), else ``""``.
        parts: What the job handed over with :func:`~conformance._engine.zygote.emit` before it hung.
    """

    limit: float
    board: Snapshot
    seconds: float
    stage: str = "job"
    traceback: str = ""
    parts: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class OverMemory:
    """The process was killed for holding more than the memory cap (``rss`` and ``cap`` in bytes; ``stage`` and
    ``parts`` as for :class:`Hung`)."""

    rss: int
    cap: int
    board: Snapshot
    seconds: float
    stage: str = "job"
    parts: tuple[JSON, ...] = ()


@dataclass(frozen=True)
class Interrupted:
    """The user interrupted the run (Ctrl-C) while the process worked; it has been killed (``stage`` as for
    :class:`Hung`)."""

    board: Snapshot
    seconds: float
    stage: str = "job"


Failure: TypeAlias = Died | Hung | OverMemory | Interrupted
"""Every way a job can end without returning."""
Outcome: TypeAlias = Finished | Failure
