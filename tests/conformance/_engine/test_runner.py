"""The item runner's view of an xdist worker's queue: which items may start before their turn."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, cast

import pluggy
import pytest

from conformance._engine.runner import _worker_queue


def _config(*plugins: object) -> pytest.Config:
    manager = pluggy.PluginManager("pytest")
    for plugin in plugins:
        manager.register(plugin)
    return cast(pytest.Config, SimpleNamespace(pluginmanager=manager))


class _Queue:
    def __init__(self, items: list[Any], *, broken: bool = False) -> None:
        self.items, self.broken = items, broken

    @contextlib.contextmanager
    def lock(self) -> Iterator[list[Any]]:
        if self.broken:
            raise RuntimeError("a lock that changed shape")
        yield self.items


class _Interactor:
    def __init__(self, next_index: object, queue: _Queue) -> None:
        self.nextitem_index, self.torun = next_index, queue


def test_the_queue_lists_the_next_item_then_the_ones_sent_after_it() -> None:
    queued = _worker_queue(_config(object(), _Interactor(7, _Queue([8, 12, "SHUTDOWN"]))))
    assert queued is not None
    assert queued() == [7, 8, 12]


@pytest.mark.parametrize("next_index", [None, "SHUTDOWN", True])
def test_only_item_indices_count(next_index: object) -> None:
    queued = _worker_queue(_config(_Interactor(next_index, _Queue([3]))))
    assert queued is not None and queued() == [3]


def test_no_worker_plugin_means_nothing_is_known() -> None:
    assert _worker_queue(_config(object())) is None


def test_a_queue_that_cannot_be_read_lists_nothing() -> None:
    queued = _worker_queue(_config(_Interactor(1, _Queue([2], broken=True))))
    assert queued is not None and queued() == []


def test_pytest_xdist_workers_are_read_as_this_expects() -> None:
    """The real worker plugin: if xdist changes what this relies on, this fails (the suite itself just runs items in
    their turn)."""
    remote = pytest.importorskip("xdist.remote")
    execnet = pytest.importorskip("execnet")
    channel = SimpleNamespace(gateway=SimpleNamespace(execmodel=execnet.gateway_base.get_execmodel("thread")))
    config = _config()
    setattr(config, "workerinput", {"workerid": "gw0", "testrunuid": "x"})  # noqa: B010 - attributes xdist reads
    setattr(config, "option", SimpleNamespace(debug=False))  # noqa: B010
    interactor = remote.WorkerInteractor(config, channel)
    interactor.handle_command(("runtests", {"indices": [4, 5, 9]}))
    interactor.nextitem_index = interactor.torun.get()  # as the worker's loop does before it runs the current item
    queued = _worker_queue(config)
    assert queued is not None and queued() == [4, 5, 9]


def test_an_item_in_progress_when_its_batch_died_gets_the_ending_without_the_earlier_items_results() -> None:
    from conformance._engine.messages import Died
    from conformance._engine.processes import Snapshot
    from conformance._engine.runner import _part

    board = Snapshot(0, False, 0.0, 0.0, 0, "", "", "", "")
    batch = Died("SIGABRT", board, 1.0, parts=({"reports": ["first item's"]}, {"reports": ["second item's"]}))
    third = _part(batch, 2)
    assert isinstance(third, Died) and third.status == "SIGABRT" and third.parts == ()
    assert _part(third, 0) == third  # run again on its own, it is still this item's ending, never the first item's
    assert _part(batch, 3) is None  # after the crash: never ran
