"""Where a vector rollout's sub-envs start anew, and when every later start repeating the first is a restart."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance._kit.vector_restarts import MATCHES, Restarts
from conformance._kit.vector_rollout import VecRecord
from gymspec import AutoresetMode
from reference.spaces import Box

_SINGLE = Box(-5.0, 5.0, (1,), np.float32)


def _reset(obs: list[float]) -> VecRecord:
    batch = np.array(obs, dtype=np.float32).reshape(-1, 1)
    return VecRecord(0, "reset", 0, batch, batch.copy(), None, None, None, {}, {})


def _step(index: int, obs: list[float], ended: list[bool]) -> VecRecord:
    batch = np.array(obs, dtype=np.float32).reshape(-1, 1)
    flags = np.array(ended)
    return VecRecord(index, "step", None, batch, batch.copy(), np.zeros(len(obs)), flags, np.zeros_like(flags), {}, {})


def _follow(mode: AutoresetMode, records: list[VecRecord]) -> Restarts:
    starts = Restarts(2, mode, _SINGLE)
    for record in records:
        starts.add(record)
    return starts


def test_next_step_starts_on_the_step_after_an_end_and_same_step_on_the_end() -> None:
    records = [_reset([0.1, 0.2]), _step(1, [1.0, 1.1], [True, False]), _step(2, [0.1, 1.2], [False, False])]
    assert _follow(AutoresetMode.NEXT_STEP, records).later == [(2, 0)]
    assert _follow(AutoresetMode.SAME_STEP, records).later == [(1, 0)]


def test_a_restart_needs_every_later_start_to_repeat_and_enough_of_them() -> None:
    records: list[Any] = [_reset([0.1, 0.2])]
    for k in range(MATCHES):  # SameStep: each ending step returns the sub-envs' new starts, their first ones again
        records.append(_step(k + 1, [0.1, 0.2], [True, True]))
    restarted = _follow(AutoresetMode.SAME_STEP, records)
    assert restarted.restarted() and restarted.decided
    few = _follow(AutoresetMode.SAME_STEP, records[: MATCHES // 2])
    assert not few.restarted() and not few.decided
    moved = _follow(AutoresetMode.SAME_STEP, [*records[:3], _step(3, [0.3, 0.2], [True, False]), *records[3:]])
    assert not moved.restarted() and moved.decided  # one start elsewhere: the generator continued
