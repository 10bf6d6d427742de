"""Tests for reference.wrappers._shared (the private pieces several wrapper modules share)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.wrappers._shared import AfterCallWrapper, StatisticsToggle, is_int
from tests.reference._equality import assert_identical
from tests.reference.wrappers._envs import BoxEnv


@given(value=st.one_of(st.integers(), st.booleans(), st.floats(), st.text(max_size=3), st.none()))
@settings(max_examples=50, deadline=None)
def test_is_int_matches_int_or_numpy_integer_but_not_bool(value: object) -> None:
    expected = isinstance(value, int) and not isinstance(value, bool)
    assert is_int(value) is expected


def test_is_int_accepts_numpy_integers_only() -> None:
    assert is_int(np.int64(3)) and is_int(np.uint8(0))
    assert not is_int(np.bool_(True)) and not is_int(np.float32(1.0))


class _Toggled(StatisticsToggle):
    def __init__(self) -> None:
        self._update_running_mean = True


def test_statistics_toggle_reads_and_writes_the_flag() -> None:
    toggled = _Toggled()
    assert toggled.update_running_mean is True
    toggled.update_running_mean = False
    assert toggled.update_running_mean is False and toggled._update_running_mean is False


class _Recorder(AfterCallWrapper[Any, Any]):
    def __init__(self, env: BoxEnv) -> None:
        super().__init__(env)
        self.calls: list[tuple[str, int]] = []

    def _after_reset(self) -> None:
        self.calls.append(("reset", getattr(self.env, "t")))

    def _after_step(self) -> None:
        self.calls.append(("step", getattr(self.env, "t")))


@given(steps=st.integers(0, 4))
@settings(max_examples=10, deadline=None)
def test_after_call_wrapper_passes_results_through_and_runs_hooks_after(steps: int) -> None:
    inner = BoxEnv(length=10)
    wrapped = _Recorder(BoxEnv(length=10))
    assert_identical(wrapped.reset(seed=1), inner.reset(seed=1))
    action = np.array([0.5, -0.25], dtype=np.float32)
    for _ in range(steps):
        assert_identical(wrapped.step(action), inner.step(action))
    # The hooks see the inner state the result describes: t after the call.
    assert wrapped.calls == [("reset", 0)] + [("step", t) for t in range(1, steps + 1)]


def test_after_call_wrapper_hooks_default_to_nothing() -> None:
    wrapped: AfterCallWrapper[Any, Any] = AfterCallWrapper(BoxEnv())
    obs, _ = wrapped.reset()
    assert obs.shape == (3,) and wrapped.step(np.zeros(2, dtype=np.float32))[2] is False
