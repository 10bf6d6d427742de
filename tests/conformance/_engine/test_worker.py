"""A cold zygote's worker: it warms up once and runs its target's jobs one after another, each ending as a job process
of its own would; what a job leaves behind (a thread, a process, memory) retires it, and a fresh one takes over."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from conformance._engine import worker as worker_module
from conformance._engine.messages import Died, Finished, Hung
from conformance._engine.supervisor import Supervisor, fork_available
from conformance._engine.zygote import Job

pytestmark = pytest.mark.skipif(not fork_available(), reason="process supervision needs fork")

_HERE = "tests.conformance._engine.test_worker"

_WARM_UPS: list[int] = []  # in a worker: the warm-ups it ran (its first job's)


def warm(payload: Mapping[str, Any]) -> None:
    _WARM_UPS.append(os.getpid())


def who(payload: Mapping[str, Any]) -> Any:
    """Which process ran the job, and how many warm-ups that process ran."""
    return [os.getpid(), len(_WARM_UPS)]


def leave_a_thread(payload: Mapping[str, Any]) -> Any:
    threading.Thread(target=time.sleep, args=(60,), name="leaked", daemon=True).start()
    return os.getpid()


def exit_abruptly(payload: Mapping[str, Any]) -> Any:
    os._exit(3)


@pytest.fixture
def spawning() -> Iterator[Supervisor]:
    found = Supervisor(1.0, 0, start="spawn")
    yield found
    found.close()


def _job(name: str, **payload: Any) -> Job:
    return Job(f"{_HERE}:{name}", payload)


def _value(outcome: object) -> Any:
    assert isinstance(outcome, Finished), outcome
    return outcome.value


def test_a_spawned_targets_jobs_share_one_warm_process(spawning: Supervisor) -> None:
    # Each job used to warm up (import and probe its target) in a process of its own.
    seen = [_value(spawning.run("t", _job("warm"), _job("who"))) for _ in range(4)]
    assert len({pid for pid, _ in seen}) == 1 and seen[0][0] != os.getpid()
    assert [warm_ups for _, warm_ups in seen] == [1, 1, 1, 1]


def test_a_worker_that_hangs_is_replaced_and_the_next_one_warms_up_again(spawning: Supervisor) -> None:
    first, _ = _value(spawning.run("t", _job("warm"), _job("who")))
    hung = spawning.run("t", _job("warm"), Job("tests.conformance._engine.test_supervisor:sleep_in_call"))
    assert isinstance(hung, Hung) and hung.board.label == "env.render()" and "sleep_in_call" in hung.traceback
    after, warm_ups = _value(spawning.run("t", _job("warm"), _job("who")))
    assert after != first and warm_ups == 1


def test_a_worker_that_dies_is_replaced(spawning: Supervisor) -> None:
    first, _ = _value(spawning.run("t", _job("warm"), _job("who")))
    died = spawning.run("t", _job("warm"), _job("exit_abruptly"))
    assert isinstance(died, Died) and died.status == "exit code 3"
    assert _value(spawning.run("t", _job("warm"), _job("who")))[0] != first


def test_a_job_that_leaves_a_thread_retires_its_worker(spawning: Supervisor) -> None:
    leaky = _value(spawning.run("t", _job("warm"), _job("leave_a_thread")))
    assert _value(spawning.run("t", _job("warm"), _job("who")))[0] != leaky


def test_a_job_that_leaves_a_process_retires_its_worker(spawning: Supervisor, tmp_path: Path) -> None:
    # A child in a session of its own; that it dies with the job: test_supervisor's
    # test_processes_a_job_leaves_behind_are_killed.
    leave = Job("tests.conformance._engine.test_supervisor:leave_a_child", {"file": str(tmp_path / "pid")})
    leaky = _value(spawning.run("t", _job("warm"), leave))
    assert _value(spawning.run("t", _job("warm"), _job("who")))[0] != leaky


def test_native_threads_may_grow_in_one_job_only(monkeypatch: pytest.MonkeyPatch) -> None:
    # A runtime starts its pools at its first use, whichever job that is (XLA's 17 threads at JAX's first
    # computation); threads that grow again are a leak.
    count = {"tasks": 3}
    monkeypatch.setattr(worker_module, "tasks", lambda: count["tasks"])
    monkeypatch.setattr(worker_module, "children", lambda pid: [])
    monkeypatch.setattr(worker_module, "rss", lambda pid: 100 << 20)
    baseline = worker_module._Baseline.now()
    assert baseline.retire(first=True) == ""
    count["tasks"] = 20
    assert baseline.retire(first=False) == ""
    assert baseline.retire(first=False) == ""
    count["tasks"] = 21
    assert "1 native thread" in baseline.retire(first=False)


def test_memory_grown_past_the_bound_since_the_first_job_retires(monkeypatch: pytest.MonkeyPatch) -> None:
    memory = {"rss": 300 << 20}
    monkeypatch.setattr(worker_module, "tasks", lambda: 1)
    monkeypatch.setattr(worker_module, "children", lambda pid: [])
    monkeypatch.setattr(worker_module, "rss", lambda pid: memory["rss"])
    baseline = worker_module._Baseline.now()
    assert baseline.retire(first=True) == ""
    memory["rss"] += worker_module.GROWTH
    assert baseline.retire(first=False) == ""
    memory["rss"] += 1 << 20
    assert "grew by" in baseline.retire(first=False)
