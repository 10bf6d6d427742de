"""The run's limits: how many supervised processes run items at once."""

from __future__ import annotations

import os
from typing import Any, cast

import pytest

from conformance._engine.session import jobs_for, limits


class _Config:
    """What :func:`~conformance._engine.session.limits` and ``jobs_for`` read of a pytest config: options, ini,
    xdist's worker input."""

    def __init__(self, jobs: str | None = None, workers: int | None = None) -> None:
        self.jobs = jobs
        self.stash = pytest.Stash()  # no [tool.conformance] table
        if workers is not None:
            self.workerinput = {"workercount": workers}

    def getoption(self, name: str, default: Any = None) -> Any:
        return self.jobs if name == "conformance_jobs" else default

    def getini(self, name: str) -> Any:
        return ""


def _jobs(config: _Config) -> int:
    # As many targets as there could be workers: every worker can get one.
    return jobs_for(cast(pytest.Config, config), targets=64)


@pytest.mark.parametrize(
    ("cpus", "workers", "expected"),
    [(2, None, 2), (2, 2, 1), (8, 2, 4), (64, None, 4), (1, None, 1), (3, 4, 1)],
)
def test_auto_shares_the_cpus_among_xdist_workers(
    monkeypatch: pytest.MonkeyPatch, cpus: int, workers: int | None, expected: int
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cpus)), raising=False)
    assert _jobs(_Config(workers=workers)) == expected
    assert _jobs(_Config("auto", workers)) == expected


def test_a_count_given_is_taken_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert _jobs(_Config("6", workers=2)) == 6


@pytest.mark.parametrize(("targets", "expected"), [(1, 2), (2, 1), (24, 1)])
def test_auto_shares_the_cpus_only_among_workers_that_get_a_target(
    monkeypatch: pytest.MonkeyPatch, targets: int, expected: int
) -> None:
    # Each target's items go to one worker: one target on `-n 2` leaves the other worker idle, and its CPU free.
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert jobs_for(cast(pytest.Config, _Config(workers=2)), targets) == expected
    assert jobs_for(cast(pytest.Config, _Config("3", workers=2)), targets) == 3  # a count given is taken as it is


@pytest.mark.parametrize("raw", ["0", "-2", "many", "1.5"])
def test_a_malformed_count_is_refused_when_the_run_starts(raw: str) -> None:
    from conformance._engine.targets import TargetSpecError

    with pytest.raises(TargetSpecError, match="--conformance-jobs must be a positive number"):
        limits(cast(pytest.Config, _Config(raw)))
    assert limits(cast(pytest.Config, _Config("3"))).jobs == 3
    assert limits(cast(pytest.Config, _Config("auto"))).jobs is None  # decided once the targets are known
