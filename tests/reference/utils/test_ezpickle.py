"""reference.utils.EzPickle: objects re-created from their constructor arguments."""

from __future__ import annotations

import pickle

from reference.utils import EzPickle


class Handle(EzPickle):
    created = 0

    def __init__(self, name: str, *, size: int = 1) -> None:
        EzPickle.__init__(self, name, size=size)
        Handle.created += 1
        self.name = name
        self.size = size
        self.resource = object()  # unpicklable by value, rebuilt on load


def test_round_trip_rebuilds_through_the_constructor() -> None:
    original = Handle("a", size=3)
    before = Handle.created
    clone = pickle.loads(pickle.dumps(original))
    assert Handle.created == before + 1
    assert (clone.name, clone.size) == ("a", 3) and clone.resource is not original.resource
