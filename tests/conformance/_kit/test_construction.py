"""ConstructionWatch: what the innermost env exposed when its constructor returned, against what it exposes later."""

from __future__ import annotations

from typing import Any

from conformance._kit.construction import ConstructionWatch
from reference.spaces import Box, Discrete
from tests.meta.broken._base import Walk, WalkWrapper


class _Inherits(Walk):
    """No ``__init__`` of its own: the watch must put the inherited one back by deleting its own."""


def test_unchanged_construction_has_no_changes() -> None:
    watch = ConstructionWatch(Walk)
    try:
        env = WalkWrapper(Walk())
    finally:
        watch.close()
    assert watch.seen(env.unwrapped)
    assert watch.changes(env.unwrapped) is None
    assert "__init__" in vars(Walk) and Walk.__init__.__name__ == "__init__"


def test_a_replaced_space_is_named() -> None:
    watch = ConstructionWatch(Walk)
    try:
        inner = Walk()
        inner.observation_space = Box(0.0, 1.0, (2,))
    finally:
        watch.close()
    found = watch.changes(inner)
    assert found is not None and found.startswith("observation_space was replaced"), found


def test_metadata_modified_in_place_is_named() -> None:
    class Own(Walk):
        def __init__(self, render_mode: str | None = None) -> None:
            super().__init__(render_mode)
            self.metadata: dict[Any, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}

    watch = ConstructionWatch(Own)
    try:
        inner = Own()
    finally:
        watch.close()
    inner.metadata["render_fps"] = 60
    found = watch.changes(inner)
    assert found is not None and found.startswith("metadata was modified in place"), found


def test_only_exact_instances_are_watched_and_the_class_is_restored() -> None:
    watch = ConstructionWatch(_Inherits)
    try:
        plain, inheriting = Walk(), _Inherits()
    finally:
        watch.close()
    assert not watch.seen(plain) and watch.seen(inheriting)
    assert "__init__" not in vars(_Inherits)
    inheriting.action_space = Discrete(7)
    assert watch.changes(inheriting) is not None
