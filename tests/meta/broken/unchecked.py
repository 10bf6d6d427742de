"""Targets the suite once could not check while the run still passed: unsafe to fork, compiling on first call,
slow to construct, one live instance at a time.

Each is the correct ``Walk`` with one such trait, scaled to the suite's ``--conformance-timeout`` of the meta-test
(``tests/meta/test_hostile.py``), so the project's own run stays fast: a figure of ``N timeouts`` stands for the
real envs' tens of seconds under the default 10 s. :data:`UNCHECKED` says what the suite must make of each.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any

from tests.meta.broken._base import Walk, WalkWrapper

__all__ = ["TIMEOUT", "UNCHECKED", "Unchecked", "inner_layer_needs_its_wrapper"]

TIMEOUT = 1.0
"""The ``--conformance-timeout`` the meta-test runs these targets with (seconds)."""

_FOREVER = 3600.0
_PACKAGE = "tests.meta.broken.unchecked"

# --- unsafe to fork ----------------------------------------------------------------------------------------------

_CONTEXT: list[int] = []  # the pid of the process that opened the "driver context"


class ForkUnsafeContext(Walk):
    """A GL-like stand-in: the first construction in a process opens a process-wide context (a display connection, a
    driver) that a forked child inherits broken: using it there blocks for ever, as a driver's lock held at the fork
    does. No thread betrays it; only the first forked item's stall does."""

    def __init__(self, render_mode: str | None = None) -> None:
        if not _CONTEXT:
            _CONTEXT.append(os.getpid())
        if _CONTEXT[0] != os.getpid():
            time.sleep(_FOREVER)
        super().__init__(render_mode)


_POOL_LOCK = threading.Lock()
_POOL: list[threading.Thread] = []


def _pool_work() -> None:
    while True:
        with _POOL_LOCK:  # held most of the time, as a busy runtime's thread pool holds its queue's lock
            time.sleep(0.02)
        time.sleep(0.001)


class ThreadedRuntime(Walk):
    """A JAX-like stand-in: the first construction starts a runtime thread holding a process-wide lock most of the
    time; a process forked meanwhile inherits the lock held and no thread to release it, so its first call blocks."""

    def __init__(self, render_mode: str | None = None) -> None:
        if not _POOL:
            _POOL.append(threading.Thread(target=_pool_work, daemon=True))
            _POOL[0].start()
        with _POOL_LOCK:
            super().__init__(render_mode)

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        with _POOL_LOCK:
            return super().step(action)


# --- slow, not stuck -------------------------------------------------------------------------------------------

_COMPILED: set[tuple[int, str]] = set()


def _compile(kind: str) -> None:
    """The first call of ``kind`` in each process takes 3 timeouts (a JIT compile: 30 s under the default 10 s)."""
    if (os.getpid(), kind) not in _COMPILED:
        time.sleep(3 * TIMEOUT)
        _COMPILED.add((os.getpid(), kind))


class CompilesOnFirstCall(Walk):
    """``reset`` and ``step`` compile on their first call in each process, then are as cheap as ``Walk``'s."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        _compile("reset")
        return super().reset(seed=seed, options=options)

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        _compile("step")
        return super().step(action)


class SlowConstructor(Walk):
    """Every construction takes ``seconds``, by default 2 timeouts (a benchmark env loading its assets: 20 s under
    the default 10 s). ``--env-kwargs '{"seconds": 20}'`` makes the 20 s constructor of issue 23, which
    ``benchmarks/bench_suite.py --only "20 s"`` times and ``benchmarks/bench_constructions.py`` counts the
    constructions of (no test does: the meta-test checks it is checked, not how fast)."""

    def __init__(self, render_mode: str | None = None, seconds: float = 2 * TIMEOUT) -> None:
        time.sleep(seconds)
        super().__init__(render_mode)


# --- one live instance -----------------------------------------------------------------------------------------


class SingleInstance(Walk):
    """An emulator allowing one live instance per process: constructing a second while one is open raises. It warns
    ENV-021 and is otherwise checked: the rules that need two live instances get the second in a process of its
    own."""

    live = 0

    def __init__(self, render_mode: str | None = None) -> None:
        if SingleInstance.live:
            raise RuntimeError("SingleInstance allows only one live instance per process")
        super().__init__(render_mode)
        SingleInstance.live += 1
        self._open = True

    def close(self) -> None:
        if self._open:
            self._open = False
            SingleInstance.live -= 1
        super().close()


class BlocksSecondInstance(Walk):
    """An emulator allowing one live instance per process that does not say so: a second instance constructs, but
    every reset while two are live blocks for ever (the first holds the emulator). It warns ENV-021 and is otherwise
    checked: the first such hang marks it, and the rules that need two live instances get the second in a process of
    its own."""

    live = 0

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        BlocksSecondInstance.live += 1
        self._open = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        if BlocksSecondInstance.live > 1:
            time.sleep(_FOREVER)
        return super().reset(seed=seed, options=options)

    def close(self) -> None:
        if self._open:
            self._open = False
            BlocksSecondInstance.live -= 1
        super().close()


# --- an inner layer its outer wrapper prepares ------------------------------------------------------------------


class _NeedsATask(Walk):
    """An env that cannot reset before a task is set (Meta-World's envs assert one is)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.task: int | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        if self.task is None:
            raise RuntimeError("_NeedsATask: no task set")
        return super().reset(seed=seed, options=options)


class _SetsTheTask(WalkWrapper):
    """Sets the innermost env's task at each reset, as Meta-World's task wrapper does."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        self.unwrapped.task = 0
        return super().reset(seed=seed, options=options)


def inner_layer_needs_its_wrapper(render_mode: str | None = None) -> Any:
    """A correct wrapped target whose inner env resets only once its wrapper set a task: the WRAP rules that drive
    each layer on its own cannot check that layer, and say so (an error naming it, no other rule's remedy)."""
    return _SetsTheTask(WalkWrapper(_NeedsATask(render_mode)))


@dataclass(frozen=True)
class Unchecked:
    """A target of this module and what the suite must make of it.

    Attributes:
        target: ``attr`` in this module.
        isolation: Text the summary's isolation note for it contains (``""``: it runs forked, no note).
        message: Text every error of it contains (``""``: it has no error: every item passes, warns or is not
            applicable).
        warns: The rule it warns on (``""``: none), with ``message`` in the warning.
    """

    target: str
    isolation: str = ""
    message: str = ""
    warns: str = ""

    @property
    def spec(self) -> str:
        return f"{_PACKAGE}:{self.target}"


UNCHECKED: tuple[Unchecked, ...] = (
    Unchecked("ForkUnsafeContext", isolation="spawn — its first forked item stalled"),
    Unchecked("ThreadedRuntime", isolation="spawn — 1 thread besides the main one in the probe process"),
    Unchecked("CompilesOnFirstCall"),
    Unchecked("SlowConstructor"),
    Unchecked("SingleInstance", message="allows only one live instance per process", warns="ENV-021"),
    Unchecked("BlocksSecondInstance", message="allows one live instance per process", warns="ENV-021"),
)
