"""The wire of ``AsyncVectorEnv`` (``reference.vector._async.wire``): frames, channels and the spin policy."""

from __future__ import annotations

import dataclasses
import multiprocessing
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vector._async.wire import (
    CONTENDED,
    MAX_BACKOFF,
    SPIN_SECONDS,
    Channel,
    Command,
    Report,
    ResetRequest,
    Spinner,
    Status,
    allocate_counters,
    decode,
    encode,
    merge_replies,
)


class FakeTime:
    """A clock that only moves when a pause says so."""

    def __init__(self, pause_takes: float) -> None:
        self.now = 0.0
        self.pause_takes = pause_takes
        self.pauses = 0

    def clock(self) -> float:
        return self.now

    def pause(self) -> None:
        self.pauses += 1
        self.now += self.pause_takes


def spinner(pause_takes: float) -> tuple[Spinner, FakeTime]:
    fake = FakeTime(pause_takes)
    return Spinner(clock=fake.clock, pause=fake.pause), fake


def ready_after(pauses: int, fake: FakeTime) -> bool:
    return fake.pauses >= pauses


def test_a_ready_condition_costs_no_pause() -> None:
    spin, fake = spinner(1e-6)
    assert spin.spin(lambda: True) and fake.pauses == 0


def test_a_cheap_spin_succeeds_and_keeps_spinning() -> None:
    spin, fake = spinner(1e-6)
    for wait in range(5):
        goal = fake.pauses + 3
        assert spin.spin(lambda: ready_after(goal, fake))
        assert fake.pauses == goal, f"wait {wait} must spin, not skip"


def test_a_spin_fails_when_its_budget_runs_out() -> None:
    spin, fake = spinner(SPIN_SECONDS / 10)
    assert not spin.spin(lambda: False)
    assert 9 <= fake.pauses <= 11


def test_contended_spins_back_off_doubling_up_to_the_limit() -> None:
    spin, fake = spinner(CONTENDED * 2)  # every pause gives the CPU away for long
    runs: list[int] = []
    skipped = 0
    while len(runs) < 12:
        before = fake.pauses
        assert not spin.spin(lambda: False)
        if fake.pauses > before:  # a probing spin (it fails: contended)
            runs.append(skipped)
            skipped = 0
        else:
            skipped += 1
    # The first spin follows no skip; after each failure the next 1, 2, 4 ... waits block without a pause.
    assert runs == [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 256, 256]
    assert MAX_BACKOFF == 256


def test_a_contended_spin_that_finds_its_frame_still_backs_off() -> None:
    spin, fake = spinner(CONTENDED * 2)
    assert spin.spin(lambda: fake.pauses >= 1)  # the frame is there after the (long) pause ...
    pauses = fake.pauses
    assert not spin.spin(lambda: False) and fake.pauses == pauses  # ... but the next wait does not spin


def test_a_clean_success_resets_the_back_off() -> None:
    fake = FakeTime(CONTENDED * 2)
    spin = Spinner(clock=fake.clock, pause=fake.pause)
    assert not spin.spin(lambda: False)  # contended: the next wait skips
    assert not spin.spin(lambda: False) and fake.pauses == 1
    fake.pause_takes = 1e-6  # the machine calms down
    goal = fake.pauses + 2
    assert spin.spin(lambda: ready_after(goal, fake))  # a clean spin ...
    assert not spin.spin(lambda: False) and fake.pauses > goal  # ... so the next wait spins again


@given(payload=st.one_of(st.binary(max_size=300), st.sampled_from([b"", b"x" * 70_000, b"y" * (1 << 16)])))
@settings(max_examples=25, deadline=None)
def test_channel_frames_round_trip_and_are_counted(payload: bytes) -> None:
    ctx = multiprocessing.get_context()
    counters = allocate_counters(ctx, 1)
    down_reader, down_writer = ctx.Pipe(duplex=False)
    up_reader, up_writer = ctx.Pipe(duplex=False)
    # basedpyright checks every platform, and types Pipe's ends as on Windows (PipeConnection, no Connection).
    parent = Channel(up_reader, down_writer, counters, 0, parent=True)  # pyright: ignore[reportArgumentType]
    child = Channel(down_reader, up_writer, counters, 0, parent=False)  # pyright: ignore[reportArgumentType]
    try:
        frame = encode(Command.RESET, ResetRequest(((0, 1),), {"blob": payload}))
        assert not child.arrived()
        # A large frame does not fit in the pipe: the writer blocks until the reader drains it.
        sender = threading.Thread(target=parent.send, args=(frame,))
        sender.start()
        received = child.recv()
        sender.join()
        assert received == frame and child.arrived() is False
        code, request = decode(received)
        assert code == Command.RESET and request.options == {"blob": payload}
        child.send(encode(Command.STEP))
        assert parent.arrived()
        assert parent.recv() == encode(Command.STEP) and not parent.arrived()
    finally:
        parent.close()
        child.close()


def test_receiving_from_a_closed_peer_is_end_of_file() -> None:
    ctx = multiprocessing.get_context()
    counters = allocate_counters(ctx, 1)
    reader, writer = ctx.Pipe(duplex=False)
    other_reader, other_writer = ctx.Pipe(duplex=False)
    channel = Channel(reader, other_writer, counters, 0, parent=True)  # pyright: ignore[reportArgumentType] - as above
    writer.close()
    with pytest.raises(EOFError):
        channel.recv()
    channel.close()
    other_reader.close()


def test_the_report_of_bare_oks_cannot_be_changed_by_one_caller_for_the_next() -> None:
    # Every all-OK call returns the same empty report: a caller that could change it would change the next one's.
    first = merge_replies({0: encode(Status.OK), 1: encode(Status.OK)})
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.infos = ((0, {"leaked": True}),)  # type: ignore[misc]
    assert not hasattr(first.infos, "append") and not hasattr(first.results, "append")
    second = merge_replies({0: encode(Status.OK)})
    assert second == Report() and second.infos == () and second.observations == () and second.results == ()


def test_replies_merge_in_worker_order_into_an_immutable_report() -> None:
    replies = {
        1: encode(Status.DATA, Report(infos=((2, {"b": 2}),), results=("c",))),
        0: encode(Status.DATA, Report(infos=((0, {"a": 1}),), observations=((0, "obs"),), results=("a", "b"))),
    }
    merged = merge_replies(replies)
    assert merged == Report(infos=((0, {"a": 1}), (2, {"b": 2})), observations=((0, "obs"),), results=("a", "b", "c"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        merged.results = ()  # type: ignore[misc]
