"""The supervisor: jobs return, die, hang, overflow and leak in forked processes; it reports each ending."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from conformance._engine import supervisor as supervisor_module
from conformance._engine.messages import Died, Finished, Hung, Interrupted, OverMemory
from conformance._engine.processes import Snapshot, current_board, describe_status
from conformance._engine.supervisor import Supervisor, fork_available
from conformance._engine.zygote import Job, clone

pytestmark = pytest.mark.skipif(not fork_available(), reason="process supervision needs fork")

_HERE = "tests.conformance._engine.test_supervisor"


# --- jobs (module level: they travel by name) -------------------------------------------------------------------


_WARMED: list[int] = []  # the pids of the processes that ran warm(): a cold zygote's jobs warm up themselves


def warm(payload: Mapping[str, Any]) -> None:
    _WARMED.append(os.getpid())
    if payload.get("thread"):  # a runtime's worker thread, as JAX starts one once it runs
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    if payload.get("die"):
        os._exit(7)
    if payload.get("clone"):  # a warm-up that clones its zygote, as one of a target whose construction waits does
        cloned = clone()
        marker = Path(str(payload.get("hang_once", "")))
        if payload.get("hang_once") and not cloned and not marker.exists():  # the zygote (not its clone) hangs, once
            marker.write_text("")
            board = current_board()
            assert board is not None
            board.begin("env.__init__()", "construct", "", 0.0)
            time.sleep(60)
    if payload.get("escape"):  # leave a child in a session of its own, as a target's constructor might
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the grandchild
            os.setsid()
            time.sleep(60)
            os._exit(0)
        Path(f"{payload['escape']}.{os.getpid()}").write_text(str(pid))


def add(payload: Mapping[str, Any]) -> Any:
    return payload["a"] + payload["b"]


def abort(payload: Mapping[str, Any]) -> Any:
    board = current_board()
    assert board is not None
    board.begin("env.step()", "step", "", 0.0)
    os.abort()


def sleep_in_call(payload: Mapping[str, Any]) -> Any:
    board = current_board()
    assert board is not None
    board.begin("env.render()", "render", "human", 0.0)
    time.sleep(60)


def spin_outside_calls(payload: Mapping[str, Any]) -> Any:
    while True:
        pass


def hoard(payload: Mapping[str, Any]) -> Any:
    import numpy as np

    kept = [np.ones(1 << 26, dtype=np.uint8) for _ in range(16)]  # 1 GiB, written
    return len(kept)


def leave_a_child(payload: Mapping[str, Any]) -> Any:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the grandchild
        os.setsid()
        time.sleep(60)
        os._exit(0)
    Path(str(payload["file"])).write_text(str(pid))
    return pid


def warmed_here(payload: Mapping[str, Any]) -> Any:
    return _WARMED[-1:] == [os.getpid()]


def pid_of_me(payload: Mapping[str, Any]) -> Any:
    return os.getpid()


def meet(payload: Mapping[str, Any]) -> Any:
    """Leave this job's mark and wait (a few seconds at most) for the other job's: true only if both ran at once."""
    Path(str(payload["mine"])).write_text(f"{os.getppid()} {os.getpid()}")
    other = Path(str(payload["other"]))
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        if other.exists():
            return os.getppid()
        time.sleep(0.01)
    return None


@pytest.fixture
def supervisor() -> Iterator[Supervisor]:
    found = Supervisor(1.0, 512 << 20)
    yield found
    found.close()


def _job(name: str, **payload: Any) -> Job:
    return Job(f"{_HERE}:{name}", payload)


def test_a_job_returns_its_value_from_a_fresh_process(supervisor: Supervisor) -> None:
    first = supervisor.run("t", _job("warm"), _job("pid_of_me"))
    second = supervisor.run("t", _job("warm"), _job("pid_of_me"))
    assert isinstance(first, Finished) and isinstance(second, Finished)
    assert first.value != second.value != os.getpid()
    outcome = supervisor.run("t", _job("warm"), _job("add", a=40, b=2))
    assert isinstance(outcome, Finished) and outcome.value == 42


def test_a_fatal_signal_is_reported_with_the_call_in_progress(supervisor: Supervisor) -> None:
    outcome = supervisor.run("t", _job("warm"), _job("abort"))
    assert isinstance(outcome, Died) and outcome.status == "SIGABRT"
    assert outcome.board.active and outcome.board.label == "env.step()" and outcome.stage == "job"
    assert "abort" in outcome.traceback  # faulthandler's stacks, not the terminal's


def test_a_call_that_outruns_the_timeout_is_killed(supervisor: Supervisor) -> None:
    started = time.monotonic()
    outcome = supervisor.run("t", _job("warm"), _job("sleep_in_call"))
    assert isinstance(outcome, Hung) and outcome.limit == 1.0 and outcome.board.mode == "human"
    assert time.monotonic() - started < 10


def test_no_progress_outside_calls_is_a_hang_too() -> None:
    supervisor = Supervisor(0.1, 0)
    try:
        supervisor.idle_limit = 0.5  # the floor is 10 s; shortened to keep the test quick
        outcome = supervisor.run("t", _job("warm"), _job("spin_outside_calls"))
        assert isinstance(outcome, Hung) and not outcome.board.active
    finally:
        supervisor.close()


def test_memory_over_the_cap_is_killed(supervisor: Supervisor) -> None:
    outcome = supervisor.run("t", _job("warm"), _job("hoard"))
    assert isinstance(outcome, OverMemory) and outcome.rss > outcome.cap == 512 << 20


def test_a_zygote_that_dies_warming_up_is_reported_and_replaced(supervisor: Supervisor) -> None:
    outcome = supervisor.run("t", _job("warm", die=True), _job("add", a=1, b=1))
    assert isinstance(outcome, Died) and outcome.stage == "warm" and outcome.status == "exit code 7"
    again = supervisor.run("t", _job("warm"), _job("add", a=1, b=1))
    assert isinstance(again, Finished) and again.value == 2


@pytest.mark.parametrize("start", ["auto", "spawn"])  # a job process of its own, a worker that runs the next job
def test_processes_a_job_leaves_behind_are_killed(tmp_path: Path, start: str) -> None:
    marker = tmp_path / "pid"
    supervisor = Supervisor(1.0, 512 << 20, start=start)
    try:
        outcome = supervisor.run("t", _job("warm"), _job("leave_a_child", file=str(marker)))
    finally:
        supervisor.close()
    assert isinstance(outcome, Finished)
    escaped = int(marker.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(escaped, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    pytest.fail(f"the escaped grandchild {escaped} outlived its job")


def test_close_leaves_no_zygote(supervisor: Supervisor) -> None:
    supervisor.run("t", _job("warm"), _job("add", a=1, b=2))
    zygotes = [zygote.pid for group in supervisor._zygotes.values() for zygote in group]
    supervisor.close()
    for pid in zygotes:
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_statuses_read_as_words() -> None:
    assert describe_status(signal.SIGSEGV) == "SIGSEGV"
    assert describe_status(3 << 8) == "exit code 3"


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="timeout must be > 0"):
        Supervisor(0, 0)
    with pytest.raises(ValueError, match="memory_cap must be >= 0"):
        Supervisor(1, -1)


class _Machine:
    """A fake clock and a fake account of what a call's processes used (supervisor._Starvation reads both)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, runnable: bool = True) -> None:
        self.now, self.cpu, self.runnable = 100.0, 10.0, runnable
        monkeypatch.setattr(supervisor_module, "tree_usage", lambda pid: (self.cpu, self.runnable))

    def watched(self, limit: float, share: float) -> tuple[Any, Snapshot]:
        """A call with a limit of ``limit`` seconds that started now and got ``share`` of a CPU for half a second,
        when the supervisor read what its processes used; and that supervisor's account of it."""
        starvation = supervisor_module._Starvation(clock=lambda: self.now)
        call = Snapshot(1, True, self.now, self.now, 1, "reset", "", "env.reset()", "", limit)
        self.run(0.5, share)
        starvation.watch(1, call)
        return starvation, call

    def run(self, seconds: float, share: float) -> None:
        """Let ``seconds`` pass while the call's processes get ``share`` of a CPU."""
        self.now += seconds
        self.cpu += seconds * share


@pytest.mark.parametrize(
    ("runnable", "share", "cause"),
    [
        (True, 0.0, ""),  # waiting for a CPU (or in the kernel: page reclaim) the whole time: starved, excused
        (True, 0.2, ""),  # a fifth of a CPU: a call of its measured cost would not have ended yet
        (False, 0.0, "asleep"),  # asleep in a call that never returns: a hang
        (True, 0.4, "busy"),  # two busy processes per core beside it: a loop that got its share, not starved
        (True, 1.0, "busy"),
    ],
)
def test_starvation_excuses_only_a_call_that_could_not_run(
    monkeypatch: pytest.MonkeyPatch, runnable: bool, share: float, cause: str
) -> None:
    machine = _Machine(monkeypatch, runnable)
    starvation, call = machine.watched(6.0, share)
    machine.run(6.0, share)
    assert starvation.excuses(1, call, 6.0) is (cause == "")
    assert starvation.cause == cause


def test_a_call_that_had_half_its_limit_of_cpu_is_busy_whatever_its_share(monkeypatch: pytest.MonkeyPatch) -> None:
    # A limit is 3 times the measured cost: a call that had 1.5 times its cost in CPU and is still running loops.
    machine = _Machine(monkeypatch)
    starvation, call = machine.watched(6.0, 0.25)
    machine.run(6.0, 0.25)
    assert starvation.excuses(1, call, 6.0)
    machine.run(6.0, 0.25)  # 3 s of CPU since it was read: half its limit
    assert not starvation.excuses(1, call, 6.0) and starvation.cause == "busy"


def test_starvation_is_excused_for_a_bounded_time_and_named_by_what_it_got(monkeypatch: pytest.MonkeyPatch) -> None:
    machine = _Machine(monkeypatch)
    starvation, call = machine.watched(1.0, 0.0)
    machine.run(3.0, 0.0)
    assert starvation.excuses(1, call, 1.0)
    machine.run(1.0, 0.0)  # past 4 times its limit, having had nothing: the machine stalled it
    assert not starvation.excuses(1, call, 1.0) and starvation.cause == "starved"
    slow, call = machine.watched(10.0, 0.2)
    machine.run(15.0, 0.1)
    assert slow.excuses(1, call, 10.0)
    machine.run(5.0, 0.1)  # a tenth of a CPU for twice its limit: it runs, and a call that runs is judged by then
    assert not slow.excuses(1, call, 10.0) and slow.cause == "busy"


def test_jobs_run_at_once_up_to_the_parallel_limit(tmp_path: Path) -> None:
    supervisor = Supervisor(10.0, 0, parallel=2)
    try:
        first = supervisor.submit("t", _job("warm"), _job("meet", mine=str(tmp_path / "a"), other=str(tmp_path / "b")))
        second = supervisor.submit("t", _job("warm"), _job("meet", mine=str(tmp_path / "b"), other=str(tmp_path / "a")))
        outcomes = [supervisor.wait(second), supervisor.wait(first)]
    finally:
        supervisor.close()
    assert all(isinstance(outcome, Finished) for outcome in outcomes)
    zygotes = [outcome.value for outcome in outcomes if isinstance(outcome, Finished)]
    assert None not in zygotes and zygotes[0] != zygotes[1]  # both met; the target got a second zygote for it


def test_one_slot_runs_jobs_one_after_the_other(tmp_path: Path) -> None:
    supervisor = Supervisor(10.0, 0, parallel=1)
    try:
        first = supervisor.submit("t", _job("warm"), _job("meet", mine=str(tmp_path / "a"), other=str(tmp_path / "b")))
        second = supervisor.submit("t", _job("warm"), _job("meet", mine=str(tmp_path / "b"), other=str(tmp_path / "a")))
        assert first.outcome is None and second.outcome is None
        outcome = supervisor.wait(first)
        assert isinstance(outcome, Finished) and outcome.value is None  # the second had not started: no meeting
        assert isinstance(supervisor.wait(second), Finished)
    finally:
        supervisor.close()


def test_a_hung_job_is_reported_with_its_stacks(supervisor: Supervisor) -> None:
    outcome = supervisor.run("t", _job("warm"), _job("sleep_in_call"))
    assert isinstance(outcome, Hung) and "sleep_in_call" in outcome.traceback


def test_a_cancelled_job_is_killed_and_the_slot_reused(tmp_path: Path) -> None:
    supervisor = Supervisor(10.0, 0, parallel=1)
    try:
        marker = tmp_path / "a"
        hanging = supervisor.submit("t", _job("warm"), _job("meet", mine=str(marker), other=str(tmp_path / "never")))
        deadline = time.monotonic() + 10
        while not marker.exists() and time.monotonic() < deadline:
            supervisor._step(0.05)
        supervisor.cancel(hanging)
        assert hanging.cancelled and isinstance(hanging.outcome, Interrupted)
        outcome = supervisor.run("t", _job("warm"), _job("add", a=2, b=3))
        assert isinstance(outcome, Finished) and outcome.value == 5
        killed = int(marker.read_text().split()[1])
        with pytest.raises(ProcessLookupError):  # reaped by its zygote before the slot served the next job
            os.kill(killed, 0)
    finally:
        supervisor.close()


def test_a_clone_of_a_zygote_is_one_more_zygote_and_one_more_slot(tmp_path: Path) -> None:
    supervisor = Supervisor(2.0, 0, parallel=1)
    warm_up = _job("warm", clone=True)
    try:
        first = supervisor.submit("t", warm_up, _job("meet", mine=str(tmp_path / "a"), other=str(tmp_path / "b")))
        second = supervisor.submit("t", warm_up, _job("meet", mine=str(tmp_path / "b"), other=str(tmp_path / "a")))
        outcomes = [supervisor.wait(first), supervisor.wait(second)]
        assert supervisor.lanes() == 2
        zygotes = [outcome.value for outcome in outcomes if isinstance(outcome, Finished)]
        assert len(zygotes) == 2 and None not in zygotes and zygotes[0] != zygotes[1]  # both ran at once
        # Each zygote's cleanup after its job spared the other; a job's hang is reported from its own board.
        hung = supervisor.submit("t", warm_up, _job("sleep_in_call"))
        beside = supervisor.submit("t", warm_up, _job("add", a=2, b=3))
        outcome = supervisor.wait(hung)
        assert isinstance(outcome, Hung) and outcome.board.method == "render" and "sleep_in_call" in outcome.traceback
        other = supervisor.wait(beside)
        assert isinstance(other, Finished) and other.value == 5
    finally:
        supervisor.close()


def test_a_clone_adds_a_slot_for_its_own_target_only(tmp_path: Path) -> None:
    supervisor = Supervisor(2.0, 0, parallel=1)
    try:
        assert isinstance(supervisor.run("a", _job("warm", clone=True), _job("add", a=1, b=1)), Finished)
        assert supervisor.lanes("a") == 2 and supervisor.lanes("b") == 1
        first = supervisor.submit("b", _job("warm"), _job("meet", mine=str(tmp_path / "a"), other=str(tmp_path / "b")))
        second = supervisor.submit("b", _job("warm"), _job("meet", mine=str(tmp_path / "b"), other=str(tmp_path / "a")))
        outcome = supervisor.wait(first)
        assert isinstance(outcome, Finished) and outcome.value is None  # the second had not started: no meeting
        assert isinstance(supervisor.wait(second), Finished)
    finally:
        supervisor.close()


def slow_pid(payload: Mapping[str, Any]) -> Any:
    time.sleep(float(payload["seconds"]))
    return os.getpid()


def test_a_clone_killed_with_its_zygote_runs_its_job_again(tmp_path: Path) -> None:
    supervisor = Supervisor(1.0, 0, parallel=1)
    warm_up = _job("warm", clone=True, hang_once=str(tmp_path / "hung"))
    try:
        hung = supervisor.submit("t", warm_up, _job("add", a=1, b=1))
        deadline = time.monotonic() + 10
        while supervisor.lanes("t") < 2 and time.monotonic() < deadline:
            supervisor._step(0.05)
        beside = supervisor.submit("t", warm_up, _job("slow_pid", seconds=3))  # on the clone, while its zygote hangs
        first = supervisor.wait(hung)
        assert isinstance(first, Hung) and first.stage == "warm"
        outcome = supervisor.wait(beside)
        assert isinstance(outcome, Finished), outcome  # not Died: the clone's death was its zygote's, not the job's
    finally:
        supervisor.close()


def test_parallel_is_checked() -> None:
    with pytest.raises(ValueError, match="parallel must be >= 1"):
        Supervisor(1, 0, parallel=0)


def zygote_of_me(payload: Mapping[str, Any]) -> Any:
    return os.getppid()


def test_a_zygote_warmed_for_other_facts_is_replaced(supervisor: Supervisor) -> None:
    first = supervisor.run("t", _job("warm", facts=1), _job("zygote_of_me"))
    again = supervisor.run("t", _job("warm", facts=1), _job("zygote_of_me"))
    other = supervisor.run("t", _job("warm", facts=2), _job("zygote_of_me"))
    assert isinstance(first, Finished) and isinstance(again, Finished) and isinstance(other, Finished)
    assert first.value == again.value != other.value
    with pytest.raises(ChildProcessError):  # the stale zygote was killed and reaped, not left idle
        os.waitpid(int(first.value), os.WNOHANG)


@pytest.mark.parametrize("how", ["discard", "close"])
def test_killing_a_zygote_kills_what_its_warm_up_left(tmp_path: Path, how: str) -> None:
    # Two slots: the target's spare zygote warms up (and leaves its child) but never runs a job, whose end would
    # otherwise have cleaned up.
    supervisor = Supervisor(10.0, 0, parallel=2)
    marker = tmp_path / "escaped"
    try:
        outcome = supervisor.run("t", _job("warm", escape=str(marker)), _job("add", a=1, b=1))
        assert isinstance(outcome, Finished)
        deadline = time.monotonic() + 10
        while len(list(tmp_path.glob("escaped.*"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        if how == "discard":
            supervisor.discard("t")
    finally:
        supervisor.close()
    left = [int(path.read_text()) for path in tmp_path.glob("escaped.*")]
    assert len(left) == 2  # both zygotes warmed up
    deadline = time.monotonic() + 5
    alive = left
    while time.monotonic() < deadline:
        alive = [pid for pid in left if _alive(pid)]
        if not alive:
            return
        time.sleep(0.05)
    pytest.fail(f"children a warm-up left in sessions of their own outlived their zygote: {alive}")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_target_that_leaves_threads_in_its_zygote_runs_its_jobs_from_a_cold_one(supervisor: Supervisor) -> None:
    # Forking a process with threads copies their locks, not the threads: each job warms up itself instead.
    outcome = supervisor.run("t", _job("warm", thread=True), _job("warmed_here"))
    assert isinstance(outcome, Finished) and outcome.value is True
    mode, why = supervisor.isolation("t")
    assert mode == "spawn" and why == "1 thread besides the main one in the probe process"
    plain = supervisor.run("u", _job("warm"), _job("warmed_here"))
    assert isinstance(plain, Finished) and plain.value is False  # forked from its warm zygote
    assert supervisor.isolation("u") == ("fork", "")


def test_forced_fork_keeps_forking_and_forced_spawn_always_spawns() -> None:
    forked, spawned = Supervisor(1.0, 0, start="fork"), Supervisor(1.0, 0, start="spawn")
    try:
        outcome = forked.run("t", _job("warm", thread=True), _job("warmed_here"))
        assert isinstance(outcome, Finished) and outcome.value is False
        assert forked.isolation("t") == ("fork", "--conformance-isolation fork")
        outcome = spawned.run("t", _job("warm"), _job("warmed_here"))
        assert isinstance(outcome, Finished) and outcome.value is True
        assert spawned.isolation("t")[0] == "spawn"
    finally:
        forked.close()
        spawned.close()


def test_isolate_moves_a_key_to_cold_zygotes_and_unisolate_back(supervisor: Supervisor) -> None:
    outcome = supervisor.run("t", _job("warm"), _job("warmed_here"))
    assert isinstance(outcome, Finished) and outcome.value is False
    assert supervisor.isolate("t", "its first forked item stalled")
    assert not supervisor.isolate("t", "again")
    outcome = supervisor.run("t", _job("warm"), _job("warmed_here"))
    assert isinstance(outcome, Finished) and outcome.value is True
    supervisor.unisolate("t")
    outcome = supervisor.run("t", _job("warm"), _job("warmed_here"))
    assert isinstance(outcome, Finished) and outcome.value is False
