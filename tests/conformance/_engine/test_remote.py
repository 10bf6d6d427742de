"""Tests for :mod:`conformance._engine.remote`: an instance in a process of its own answers as a local one would."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from conformance._engine import remote


class _Counter:
    def __init__(self) -> None:
        self.count = 0
        self.pid = os.getpid()

    def add(self, amount: int) -> np.ndarray[Any, Any]:
        self.count += amount
        return np.full(3, self.count)

    def fail(self) -> None:
        raise ValueError("no such thing")

    def unpicklable(self) -> None:
        raise _Unpicklable(lambda: None)

    def lambda_(self) -> Any:
        return lambda: None


class _Unpicklable(Exception):
    def __init__(self, callback: Any) -> None:
        super().__init__("holds a callback")
        self.callback = callback


def test_calls_and_reads_reach_the_instance_in_the_other_process() -> None:
    released: list[int] = []
    far = remote.start(lambda: released.append(os.getpid()), _Counter)
    try:
        assert far.get("pid") not in (os.getpid(), None)
        np.testing.assert_array_equal(far.call("add", (2,), {}), [2, 2, 2])
        np.testing.assert_array_equal(far.call("add", (), {"amount": 3}), [5, 5, 5])
        assert far.get("count") == 5
        assert released == []  # release runs in the child, never here
    finally:
        far.stop()


def test_what_the_instance_raises_is_raised_here() -> None:
    far = remote.start(lambda: None, _Counter)
    try:
        with pytest.raises(ValueError, match="no such thing"):
            far.call("fail", (), {})
        with pytest.raises(RuntimeError, match="_Unpicklable: holds a callback"):
            far.call("unpicklable", (), {})
        with pytest.raises(remote.RemoteUnavailable, match="cannot travel"):
            far.call("lambda_", (), {})
        with pytest.raises(AttributeError):
            far.get("missing")
        assert far.get("count") == 0  # still serving after all of that
    finally:
        far.stop()


def test_a_construction_that_raises_there_raises_here_and_leaves_no_process() -> None:
    def construct() -> _Counter:
        raise RuntimeError("does not construct alone either")

    with pytest.raises(RuntimeError, match="alone either"):
        remote.start(lambda: None, construct)


def test_a_stopped_instance_is_unavailable() -> None:
    far = remote.start(lambda: None, _Counter)
    far.stop()
    with pytest.raises(remote.RemoteUnavailable):
        far.call("add", (1,), {})
