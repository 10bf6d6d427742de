"""The owner table (:data:`conformance._engine.verdicts.OWNERS`) agrees with the rules' own markers: the rule that reports
an exception in a call owns that call in its ``@rule(..., owns=...)`` marker, for that kind of target."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator

import pytest

import conformance
from conformance._engine.verdicts import OWNERS, REPORTED_BY, owner_of, reported_by
from conformance.results import CONSTRUCT


def _markers() -> Iterator[pytest.Mark]:
    for module in pkgutil.iter_modules(conformance.__path__):
        if not module.name.startswith("test_"):
            continue
        suite = importlib.import_module(f"conformance.{module.name}")
        for name in dir(suite):
            function = getattr(suite, name)
            if name.startswith("test_") and callable(function):
                yield from (mark for mark in getattr(function, "pytestmark", ()) if mark.name == "conformance_rule")


def _owned() -> dict[str, set[tuple[str, str]]]:
    """Rule id → the (target kind, call kind) pairs its marker owns."""
    owned: dict[str, set[tuple[str, str]]] = {}
    for mark in _markers():
        kinds, owns = mark.kwargs.get("kinds", ("env",)), mark.kwargs.get("owns", ())
        owned.setdefault(str(mark.args[0]), set()).update((kind, call) for kind in kinds for call in owns)
    return owned


_TABLE = [(kind, call, rule) for kind, calls in OWNERS.items() for call, rule in calls.items() if rule != CONSTRUCT]


@pytest.mark.parametrize(("kind", "call", "rule"), _TABLE, ids=[f"{k}-{c}-{r}" for k, c, r in _TABLE])
def test_every_owner_owns_its_call_in_its_marker(kind: str, call: str, rule: str) -> None:
    owned = _owned()
    assert rule in owned, f"OWNERS names {rule} for {kind} {call}, but no suite test is marked with {rule}"
    assert (kind, call) in owned[rule], (
        f"OWNERS names {rule} as the reporter of an exception in {call} on a {kind} target, but its marker does not "
        f"own it: add owns=({call!r},) and {kind!r} to its kinds, or change the table"
    )


def test_the_table_covers_every_kind_of_target() -> None:
    kinds = {kind for mark in _markers() for kind in mark.kwargs.get("kinds", ("env",))}
    assert kinds <= set(OWNERS), f"targets of kinds {sorted(kinds - set(OWNERS))} have no owner table"
    assert all(OWNERS[kind].get("construct") == CONSTRUCT for kind in OWNERS)


def test_a_close_in_a_render_mode_names_both_reporters() -> None:
    # ENV-020 closes instances made without a render mode, RENDER-015 closes them after rendering: a close that
    # raises on an instance made with a mode is reported by either, and the skip's reporter reads back as both.
    assert owner_of("env", "close") == "ENV-020"
    owner = owner_of("env", "close", "rgb_array")
    assert owner == "ENV-020 or RENDER-015"
    assert "close" in next(iter(mark.kwargs.get("owns", ()) for mark in _markers() if mark.args[0] == "RENDER-015"))
    found = REPORTED_BY.search(reported_by("other.close() raised RuntimeError", owner))
    assert found is not None and found["rules"] == owner
    assert owner_of("env", "step", "rgb_array") == "ENV-016"
