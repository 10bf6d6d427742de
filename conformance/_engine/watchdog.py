"""Calls into the code under test, timed: how long each kind of call may take, and the guards that hold a call to it.

**Call limits.** How long one call into a target may take: derived from what the same kind of call has cost, never a
fixed figure.

A JIT-compiled env (JAX, numba) pays its compile on the first ``reset`` and ``step`` of every process; a benchmark env
may take half a minute to construct. Neither is a hang, and neither may become one because a flat per-call timeout
was chosen for a cheap env. So each kind of call (the board's ``method``: ``construct``, ``reset``, ``step``, ...;
a render and a render-mode construction in each render mode apart, :func:`kind_of`) gets its own limit:

* the **first** call of a kind in a process gets a grace: :data:`COST_FACTOR` times what the first call of that kind
  cost where it was measured (the target's cost probe, handed to every job), or, where nothing was measured yet,
  :data:`FIRST_CALL_GRACE` times the timeout;
* a **later** call gets :data:`COST_FACTOR` times the cheapest call of its kind seen so far (measured in this process
  or by the probe), or :data:`SPREAD_FACTOR` times the slowest later call of its kind that returned, whichever is
  longer (a heavy call's cost spreads with the machine's load);
* never less than the timeout (``--conformance-timeout``), the floor every call of a cheap target is held to.

A hanging call therefore still fails: after the timeout when its kind is cheap, after a few times its measured cost
when it is not.

**Guards.** Guards for calls into the code under test, and the in-process one: a per-call timeout on a worker thread.

Checks never call a target bare; they go through a :class:`Guard` (``guard.call(label, fn)``), which records what
is running. Under process supervision (the default where ``fork`` exists) the guard is a
:class:`~conformance._engine.processes.BoardGuard` and the supervising process enforces every limit, by killing. Where
processes cannot be forked, or with ``--conformance-isolation thread``, it is the :class:`Watchdog` below, which is
weaker: Python cannot kill a thread, so a call that hangs in C is abandoned rather than stopped, a crash still takes
the whole run down, and only calls made through the guard are timed.

Every interaction with a target runs on one long-lived worker thread. A check body is handed to the worker as a
whole (one hand-off per Hypothesis example, not per call, which keeps the overhead negligible), and each call into
the target inside it is bracketed by :meth:`Watchdog.call`, which records what is running since when. The main
thread waits for the body and, while it waits, looks at that record: a single call running longer than the timeout
abandons the worker (Python cannot kill a thread; the abandoned one is asked to stop with an asynchronous exception
and otherwise left to die with the process) and raises :class:`CallTimeout`. The next body gets a fresh worker.

Invariant: the suite's own code between calls is not timed, only calls into the target are; a body can therefore
only be abandoned while the target holds the thread.
"""

from __future__ import annotations

import ctypes
import operator
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Generic, Protocol, SupportsIndex, TypeVar, cast

import numpy as np

from conformance._engine.describe import is_mapping

__all__ = [
    "BESIDE",
    "COST_FACTOR",
    "FIRST_CALL_GRACE",
    "SPREAD_FACTOR",
    "CallLimits",
    "CallTimeout",
    "Guard",
    "HungEarlier",
    "Watchdog",
    "alone",
    "call_shape",
    "kind_of",
]


# --- Call limits ---------------------------------------------------------------------------------------------------

FIRST_CALL_GRACE = 6.0
"""The first call of a kind nobody has measured may take this many timeouts (a compile, a slow constructor)."""
COST_FACTOR = 3.0
"""A call whose kind has a measured cost may take this many times that cost (when that exceeds the timeout)."""
SPREAD_FACTOR = 2.0
"""A later call may also take this many times the slowest later call of its kind that returned: on a shared machine
a heavy call's cost spreads with the load (software-rendered MuJoCo frames were seen at 4 s and at 19 s in one run),
and a call of that kind that returned after 12 s is evidence that 13 s is slow, not stuck."""


_BY_MODE = frozenset({"render", "render_construct"})
"""Kinds of call whose cost depends on the render mode: each mode is a kind of its own. A renderer of another mode is
another renderer (MuJoCo's depth renderer is a second GL context, built by its first ``render``): the first call in
each mode gets the first call's grace, and a cheap ``rgb_array`` frame does not set the limit of a ``depth_array``
one."""


def kind_of(method: str, label: str, mode: str = "") -> str:
    """The kind a call counts as for its limit: ``method`` (else the label's last name), per render mode for the
    kinds whose cost depends on it (``"render depth_array"``)."""
    kind = method or label.rsplit(".", 1)[-1]
    return f"{kind} {mode}" if mode and kind in _BY_MODE else kind


_USUAL_SEEDS = 2**32
"""Seeds from 0 below this are the usual range (NumPy's ``SeedSequence`` takes any non-negative int; an env that
folds a seed into 32 bits may loop or fail on one outside it)."""

BESIDE = "beside another live instance"
"""The qualifier of a call on an instance made while another instance of the target was live in the process (or of
that construction): an emulator allowing one live instance per process may block there (rule ENV-021)."""


def _seed_shape(seed: object) -> str:
    if seed is None:
        return ""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        return f"seed of type {type(seed).__name__}"
    value: int = operator.index(cast("SupportsIndex", seed))
    if value < 0:
        return "negative seed"
    return "seed >= 2**32" if value >= _USUAL_SEEDS else ""


def call_shape(kind: str, mode: str = "", kwargs: Mapping[str, object] | None = None, *, beside: bool = False) -> str:
    """The shape of a call: its kind (:func:`kind_of`) and what of its arguments may decide whether it returns at all.

    A call that never returned ends the calls of its shape, not of its kind: ``reset(seed=2**32)`` hanging says
    nothing of ``reset(seed=0)``, nor a ``human``-mode instance's reset of an ``rgb_array`` one's. The qualifiers, in
    brackets after the kind: the instance's render mode (kinds of call per mode name it already), a seed outside the
    usual range (negative, ``2**32`` or more, not an int), the keys of an ``options`` dict, and :data:`BESIDE`.
    ``reset [seed >= 2**32; options: 'a']``; a plain call's shape is its kind.
    """
    found = dict(kwargs or {})
    qualifiers: list[str] = []
    if mode and kind.split(" ", 1)[0] not in _BY_MODE:
        qualifiers.append(f"mode {mode}")
    seed = found.get("seed")
    if isinstance(seed, (list, tuple)):
        qualifiers.append("a seed per sub-env")
    elif seed_shape := _seed_shape(seed):
        qualifiers.append(seed_shape)
    options = found.get("options")
    if is_mapping(options) and options:
        qualifiers.append(f"options: {', '.join(sorted(repr(key) for key in options))[:60]}")
    elif options is not None and not is_mapping(options):
        qualifiers.append(f"options of type {type(options).__name__}")
    if beside:
        qualifiers.append(BESIDE)
    return f"{kind} [{'; '.join(qualifiers)}]" if qualifiers else kind


def alone(shape: str) -> str:
    """``shape`` without :data:`BESIDE`: the same call made on an instance alone in its process."""
    kind, _, rest = shape.partition(" [")
    qualifiers = [part for part in rest.rstrip("]").split("; ") if part and part != BESIDE]
    return f"{kind} [{'; '.join(qualifiers)}]" if qualifiers else kind


def _kind_of_shape(shape: str) -> str:
    return shape.split(" [", 1)[0]


class HungEarlier(BaseException):
    """A call of a shape that hung earlier in the run is refused at once rather than waited for again.

    A ``BaseException``, as :class:`CallTimeout` is: Hypothesis must not shrink it, nor a check catch it as the
    target's own error; the job reports the item as meeting that hang (:class:`CallLimits.refused`).

    Args:
        shape: The call's shape.
        hang: What is known of the hang (the call that did not return and the item that met it first).
    """

    def __init__(self, shape: str, hang: str) -> None:
        super().__init__(f"a call of shape {shape} hung earlier in this run ({hang}): not called again")
        self.shape = shape


class CallLimits:
    """Per-process memory of what each shape of call cost, and the limit it gives the next call of that shape.

    Forked processes inherit what their parent measured (a zygote's construction of the probe, say); which shapes have
    been called *in this process* starts afresh in each one, since a compile cache does not survive a new process. A
    shape with qualifiers (:func:`call_shape`) takes the measured costs of its kind until it has its own.

    The shapes of call that hung earlier in the run (:meth:`refuse`, from the job's facts) are refused at once
    (:meth:`admit`), and the last one refused is remembered for the job to report (:attr:`refused`).

    Args:
        timeout: The floor of every limit, in seconds.
    """

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._pid = os.getpid()
        self._called: set[str] = set()
        self._first: dict[str, float] = {}  # first call of each shape, as measured (by the probe or here)
        self._cheapest: dict[str, float] = {}
        self._slowest: dict[str, float] = {}  # the slowest call of each shape after its first (which may compile)
        self._hung: dict[str, str] = {}
        self.refused = ""
        """The shape of the last call refused because that shape hung earlier (``""``: none; the job clears it)."""

    def refuse(self, hung: Mapping[str, str]) -> None:
        """From now on refuse the calls of these shapes (shape -> what is known of its hang)."""
        self._hung = dict(hung)

    def admit(self, shape: str) -> None:
        """Let a call of ``shape`` go ahead, unless its shape hung earlier.

        Raises:
            HungEarlier: The shape hung earlier in the run.
        """
        hang = self._hung.get(shape)
        if hang is not None:
            self.refused = shape
            raise HungEarlier(shape, hang)

    def prime(self, first: Mapping[str, float], steady: Mapping[str, float]) -> None:
        """Take in costs measured elsewhere: the first call of each kind, and a later one (seconds)."""
        for method, seconds in first.items():
            self._first[method] = max(self._first.get(method, 0.0), float(seconds))
        for method, seconds in steady.items():
            self._cheapest[method] = min(self._cheapest.get(method, float("inf")), float(seconds))

    def limit(self, shape: str) -> float:
        """Seconds the next call of ``shape`` (a kind, or a shape of :func:`call_shape`) may take."""
        if os.getpid() != self._pid:
            self._pid, self._called = os.getpid(), set()
        kind = _kind_of_shape(shape)
        if shape not in self._called:
            first = self._first.get(shape, self._first.get(kind))
            if first is None:
                return FIRST_CALL_GRACE * self.timeout
            return max(self.timeout, COST_FACTOR * first)
        spread = SPREAD_FACTOR * self._slowest.get(shape, 0.0)
        return max(self.timeout, COST_FACTOR * self._cheapest.get(shape, self._cheapest.get(kind, 0.0)), spread)

    def took(self, shape: str, seconds: float) -> None:
        """Record that a call of ``shape`` returned after ``seconds``."""
        if shape not in self._called:
            self._called.add(shape)
            self._first.setdefault(shape, seconds)
        else:
            self._slowest[shape] = max(self._slowest.get(shape, 0.0), seconds)
        self._cheapest[shape] = min(self._cheapest.get(shape, float("inf")), seconds)


# --- Guards --------------------------------------------------------------------------------------------------------

T = TypeVar("T")


class CallTimeout(BaseException):
    """A call into the target did not return within the timeout.

    It derives from ``BaseException`` on purpose: Hypothesis must not treat a hang as an ordinary failure and
    shrink it by running (and hanging) again.

    Args:
        label: What was called, e.g. ``"env.step"``.
        timeout: The timeout in seconds.
    """

    def __init__(self, label: str, timeout: float) -> None:
        super().__init__(f"{label} did not return within {timeout:g} s")
        self.label = label
        self.timeout = timeout


class Guard(Protocol):
    """What checks call the target through (:class:`Watchdog` or :class:`~conformance._engine.processes.BoardGuard`)."""

    @property
    def timeout(self) -> float:
        """Seconds one call may take (the floor: a kind of call measured as slower may take longer)."""
        ...

    @property
    def limits(self) -> CallLimits:
        """What each kind of call has cost, and so how long the next may take."""
        ...

    def call(
        self, label: str, fn: Callable[[], T], *, method: str = "", mode: str = "", limit: float = 0.0,
        arguments: Mapping[str, object] | None = None, beside: bool = False,
    ) -> T:
        """Call ``fn`` as the call ``label`` into the target.

        Args:
            label: What is called, e.g. ``"env.step"``.
            fn: The call.
            method: Its kind (``"step"``, ``"construct"``...), which decides the rule that owns a crash in it.
            mode: The render mode of the instance called (``""``: none).
            limit: Seconds this call may take instead of the timeout (0.0: the timeout).
            arguments: Its keyword arguments, whose shape may matter (:func:`call_shape`).
            beside: Whether it is made on (or constructs) an instance beside another live one.

        Raises:
            HungEarlier: A call of its shape hung earlier in the run.
        """
        ...

    def run(self, body: Callable[[], T]) -> T:
        """Run ``body``, whose calls into the target go through :meth:`call`."""
        ...

    def in_worker(self) -> bool:
        """Whether calls made now run where the guard watches them (no hand-off needed)."""
        ...

    def shutdown(self) -> None:
        """Release what the guard holds."""
        ...


class _Abandoned(BaseException):
    """Raised asynchronously inside an abandoned worker, to stop a busy-looping call if it ever yields."""


@dataclass
class _Job(Generic[T]):
    body: Callable[[], T]
    done: threading.Event = field(default_factory=threading.Event)
    result: T | None = None
    error: BaseException | None = None


class _Worker:
    """One daemon thread executing jobs; ``active`` is the call in progress, its start time and its limit."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job[object] | None] = queue.SimpleQueue()
        self.active: tuple[str, float, float] | None = None
        self.abandoned = False
        self.thread = threading.Thread(target=self._loop, name="conformance-watchdog", daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        try:
            while not self.abandoned:
                job = self.jobs.get()
                if job is None:
                    return
                try:
                    job.result = job.body()
                except BaseException as exc:  # noqa: BLE001 - every outcome is handed back to the waiting thread
                    job.error = exc
                finally:
                    self.active = None
                    job.done.set()
        except _Abandoned:
            # The stop request may land anywhere in this loop; the waiting side has given up on this thread.
            return

    def abandon(self) -> None:
        self.abandoned = True
        ABANDONED.append(self.thread)
        ident = self.thread.ident
        if ident is not None:
            # Best effort: a pure-Python busy loop stops at its next bytecode; a blocking C call is left alone.
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident), ctypes.py_object(_Abandoned))


ABANDONED: list[threading.Thread] = []
"""Worker threads given up on (their call hung); any still alive at the end of the run may be inside target code."""


def stuck_threads() -> int:
    """How many abandoned worker threads are still running (inside a call that never returned)."""
    return sum(thread.is_alive() for thread in ABANDONED)


class Watchdog:
    """Runs bodies on a worker thread and fails any single target call that exceeds ``timeout`` seconds.

    Args:
        timeout: Seconds one call into the target may take.
        poll: Seconds between looks at the running call while waiting (bounds the detection latency).

    Raises:
        ValueError: If ``timeout`` is not positive.
    """

    def __init__(self, timeout: float, *, poll: float = 0.05) -> None:
        if not timeout > 0:
            raise ValueError(f"Watchdog timeout must be > 0 seconds, got {timeout!r}")
        self.timeout = timeout
        self.limits = CallLimits(timeout)
        self._poll = poll
        self._worker: _Worker | None = None

    def _current(self) -> _Worker:
        if self._worker is None or self._worker.abandoned:
            self._worker = _Worker()
        return self._worker

    def in_worker(self) -> bool:
        """Whether the calling thread is the live worker (so calls can be made directly)."""
        worker = self._worker
        return worker is not None and not worker.abandoned and threading.current_thread() is worker.thread

    def run(self, body: Callable[[], T]) -> T:
        """Run ``body`` on the worker and return its result (or raise its exception).

        Args:
            body: The code to run; its calls into the target should go through :meth:`call`.

        Returns:
            What ``body`` returned.

        Raises:
            CallTimeout: If one call inside ``body`` ran longer than the timeout; the worker is abandoned.
        """
        if self.in_worker():
            return body()
        worker = self._current()
        job: _Job[T] = _Job(body)
        worker.jobs.put(job)  # type: ignore[arg-type]  # the queue is heterogeneous by design
        while not job.done.wait(self._poll):
            active = worker.active
            if active is not None and time.monotonic() - active[1] > active[2]:
                worker.abandon()
                raise CallTimeout(active[0], active[2])
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]  # set whenever error is None

    def call(
        self, label: str, fn: Callable[[], T], *, method: str = "", mode: str = "", limit: float = 0.0,
        arguments: Mapping[str, object] | None = None, beside: bool = False,
    ) -> T:
        """Call ``fn`` under the timeout, recording ``label`` as the call in progress.

        Args:
            label: What is being called, for the timeout message (e.g. ``"env.step"``).
            fn: The call into the target.
            method: The kind of call, whose measured cost sets its limit (crashes cannot be told apart in-process).
            mode: The render mode of the instance called (a render's limit is its mode's).
            limit: Seconds this call may take instead of the limit its shape earned (0.0: that limit).
            arguments: Its keyword arguments (:func:`call_shape`).
            beside: Whether it is made on (or constructs) an instance beside another live one.

        Returns:
            What ``fn`` returned.
        """
        if not self.in_worker():
            return self.run(lambda: self.call(label, fn, method=method, mode=mode, limit=limit, arguments=arguments,
                                              beside=beside))
        worker = self._worker
        if worker is None or worker.active is not None:
            # Nested call (or no worker, which in_worker() rules out): the outermost call is what is timed.
            return fn()
        shape = call_shape(kind_of(method, label, mode), mode, arguments, beside=beside)
        self.limits.admit(shape)
        started = time.monotonic()
        worker.active = (label, started, limit or self.limits.limit(shape))
        try:
            result = fn()
        finally:
            worker.active = None
        self.limits.took(shape, time.monotonic() - started)
        return result

    def shutdown(self) -> None:
        """Let an idle worker thread exit (an abandoned one is left alone)."""
        if self._worker is not None and not self._worker.abandoned:
            self._worker.jobs.put(None)
        self._worker = None
