"""Tests for :mod:`conformance._engine.shelf`: untouched instances, recycled ones, and when a shelf is not kept."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from conformance._engine import shelf


class _Env:
    def __init__(self, **kwargs: Any) -> None:
        self.kwargs = dict(kwargs)
        self.closed = False

    def close(self) -> None:
        self.closed = True


def _close(obj: Any) -> None:
    obj.close()


@pytest.fixture(autouse=True)
def _empty() -> Iterator[None]:
    shelf.release(lambda obj: None)
    shelf.mark_costly(0.0)
    yield
    shelf.release(lambda obj: None)
    shelf.mark_costly(0.0)


def test_keys_are_the_kwargs_as_json_or_none() -> None:
    assert shelf.key_of({"b": 1, "render_mode": "rgb_array"}) == shelf.key_of({"render_mode": "rgb_array", "b": 1})
    assert shelf.key_of({}) != shelf.key_of({"render_mode": None})
    assert shelf.key_of({"x": object()}) is None
    assert shelf.key_of({"x": float("nan")}) is None


def test_only_a_construction_of_a_tenth_of_a_second_or_more_is_costly() -> None:
    shelf.mark_costly(0.05)
    assert shelf.costly() is None
    shelf.mark_costly(20.0)
    assert shelf.costly() == 20.0


def test_a_stocked_shelf_serves_each_kind_its_count_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shelf, "COSTLY_SECONDS", 0.0)  # these constructions are instant: costly for this test only
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        built.append(_Env(**kwargs))
        return built[-1]

    assert shelf.stock([({}, 2), ({"render_mode": "rgb_array"}, 1)], construct, _close) == 3
    default, rgb = shelf.key_of({}), shelf.key_of({"render_mode": "rgb_array"})
    assert shelf.stocked(default) and shelf.stocked(rgb) and shelf.holding()
    served = [shelf.untouched(default), shelf.untouched(default), shelf.untouched(default)]
    assert served[2] is None and {id(env) for env in served[:2]} == {id(env) for env in built[:2]}
    assert shelf.untouched(rgb) is built[2] and not shelf.stocked(rgb)
    assert not any(env.closed for env in built)


def test_a_construction_that_raises_beside_live_ones_leaves_no_instance_at_all() -> None:
    # A target allowing one live instance: not even the probed instance (in the bin) may stay open in the zygote.
    probed = _Env()
    shelf.recycle(shelf.key_of({}), probed, _close)
    live: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        if live:
            raise RuntimeError("one live instance per process")
        live.append(_Env(**kwargs))
        return live[-1]

    assert shelf.stock([({}, 2)], construct, _close) == 0
    assert not shelf.holding()
    assert probed.closed and all(env.closed for env in live)


def test_a_shelf_whose_building_started_a_thread_is_dropped() -> None:
    stop = threading.Event()

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        threading.Thread(target=stop.wait, daemon=True).start()
        return _Env(**kwargs)

    try:
        assert shelf.stock([({}, 1)], construct, _close) == 0
        assert not shelf.holding()
    finally:
        stop.set()
        time.sleep(0.01)


def test_the_bin_keeps_a_few_instances_per_kind_and_closes_the_rest() -> None:
    key = shelf.key_of({})
    envs = [_Env() for _ in range(6)]
    for env in envs:
        shelf.recycle(key, env, _close)
    kept = [env for env in envs if not env.closed]
    assert 1 <= len(kept) < len(envs)
    assert shelf.recycled(key) in kept
    assert shelf.recycled(shelf.key_of({"render_mode": "ansi"})) is None
    unkeyed = _Env()
    shelf.recycle(None, unkeyed, _close)
    assert unkeyed.closed


class _Windowed(_Env):
    """In human mode, holds a file open as a window holds its display connection."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fd = os.open(os.devnull, os.O_RDONLY) if kwargs.get("render_mode") == "human" else -1

    def close(self) -> None:
        super().close()
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


@pytest.fixture
def _headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shelf, "COSTLY_SECONDS", 0.0)  # these constructions are instant: costly for these tests only
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


@pytest.mark.usefixtures("_headless")
def test_a_human_instance_that_leaves_no_trace_is_kept_last() -> None:
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        built.append(_Env(**kwargs))
        return built[-1]

    human = {"render_mode": "human"}
    assert shelf.stock([({}, 1)], construct, _close, [human]) == 2
    assert [env.kwargs for env in built] == [{}, human]
    assert shelf.untouched(shelf.key_of(human)) is built[1] and not built[1].closed


@pytest.mark.usefixtures("_headless")
def test_a_human_instance_holding_a_file_open_is_closed_and_the_rest_kept() -> None:
    built: list[_Windowed] = []

    def construct(kwargs: Mapping[str, Any]) -> _Windowed:
        built.append(_Windowed(**kwargs))
        return built[-1]

    human = {"render_mode": "human"}
    assert shelf.stock([({}, 1)], construct, _close, [human]) == 1
    assert not shelf.stocked(shelf.key_of(human)) and built[1].closed and built[1].fd == -1
    assert shelf.untouched(shelf.key_of({})) is built[0] and not built[0].closed


@pytest.mark.usefixtures("_headless")
def test_a_human_instance_that_starts_a_thread_is_closed() -> None:
    stop = threading.Event()
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        if kwargs:
            threading.Thread(target=stop.wait, daemon=True).start()
        built.append(_Env(**kwargs))
        return built[-1]

    try:
        assert shelf.stock([({}, 1)], construct, _close, [{"render_mode": "human"}]) == 1
        assert built[1].closed and not shelf.stocked(shelf.key_of({"render_mode": "human"}))
    finally:
        stop.set()
        time.sleep(0.01)


@pytest.mark.usefixtures("_headless")
def test_no_human_instance_is_built_where_a_display_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISPLAY", ":0")
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        built.append(_Env(**kwargs))
        return built[-1]

    assert shelf.stock([({}, 1)], construct, _close, [{"render_mode": "human"}]) == 1
    assert [env.kwargs for env in built] == [{}]


# --- built at once (a target whose construction waits) -------------------------------------------------------------


def _at_once(construct: Any) -> shelf.Together:
    """:func:`shelf.built_at_once` over ``construct``: what the zygote's warm-up hands to ``stock``."""
    return lambda constructions: shelf.built_at_once(constructions, construct)


def test_constructions_built_at_once_wait_side_by_side() -> None:
    def construct(kwargs: Mapping[str, Any]) -> _Env:
        time.sleep(0.2)
        return _Env(**kwargs)

    started = time.perf_counter()
    results = shelf.built_at_once([{}, {"render_mode": "ansi"}, {}, {}, {}], construct)
    assert time.perf_counter() - started < 0.2 * 3  # five waits, overlapped
    assert [env.kwargs for env in results] == [{}, {"render_mode": "ansi"}, {}, {}, {}]


def test_a_construction_built_at_once_that_raises_is_handed_back() -> None:
    def construct(kwargs: Mapping[str, Any]) -> _Env:
        if kwargs:
            raise ValueError("refused")
        return _Env()

    first, second = shelf.built_at_once([{}, {"render_mode": "human"}], construct)
    assert isinstance(first, _Env) and isinstance(second, ValueError)


@pytest.mark.usefixtures("_headless")
def test_a_shelf_built_at_once_holds_what_one_built_in_turn_holds() -> None:
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        built.append(_Env(**kwargs))
        return built[-1]

    kinds = [({}, 2), ({"render_mode": "rgb_array"}, 1)]
    human = {"render_mode": "human"}
    assert shelf.stock(kinds, construct, _close, [human], together=_at_once(construct)) == 4
    for kwargs, count in [*kinds, (human, 1)]:
        served = [shelf.untouched(shelf.key_of(kwargs)) for _ in range(count)]
        assert all(isinstance(env, _Env) and env.kwargs == kwargs and not env.closed for env in served)
        assert not shelf.stocked(shelf.key_of(kwargs))
    assert shelf.steady() is not None


def test_a_shelf_built_at_once_where_one_construction_raises_is_dropped() -> None:
    probed = _Env()
    shelf.recycle(shelf.key_of({}), probed, _close)
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        if kwargs:
            raise RuntimeError("one live instance per process")
        built.append(_Env(**kwargs))
        return built[-1]

    assert shelf.stock([({}, 2), ({"render_mode": "ansi"}, 1)], construct, _close, together=_at_once(construct)) == 0
    assert not shelf.holding() and probed.closed and all(env.closed for env in built)


def test_a_shelf_built_at_once_that_left_a_thread_is_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shelf, "COSTLY_SECONDS", 0.0)  # dropped for the thread, not for being cheap
    stop = threading.Event()
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        threading.Thread(target=stop.wait, daemon=True).start()
        built.append(_Env(**kwargs))
        return built[-1]

    try:
        assert shelf.stock([({}, 2)], construct, _close, together=_at_once(construct)) == 0
        assert not shelf.holding() and all(env.closed for env in built)
    finally:
        stop.set()
        time.sleep(0.01)


@pytest.mark.usefixtures("_headless")
def test_a_shelf_built_at_once_that_left_a_file_open_keeps_no_human_instance() -> None:
    built: list[_Windowed] = []

    def construct(kwargs: Mapping[str, Any]) -> _Windowed:
        built.append(_Windowed(**kwargs))
        return built[-1]

    human = {"render_mode": "human"}
    assert shelf.stock([({}, 1)], construct, _close, [human], together=_at_once(construct)) == 1
    windowed = next(env for env in built if env.kwargs)
    assert windowed.closed and windowed.fd == -1 and not shelf.stocked(shelf.key_of(human))
    assert shelf.stocked(shelf.key_of({}))


def test_a_shelf_built_at_once_past_the_memory_cap_keeps_what_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shelf, "COSTLY_SECONDS", 0.0)
    monkeypatch.setattr(shelf, "SHELF_MIB", 250.0)
    memory = iter([100.0, 500.0])  # before the batch, after it: 100 MiB an instance, room for two
    monkeypatch.setattr(shelf, "_rss_mib", lambda: next(memory))
    built: list[_Env] = []

    def construct(kwargs: Mapping[str, Any]) -> _Env:
        built.append(_Env(**kwargs))
        return built[-1]

    assert shelf.stock([({}, 4)], construct, _close, together=_at_once(construct)) == 2
    assert sum(env.closed for env in built) == 2
