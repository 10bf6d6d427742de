"""The whole-history watch behind ENV-017/018 and RENDER-013: a result changed long after it was returned is seen."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance._kit.aliasing import SWEEP_EVERY, History, surely_unchanged


def test_surely_unchanged_is_exact_and_conservative() -> None:
    array = np.array([1.0, np.nan])
    assert surely_unchanged(array, array.copy())
    assert surely_unchanged({"a": (array, 3)}, {"a": (array.copy(), 3)})
    assert not surely_unchanged(array, array.astype(np.float32))
    changed = array.copy()
    changed[0] = 2.0
    assert not surely_unchanged({"a": changed}, {"a": array})
    objects = np.array([[1]], dtype=object)
    assert not surely_unchanged(objects, objects.copy())  # left to difference(), which looks inside


class _Changed(Exception):
    pass


def _history(budget: int = 1 << 20) -> tuple[History, list[tuple[str, str]]]:
    seen: list[tuple[str, str]] = []

    def verify(where: str, returned: Any, copy: Any, now: str) -> None:
        if not np.array_equal(returned, copy):
            seen.append((where, now))
            raise _Changed

    return History(verify, budget), seen


def test_a_buffer_overwritten_many_results_later_is_seen_at_the_next_sweep() -> None:
    history, seen = _history()
    buffer = np.zeros(2)
    history.add("reset at position 0", buffer, buffer.copy())
    with pytest.raises(_Changed):
        for position in range(1, 10 * SWEEP_EVERY):
            fresh = np.full(2, float(position))
            history.add(f"step at position {position}", fresh, fresh.copy())
            if position == 3 * SWEEP_EVERY:
                buffer[:] = 7.0  # written long after it was returned
    assert seen[0][0] == "reset at position 0"


def test_the_end_sweep_sees_what_no_sweep_reached() -> None:
    history, seen = _history()
    buffer = np.zeros(2)
    history.add("reset at position 0", buffer, buffer.copy())
    history.add("step at position 1", np.ones(2), np.ones(2))
    buffer[:] = 1.0
    with pytest.raises(_Changed):
        history.sweep("the end of the rollout")
    assert seen == [("reset at position 0", "the end of the rollout")]


def test_past_the_budget_the_oldest_results_are_dropped() -> None:
    history, seen = _history(budget=4 * 16)  # four arrays of 16 bytes
    first = np.zeros(2)
    history.add("reset at position 0", first, first.copy())
    for position in range(1, 6):
        fresh = np.full(2, float(position))
        history.add(f"step at position {position}", fresh, fresh.copy())
    first[:] = 5.0  # no longer kept: nothing to see
    history.sweep("the end of the rollout")
    assert seen == []
