"""Watching every result a rollout returned for later changes: ENV-017 (observations) and ENV-018 (infos).

An env that hands out a view of an internal buffer changes what it returned when it next writes the buffer, and
that can be much later than the next call: a reset observation overwritten at the next reset, a slot of a ring
buffer overwritten a lap later. So the watch keeps every result of the rollout, across episode ends — the object as
returned beside the copy taken when it was returned (:mod:`conformance._kit.freeze`: small values copied, large
arrays past the rollout's copy budget kept as digests) — and compares the two again later:

* the previous result after every call (a buffer reused at once shows up at the next step);
* every result kept so far, whenever the results since the last such sweep number a quarter of those kept (at
  least :data:`SWEEP_EVERY`), and at the end of the rollout. Sweeps so spaced cost a few comparisons per result
  over the whole rollout, however long it is, and a result changed at any later call is still seen at the next
  sweep (unless the env puts the old value back in between).

Memory stays bounded: once the returned objects kept hold more than :data:`KEPT_BYTES` of arrays, the oldest
results are dropped (the previous one always stays).
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

from conformance._engine.describe import is_array, is_dict, is_list_or_tuple, is_tuple, summarize
from conformance._engine.handles import TargetError
from conformance._engine.observe import View, Watch
from conformance._engine.record import copied
from conformance._kit.freeze import Freezer
from conformance._kit.rollout import Record
from conformance.equality import difference

__all__ = ["KEPT_BYTES", "SWEEP_EVERY", "History", "HistoryWatch", "InfoHistoryWatch", "nbytes", "surely_unchanged"]

# Each (target state, rule) whose watch checked two resets already (once per process is enough: no draw decides it).
_ACROSS_RESETS: set[tuple[int, str]] = set()

SWEEP_EVERY = 16
"""The fewest results between two sweeps of the whole history."""

KEPT_BYTES = 64 << 20
"""Bytes of returned arrays the watch holds on to before it drops the oldest results."""


def nbytes(value: Any) -> int:
    """Bytes of the arrays in ``value`` (containers followed)."""
    if is_array(value):
        return int(value.nbytes)
    if is_list_or_tuple(value):
        return sum(nbytes(item) for item in value)
    if is_dict(value):
        return sum(nbytes(item) for item in value.values())
    return 0


def surely_unchanged(returned: Any, copy: Any) -> bool:
    """A fast, conservative equality: ``True`` only when ``returned`` certainly still equals ``copy`` (bit for bit);
    ``False`` sends the pair to :func:`~conformance.equality.difference`, which decides and explains."""
    if returned is copy:
        return True  # an immutable value the freezer kept as is
    if is_array(returned):
        return (is_array(copy) and returned.dtype == copy.dtype and returned.dtype.kind != "O"
                and returned.shape == copy.shape and returned.tobytes() == copy.tobytes())
    if is_dict(returned):
        return (is_dict(copy) and type(returned) is type(copy) and list(returned) == list(copy)
                and all(surely_unchanged(returned[key], copy[key]) for key in returned))
    if is_list_or_tuple(returned):
        return (type(returned) is type(copy) and len(returned) == len(copy)
                and all(surely_unchanged(a, b) for a, b in zip(returned, copy)))
    return False


class History:
    """Results kept with their copies, verified as the module says (the previous one at once, all in sweeps).

    Args:
        verify: Called with ``(where, returned, copy, now)`` for each kept result verified (``where`` names the
            call that returned it, ``now`` what happened since); it fails when the two differ.
        budget: Bytes of returned arrays kept before the oldest results are dropped.
    """

    def __init__(self, verify: Callable[[str, Any, Any, str], None], budget: int = KEPT_BYTES) -> None:
        self._verify = verify
        self._budget = budget
        self._kept: collections.deque[tuple[str, Any, Any, int]] = collections.deque()
        self._held = 0
        self._since_sweep = 0

    def sweep(self, now: str) -> None:
        """Verify every kept result."""
        for where, returned, copy, _ in self._kept:
            self._verify(where, returned, copy, now)
        self._since_sweep = 0

    def add(self, where: str, returned: Any, copy: Any) -> None:
        """Verify what is due after a new result (returned by ``where``), then keep it."""
        kept = self._kept
        now = f"the {where}"
        if kept:
            self._verify(*kept[-1][:3], now)
        self._since_sweep += 1
        if self._since_sweep >= max(SWEEP_EVERY, len(kept) // 4):
            self.sweep(now)
        size = nbytes(returned)
        kept.append((where, returned, copy, size))
        self._held += size
        while len(kept) > 1 and self._held > self._budget:
            self._held -= kept.popleft()[3]


class HistoryWatch(Watch):
    """ENV-017: every observation returned in a rollout keeps the value it was returned with, to the rollout's end.

    Attributes:
        part: The part of each result watched (``"obs"``; ``"info"`` in :class:`InfoHistoryWatch`).
    """

    part = "obs"
    index = 0
    """Where the watched part sits in what ``reset``/``step`` returned (from the end: the info is last)."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        self.history = History(self.verify)
        self.positions: dict[str, int] = {}  # each call's position in the rollout, by the name History keeps
        if view.env.var == "env" and (id(view.case.state), view.rule.id) not in _ACROSS_RESETS:
            _ACROSS_RESETS.add((id(view.case.state), view.rule.id))
            self._across_resets()

    def _across_resets(self) -> None:
        """Two seeded resets of an instance of its own, no step between: what the first returned must survive the
        second. It needs no action, so an env that rejects some of its actions (ENV-016's finding, which stops the
        rollouts) is still checked where its next reset rewrites what it returned before (issue 37 item 14)."""
        view, part = self.view, self.part
        env = view.case.make("resets")
        try:
            first = env.reset(seed=0)
            # A type-keeping copy (Freezer): a defaultdict info is no changed info.
            kept = Freezer()(first[self.index] if is_tuple(first) and len(first) == 2 else None)
            env.reset(seed=1)
        except TargetError:
            return  # a reset that raises is ENV-004's finding; the rollouts meet it too
        returned = first[self.index] if is_tuple(first) and len(first) == 2 else None
        found = None if surely_unchanged(returned, kept) else difference(returned, kept, part)
        if found is None:
            return
        view.case.expect(
            f"found = difference({copied(env.var, part=f'[{self.index}]')}[0], results[{env.var!r}][0][{self.index}])",
            "assert found is None, "
            f"{f'{view.rule.id}: the {part} returned by reset(seed=0) changed at the next reset: '!r} + found",
            imports=("from conformance.equality import difference",),
        )
        view.fail(f"the {part} returned by reset(seed=0) changed when the same instance was reset again ({found})",
                  expected=f"the {part} keeps the value it was returned with",
                  actual=f"{summarize(returned)}, was {summarize(kept)}")

    def verify(self, where: str, returned: Any, copy: Any, now: str) -> None:
        """Fail when a result's watched part no longer equals its copy."""
        part = self.part
        if surely_unchanged(returned, copy):
            return
        found = difference(returned, copy, part)
        if found is not None:
            # The reproducer copies each result's part when returned and compares it with what it holds now.
            var, position = self.view.env.var, self.positions[where]
            self.view.case.expect(
                f"found = difference({copied(var, part=f'[{self.index}]')}[{position}], "
                f"results[{var!r}][{position}][{self.index}])",
                f"assert found is None, {f'{self.view.rule.id}: the {part} returned by the {where} changed later: '!r}"
                " + found",
                imports=("from conformance.equality import difference",),
            )
            self.view.fail(
                f"the {part} returned by the {where} changed later, found after {now} ({found})",
                expected=f"the {part} keeps the value it was returned with",
                actual=f"{summarize(returned)}, was {summarize(copy)}",
            )

    def record(self, record: Record) -> None:
        part = self.part
        self.positions[record.where()] = record.index
        self.history.add(record.where(), getattr(record, part), getattr(record, f"{part}_copy"))

    def end(self) -> None:
        self.history.sweep("the end of the rollout")


class InfoHistoryWatch(HistoryWatch):
    """ENV-018: the same, for the infos."""

    part = "info"
    index = -1
