"""The progress board: what the supervised process writes is what the supervisor reads, across a fork.
"""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from conformance._engine.processes import (
    Board,
    BoardGuard,
    cpu_and_state,
    current_board,
    kill_descendants,
    peak_mib,
    reset_peak,
    tracked,
    tree_usage,
)

# --- The progress board --------------------------------------------------------------------------------------------

def test_a_call_in_progress_is_visible_and_its_end_is_progress() -> None:
    board = Board()
    board.reset(1234)
    idle = board.read()
    assert (idle.pid, idle.active, idle.calls) == (1234, False, 0)
    guard = BoardGuard(board, 5.0)

    def inside() -> None:
        now = board.read()
        assert now.active and now.label == "env.step()" and now.method == "step" and now.mode == "human"
        assert now.started >= idle.beat and now.limit == 2.5

    guard.call("env.step()", inside, method="step", mode="human", limit=2.5)
    after = board.read()
    assert not after.active and after.calls == 1 and after.beat >= idle.beat
    assert after.label == "env.step()"  # the last call stays named, for a death outside any call


def test_nested_calls_are_timed_as_the_outermost() -> None:
    board = Board()
    board.reset(1)
    guard = BoardGuard(board, 5.0)
    seen: list[str] = []
    guard.call("outer()", lambda: guard.call("inner()", lambda: seen.append(board.read().label)))
    assert seen == ["outer()"] and board.read().calls == 1


def test_exceptions_leave_the_board_idle() -> None:
    board = Board()
    board.reset(1)
    empty: dict[str, int] = {}
    with pytest.raises(KeyError):
        BoardGuard(board, 5.0).call("space.sample()", lambda: empty["x"])
    assert not board.read().active


def test_long_texts_are_cut_not_spilled() -> None:
    board = Board()
    board.reset(1)
    board.begin("x" * 10_000, "m" * 500, "human", 0.0)
    board.note("n" * 10_000)
    snapshot = board.read()
    assert snapshot.label == "x" * 200 and snapshot.method == "m" * 32 and snapshot.mode == "human"
    assert snapshot.note == "n" * 200


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_writer_is_read_by_the_parent() -> None:
    board = Board()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        board.reset(os.getpid())
        board.begin("env.reset()", "reset", "", 0.0)
        time.sleep(5)
        os._exit(0)
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not board.read().active:
            time.sleep(0.01)
        snapshot = board.read()
        assert snapshot.pid == pid and snapshot.active and snapshot.method == "reset"
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)


def test_tracked_calls_go_to_the_installed_board_only() -> None:
    assert tracked("f()", lambda: 41) + 1 == 42  # no board in this process: a plain call
    if current_board() is not None:  # pragma: no cover - the tests run unsupervised
        pytest.skip("this process already reports on a board")


def test_an_adopted_board_is_written_where_its_reader_reads() -> None:
    mine, spare = Board(), Board()
    mine.adopt(spare)  # a zygote's clone takes over the board the supervisor made for it
    mine.reset(os.getpid())
    mine.begin("env.reset()", "reset", "")
    assert spare.read().active and spare.read().method == "reset"
    assert not Board().read().active


def test_kill_descendants_spares_the_children_it_is_told_to() -> None:
    read, write = os.pipe()
    helper = os.fork()
    if helper == 0:  # pragma: no cover - a zygote with a clone and a leftover child
        os.close(read)
        code = 1
        try:
            kept, doomed = (_sleeper() for _ in range(2))
            kill_descendants(os.getpid(), spare={kept})
            alive = os.waitpid(kept, os.WNOHANG) == (0, 0)
            try:
                os.kill(doomed, 0)
                gone = False
            except ProcessLookupError:
                gone = True
            os.write(write, f"{alive} {gone}".encode())
            os.kill(kept, signal.SIGKILL)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        answer = pipe.read().decode()
    os.waitpid(helper, 0)
    assert answer == "True True"  # the spared child lives on; the other was killed and reaped


def _sleeper() -> int:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        time.sleep(60)
        os._exit(0)
    return pid


def test_the_peak_memory_mark_can_be_started_afresh() -> None:
    if not reset_peak():
        pytest.skip("this kernel has no /proc/self/clear_refs")
    before = peak_mib()
    block = np.ones(64 << 20, dtype=np.uint8)  # 64 MiB, touched
    after = peak_mib()
    del block
    assert before is not None and after is not None
    assert after >= before + 60
    reset_peak()
    again = peak_mib()
    assert again is not None and again < after - 60


def test_the_usage_of_a_job_counts_the_processes_it_started() -> None:
    # A process that waits for a child doing its work (an AsyncVectorEnv's workers) is as busy as that child.
    child = os.fork()
    if child == 0:  # pragma: no cover - the busy child
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            pass
        os._exit(0)
    try:
        time.sleep(0.5)
        cpu, runnable = tree_usage(os.getpid())
        own, _ = cpu_and_state(os.getpid())
        assert runnable and cpu > own
    finally:
        os.waitpid(child, 0)
