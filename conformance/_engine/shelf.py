"""Constructions of a costly target, budgeted: untouched instances built once per zygote, instances recycled.

A benchmark env may take seconds (or, loading its assets, tens of seconds) to construct, and a rule's examples
construct one or more instances each: rebuilt in every example of every item, construction alone would take such a
target past any budget. Two mechanisms keep the count of constructions down, and both apply only to a target whose
construction is measurably costly (the probe's construction took :data:`COSTLY_SECONDS` or more), so a cheap target
is checked exactly as before:

* **The shelf** (fork isolation only). After probing, the warm zygote builds a few more instances and leaves them
  untouched (:func:`stock`): :data:`SHELF_DEFAULT` with the default construction and one in each declared render
  mode; the ``human`` one only on a machine with no display, and when its construction left no GL device, thread
  or child process behind (any would make the zygote unsafe to fork). Every job process forked from
  the zygote inherits a copy-on-write copy of them, so its first constructions of those kinds are served from the
  shelf (:func:`untouched`) for free, once per job: an untouched instance is indistinguishable from a fresh one, so
  the reproducer's ``env = make(...)`` still says what happened. A shelf is not kept when building it started a
  thread or a child process (copies in many processes would share them), nor past :data:`SHELF_MIB` of memory.
  Under spawn isolation no zygote holds the target, so there is no shelf. A zygote cloned after its probe (a target
  whose construction waits rather than computes: :func:`~conformance._engine.zygote.clone`) and its clone each
  build a shelf of their own, at the same time. Such a zygote also builds its whole shelf at once, one thread a
  construction (:func:`built_at_once`), so its shelf is ready after one construction's wait instead of one wait per
  instance, which holds back every item of the target. The constructor then runs in several threads at once: one
  that waits (a sleep, a file, a download) spends nearly all its time outside Python, so the threads rarely meet in
  its code; one that computes never gets threads (they would only take turns, and meet all the time). The same
  tests as for a shelf built in turn then decide what is kept.
* **Recycling.** An instance a rule is done with (it did not close it, no call on it raised or hung, the rule never
  took the raw object) goes to a bin instead of being closed (:func:`recycle`). A later construction whose first
  call is ``reset(seed=<int>)`` takes a recycled instance of the same construction kwargs (:func:`recycled`)
  instead of building one: after a seeded reset, a used instance must behave as a fresh one does (SEED-005,
  "after any history, ``reset(seed=s)`` starts the episode a fresh instance starts", checks exactly that, so a
  target that breaks it has that finding of its own). The rules that compare an instance with a *fresh* one
  (:data:`FRESH_RULES`, SEED-005 among them) never get a recycled instance. A construction whose first use is anything else (a step before reset, an unseeded reset, a
  read of ``render_mode``, ``close``) needs a fresh instance: it takes an untouched one or constructs. Which is which
  is decided when the handle is first used (:class:`~conformance._engine.handles.Handle`'s binder), so no rule has
  to say it.

Jobs of a costly target run one item each under fork isolation (each item gets the whole shelf) and many items each
under spawn isolation (each job pays an import and a probe, and its bin serves all of its items); see
:mod:`conformance._engine.runner`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from conformance._engine.processes import open_fds

__all__ = [
    "COSTLY_SECONDS",
    "CONSTRUCTING_RULES",
    "FRESH_RULES",
    "SHELF_AT_ONCE",
    "SHELF_DEFAULT",
    "SHELF_MIB",
    "Together",
    "built_at_once",
    "costly",
    "holding",
    "key_of",
    "mark_costly",
    "peer_count",
    "recycle",
    "recycled",
    "release",
    "steady",
    "stock",
    "stocked",
    "untouched",
]

COSTLY_SECONDS = 0.1
"""A construction this slow (the probe's) makes a target costly to construct: shelf and recycling apply to it.
Calibrated on FrankaKitchen-v1, whose constructions take 0.2-0.26 s: under 0.25 s they were a third of its run
(six in most items), and once costly it runs in 54 s instead of 66 s with the same verdicts."""
SHELF_DEFAULT = 2
"""Untouched default constructions a warm zygote of a costly target keeps (besides its probed instance, which goes to
the bin): most rules need one or two fresh instances at a time. Each costs one construction per zygote, and saves
one in every job that would otherwise make it."""
SHELF_AT_ONCE = 8
"""Untouched default constructions a shelf built at once keeps (:func:`built_at_once`): the waits overlap, so more
cost no more time, and the rules that replay several instances alone (SEED-009 makes three and replays each on a
fresh one) need more than :data:`SHELF_DEFAULT`."""
SHELF_MIB = 1024.0
"""The most memory a shelf may take (an instance that pushes past it is closed, and the shelf stops growing)."""
FRESH_RULES = frozenset({"SEED-001", "SEED-005", "VEC-008", "VEC-009"})
"""Rules whose statement is about fresh instances (two fresh instances agree; a used one replays a fresh one): their
constructions are always fresh or untouched, never recycled, even when their first call is a seeded reset."""
CONSTRUCTING_RULES = frozenset({"ENV-030", "SEED-008", "WRAP-003"})
"""Rules whose constructions must happen in the item, never served from the shelf or the bin: WRAP-003 snapshots the
innermost env as its constructor returns, ENV-030 needs instances built after any earlier ``close`` (a
constructor may restore what a close released), and SEED-008 pins the global generators before each construction (a
constructor may draw its task from them). Each builds as few as its statement needs: WRAP-003 one, ENV-030 two
(the instance it checks, first without a close and then across another's, and that other instance). ENV-021's second
live instance may be an untouched one: the shelf built it beside live instances, which is what that rule asks."""
_BIN_MAX = 4  # recycled instances kept per construction kwargs; more are closed

_SHELF: dict[str, list[Any]] = {}  # construction kwargs (key_of) -> untouched instances, in the zygote and its jobs
_BIN: dict[str, list[Any]] = {}  # construction kwargs -> instances rules are done with, in a job process
_COSTLY: list[float] = []  # in a process that probed a costly target (or inherited that probe): its construction cost
_STEADY: list[float] = []  # what the shelf's constructions took (after the probe's, which may pay imports or a compile)


def key_of(kwargs: Mapping[str, Any]) -> str | None:
    """The shelf's key for a construction with ``kwargs`` (``None`` when they are not plain JSON data)."""
    try:
        return json.dumps(dict(kwargs), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


def mark_costly(seconds: float) -> None:
    """Record that this process probed a target whose construction took ``seconds`` (costly or not)."""
    _COSTLY[:] = [seconds] if seconds >= COSTLY_SECONDS else []


def steady() -> float | None:
    """The cheapest of the shelf's constructions (a construction's cost once the first has paid for imports and
    caches), or ``None`` when no shelf was built here."""
    return min(_STEADY) if _STEADY else None


def costly() -> float | None:
    """The probe's construction cost when the target is costly to construct, else ``None``."""
    return _COSTLY[0] if _COSTLY else None


def stocked(key: str | None) -> bool:
    """Whether this process holds an untouched or a recycled instance of construction ``key``."""
    return key is not None and bool(_SHELF.get(key) or _BIN.get(key))


def holding() -> bool:
    """Whether this process holds any live instance on the shelf or in the bin."""
    return any(_SHELF.values()) or any(_BIN.values())


def release(close: Callable[[Any], None]) -> None:
    """Close and forget every instance on the shelf and in the bin (a process that must hold no other instance)."""
    for kept in (*_SHELF.values(), *_BIN.values()):
        for obj in kept:
            with contextlib.suppress(Exception):
                close(obj)
        kept.clear()


def untouched(key: str | None) -> Any | None:
    """An untouched instance of construction ``key`` from this process's copy of the shelf, or ``None``."""
    found = _SHELF.get(key or "")
    return found.pop() if found else None


def recycled(key: str | None) -> Any | None:
    """An instance of construction ``key`` a rule is done with, or ``None``."""
    found = _BIN.get(key or "")
    return found.pop() if found else None


def recycle(key: str | None, obj: Any, close: Callable[[Any], None]) -> None:
    """Keep ``obj`` (built with construction ``key``) for a later seeded use; ``close`` it when the bin is full."""
    kept = _BIN.setdefault(key or "", []) if key is not None else None
    if kept is None or len(kept) >= _BIN_MAX:
        close(obj)
        return
    kept.append(obj)


def peer_count() -> int:
    """How many threads and child processes this process has: an instance whose construction raised it holds peers
    that a process forked from this one would share (or could not wait for), so it is never handed to one."""
    return _threads() + _children()


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def _settle(threads: int, seconds: float = 1.0) -> None:
    """Wait up to ``seconds`` for this process to be back to ``threads`` threads: a joined thread has handed over its
    result, but the system may list it for a moment more while it exits."""
    deadline = time.monotonic() + seconds
    while _threads() > threads and time.monotonic() < deadline:
        time.sleep(0.005)


def _children() -> int:
    """How many child processes this process has (``0`` where that cannot be read)."""
    count = 0
    with contextlib.suppress(OSError):
        for task in os.listdir("/proc/self/task"):
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as children:
                count += len(children.read().split())
    return count


def _rss_mib() -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    return 0.0


Together = Callable[[Sequence[Mapping[str, Any]]], list[Any]]
"""Builds every construction of a list at the same time and returns, in order, each one's instance or the
``Exception`` it raised (:func:`stock`'s ``together``)."""


def stock(
    kinds: Iterable[tuple[Mapping[str, Any], int]], construct: Callable[[Mapping[str, Any]], Any],
    close: Callable[[Any], None], cautious: Iterable[Mapping[str, Any]] = (), together: Together | None = None,
) -> int:
    """In a warm zygote: build ``count`` untouched instances of each construction ``kwargs`` of ``kinds``, with
    ``construct`` (which runs under the guard and raises what the target raised). A construction that raises
    drops the shelf and the bin (the target may refuse a second live instance); so does building that started a
    thread or a child process; the shelf stops growing at :data:`SHELF_MIB`. Then, on a machine with no display
    (``DISPLAY`` and ``WAYLAND_DISPLAY`` unset: no window can open), one instance of each construction of
    ``cautious`` (``human`` mode), kept only when building it left nothing a fork would share: no new thread,
    child process or open file descriptor (a GL device), no fork-unsafe library initialised
    (:func:`~conformance._engine.zygote.fork_hazard`); otherwise it is closed at once, and that kind is
    constructed in the items. Returns how many instances the shelf holds.

    With ``together`` (a target whose construction waits rather than computes), every instance is built at the
    same time instead (:func:`_stock_together`): the shelf is ready after about one construction's wait, not after
    one wait per instance."""
    if together is not None:
        return _stock_together(kinds, close, cautious, together)
    threads, children, memory = _threads(), _children(), _rss_mib()
    built: list[Any] = []
    full = False
    for kwargs, count in kinds:
        key = key_of(kwargs)
        if key is None or full:
            continue
        for _ in range(count):
            try:
                started = time.perf_counter()
                obj = construct(kwargs)
                _STEADY.append(time.perf_counter() - started)
            except Exception:  # noqa: BLE001 - that construction is the items' to report, not the shelf's
                # Beside the live ones, it raised: maybe a target allowing one live instance per process (ENV-021),
                # whose jobs must then start with none, not even the probed instance.
                release(close)
                return 0
            if _rss_mib() - memory > SHELF_MIB:
                with contextlib.suppress(Exception):
                    close(obj)
                full = True
                break
            built.append(obj)
            _SHELF.setdefault(key, []).append(obj)
    if _shared_peers(threads, children, built, close):
        return 0
    if _cheap(close):
        return 0
    for kwargs in cautious:
        obj = _traceless(kwargs, construct, close)
        key = key_of(kwargs)
        if obj is not None and key is not None:
            built.append(obj)
            _SHELF.setdefault(key, []).append(obj)
    return len(built)


def _shared_peers(threads: int, children: int, built: list[Any], close: Callable[[Any], None]) -> bool:
    """Whether building the shelf started a thread or a child process: then ``built`` is closed and the shelf
    emptied, since the copies of a thread's or a child's peer in every job would share (and fight over) one thread
    or process."""
    if _threads() <= threads and _children() <= children:
        return False
    for obj in built:
        with contextlib.suppress(Exception):
            close(obj)
    _SHELF.clear()
    return True


def _cheap(close: Callable[[Any], None]) -> bool:
    """Whether only the probe's cold construction was slow (imports, caches): then the target is cheap to construct,
    its items construct as any cheap target's do, and the shelf is released."""
    if _STEADY and min(_STEADY) < COSTLY_SECONDS:
        release(close)
        _COSTLY.clear()
        return True
    return False


def built_at_once(constructions: Sequence[Mapping[str, Any]], build: Callable[[Mapping[str, Any]], Any]) -> list[Any]:
    """Each of ``constructions`` built by ``build``, all at the same time, in a thread each (the threads are joined
    before this returns); in order, each one's instance or the ``Exception`` its construction raised."""
    results: list[Any] = [None] * len(constructions)

    def one(index: int) -> None:
        try:
            results[index] = build(constructions[index])
        except Exception as error:  # noqa: BLE001 - handed back: stock drops the shelf for it
            results[index] = error

    threads = [threading.Thread(target=one, args=(index,), name=f"conformance-shelf-{index}", daemon=True)
               for index in range(len(constructions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _stock_together(
    kinds: Iterable[tuple[Mapping[str, Any], int]], close: Callable[[Any], None],
    cautious: Iterable[Mapping[str, Any]], together: Together,
) -> int:
    """:func:`stock` with every construction built at the same time by ``together``. The same instances are kept,
    with the same tests applied to the batch as a whole: any construction raising drops the shelf; a thread or child
    process left behind drops it; past :data:`SHELF_MIB`, instances are closed from the last (an equal share of
    the growth counted for each); the ``cautious`` ones are kept only when the batch left no new open file, no
    fork-unsafe library and no display to open a window on (a trace one of them may have left cannot be told apart
    from the others')."""
    from conformance._engine.zygote import fork_hazard  # the zygote's own test of a process unsafe to fork

    wanted = [dict(kwargs) for kwargs, count in kinds if key_of(kwargs) is not None for _ in range(count)]
    careful = [dict(kwargs) for kwargs in cautious if key_of(kwargs) is not None]
    fds = open_fds()
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or not fds:
        careful = []  # a window could open, or no /proc tells what building them left behind (see _traceless)
    threads, children, memory, modules = _threads(), _children(), _rss_mib(), set(sys.modules)
    started = time.perf_counter()
    results = together([*wanted, *careful])
    seconds = time.perf_counter() - started
    built = [obj for obj in results if not isinstance(obj, Exception)]
    if len(built) < len(results):  # beside the live ones, one raised (see stock)
        for obj in built:
            with contextlib.suppress(Exception):
                close(obj)
        release(close)
        return 0
    _STEADY.append(seconds)  # each one's wait: what a construction costs once the first has paid for imports
    _settle(threads)
    if _shared_peers(threads, children, built, close):
        return 0
    if _cheap(close):
        for obj in built:  # _cheap released what is on the shelf, and nothing from this batch is yet
            with contextlib.suppress(Exception):
                close(obj)
        return 0
    traced = bool(open_fds() - fds) or bool(fork_hazard(modules, threads))
    grown = _rss_mib() - memory
    fits = len(built) if grown <= SHELF_MIB else int(SHELF_MIB / (grown / len(built)))
    kept = 0
    for index, (kwargs, obj) in enumerate(zip([*wanted, *careful], built, strict=True)):
        if index >= fits or (index >= len(wanted) and traced):
            with contextlib.suppress(Exception):
                close(obj)
            continue
        _SHELF.setdefault(key_of(kwargs) or "", []).append(obj)
        kept += 1
    return kept


def _traceless(
    kwargs: Mapping[str, Any], construct: Callable[[Mapping[str, Any]], Any], close: Callable[[Any], None]
) -> Any | None:
    """An instance built with ``kwargs`` that left no thread, child process, open file or fork-unsafe library in
    this process (``None``, the instance closed, when it did, raised, or nothing here can tell)."""
    from conformance._engine.zygote import fork_hazard  # the zygote's own test of a process unsafe to fork

    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return None  # a window could open on a real display, and its library's state would stay after the close
    fds = open_fds()
    if not fds:
        return None  # no /proc: a display connection could not be seen
    modules, threads, children = set(sys.modules), _threads(), _children()
    try:
        obj = construct(kwargs)
    except Exception:  # noqa: BLE001 - the items construct it themselves and report what it raises
        return None
    # The listing's own descriptor is gone by the time it returns; what else is new stays open beside the instance.
    if open_fds() - fds or _children() > children or fork_hazard(modules, threads):
        with contextlib.suppress(Exception):
            close(obj)
        return None
    return obj
