"""Shared timing helpers for the benchmarks: interleaved rounds, medians and a ratio table.

Typical use::

    rows = compare({"Box.sample": (ours.sample, theirs.sample)}, repeat=15, number=2000)
    print_table(rows, target=0.7)

``compare`` alternates the two callables round by round (and swaps their order every other round), so load
drift on a shared machine affects both sides alike; each side's figure is the median over the rounds.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Row", "compare", "measure", "print_table"]


def _time_once(fn: Callable[[], object], number: int) -> float:
    """Seconds per call over ``number`` back-to-back calls, with the garbage collector paused."""
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        return (time.perf_counter() - start) / number
    finally:
        if gc_was_enabled:
            gc.enable()


def measure(fn: Callable[[], object], *, repeat: int = 7, number: int = 1000) -> float:
    """Median seconds per call of ``fn``.

    Args:
        fn: The operation to time (called without arguments).
        repeat: How many timed rounds to take the median of.
        number: Calls per round.

    Returns:
        The median over the rounds of the mean seconds per call.

    Raises:
        ValueError: ``repeat`` or ``number`` is not positive.
    """
    if repeat <= 0 or number <= 0:
        raise ValueError(f"measure repeat and number must be positive, got repeat={repeat} number={number}")
    fn()  # warm caches and lazy initialisation outside the timed rounds
    return statistics.median(_time_once(fn, number) for _ in range(repeat))


@dataclass(frozen=True)
class Row:
    """One benchmark case: median seconds per call for our implementation and for the baseline."""

    name: str
    ours: float
    theirs: float

    @property
    def ratio(self) -> float:
        """``ours / theirs``; below 1 means ours is faster."""
        return self.ours / self.theirs


def compare(
    cases: Mapping[str, tuple[Callable[[], object], Callable[[], object]]],
    *,
    repeat: int = 11,
    number: int = 1000,
) -> list[Row]:
    """Time ``(ours, theirs)`` pairs in interleaved rounds.

    Args:
        cases: Case name to ``(ours, theirs)`` callables.
        repeat: Rounds per case; each round times both callables once.
        number: Calls per timing.

    Returns:
        One :class:`Row` per case, in the order given.

    Raises:
        ValueError: ``repeat`` or ``number`` is not positive.
    """
    if repeat <= 0 or number <= 0:
        raise ValueError(f"compare repeat and number must be positive, got repeat={repeat} number={number}")
    samples: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in cases}
    for ours, theirs in cases.values():
        ours()
        theirs()
    for round_index in range(repeat):
        for name, (ours, theirs) in cases.items():
            ours_times, theirs_times = samples[name]
            if round_index % 2:
                theirs_times.append(_time_once(theirs, number))
                ours_times.append(_time_once(ours, number))
            else:
                ours_times.append(_time_once(ours, number))
                theirs_times.append(_time_once(theirs, number))
    return [
        Row(name, statistics.median(samples[name][0]), statistics.median(samples[name][1])) for name in cases
    ]


def print_table(rows: Sequence[Row], *, target: float | None = None, ours: str = "ours", theirs: str = "gymnasium") -> bool:
    """Print per-call microseconds and ratios; mark rows that miss ``target``.

    Args:
        rows: The measured cases.
        target: The maximum acceptable ratio, or ``None`` for no check.
        ours: Column label for our implementation.
        theirs: Column label for the baseline.

    Returns:
        Whether every row meets ``target`` (always ``True`` without one).
    """
    width = max([len("case")] + [len(row.name) for row in rows])
    header = f"{'case':<{width}}  {ours + ' us':>12}  {theirs + ' us':>14}  {'ratio':>6}"
    print(header)
    print("-" * len(header))
    all_ok = True
    for row in rows:
        ok = target is None or row.ratio <= target
        all_ok = all_ok and ok
        flag = "" if ok else f"  > {target}"
        print(f"{row.name:<{width}}  {row.ours * 1e6:>12.2f}  {row.theirs * 1e6:>14.2f}  {row.ratio:>6.2f}{flag}")
    return all_ok
