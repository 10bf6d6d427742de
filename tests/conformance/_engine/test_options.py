"""``--rules`` selection: comma-separated globs, ``!GLOB`` excludes; the index of the suite's modules, by the kinds
and rules of their checks."""

from __future__ import annotations

import fnmatch
import importlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import conformance
from conformance._engine.options import SUITE_MODULES, module_needed, rules_match
from gymspec.rules import RULES

_IDS = sorted(RULES)
_GLOBS = st.sampled_from(["*", "SEED-*", "VEC-*", "ENV-00[1-3]", "VEC-002", "AUTORESET-01?", "NOPE-*"])


@pytest.mark.parametrize(
    ("patterns", "rule_id", "selected"),
    [
        ("SEED-*", "SEED-004", True),
        ("SEED-*", "ENV-004", False),
        ("!VEC-002", "VEC-002", False),
        ("!VEC-002", "VEC-003", True),
        ("VEC-*,!VEC-002", "VEC-003", True),
        ("VEC-*,!VEC-002", "VEC-002", False),
        ("VEC-*,!VEC-002", "ENV-001", False),
        (" ! VEC-00[12] , ENV-001", "VEC-001", False),
        (",,", "ENV-001", True),
    ],
)
def test_examples(patterns: str, rule_id: str, selected: bool) -> None:
    assert rules_match(patterns, rule_id) is selected


@settings(max_examples=200, deadline=None)
@given(included=st.lists(_GLOBS, max_size=3), excluded=st.lists(_GLOBS, max_size=3), rule_id=st.sampled_from(_IDS))
def test_selection_is_inclusions_minus_exclusions(included: list[str], excluded: list[str], rule_id: str) -> None:
    patterns = ",".join(included + ["!" + glob for glob in excluded])
    in_any = not included or any(fnmatch.fnmatchcase(rule_id, glob) for glob in included)
    out_any = any(fnmatch.fnmatchcase(rule_id, glob) for glob in excluded)
    assert rules_match(patterns, rule_id) is (in_any and not out_any)


def _markers(module: str) -> list[tuple[str, tuple[str, ...]]]:
    """The (rule id, kinds) of every check a suite module marks."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for value in vars(importlib.import_module(f"conformance.{module}")).values():
        for mark in getattr(value, "pytestmark", []):
            if mark.name == "conformance_rule":
                found.append((str(mark.args[0]), tuple(mark.kwargs.get("kinds", ("env",)))))
    return found


def test_the_module_index_covers_every_check_of_every_suite_module() -> None:
    """A module the index leaves out for a run (the kinds and rules of its checks) must have no item in that run:
    every marked check is in its module's row, kinds and rule id."""
    modules = sorted(path.name for path in Path(conformance.__file__).parent.glob("test_*.py"))
    assert sorted(SUITE_MODULES) == [name for name in modules if _markers(name[:-3])], (
        "every suite module with checks needs a row in conformance._engine.options.SUITE_MODULES")
    for name, (kinds, patterns) in SUITE_MODULES.items():
        for rule_id, rule_kinds in _markers(name[:-3]):
            assert set(rule_kinds) <= kinds, f"{name}: {rule_id} checks kinds {rule_kinds}, the index says {kinds}"
            assert any(fnmatch.fnmatchcase(rule_id, pattern) for pattern in patterns), (
                f"{name}: {rule_id} matches none of the index's globs {patterns}")
            assert module_needed(name, rule_kinds, [rule_id])


def test_a_module_no_target_kind_or_selected_rule_needs_is_left_out() -> None:
    everything = sorted(RULES)
    assert not module_needed("test_vector.py", {"env"}, everything)
    assert module_needed("test_vector.py", {"env", "vector"}, everything)
    assert not module_needed("test_seeding.py", {"env"}, ["ENV-011"])
    assert module_needed("test_seeding.py", {"env"}, ["ENV-031"])
    assert module_needed("test_target.py", set(), [])  # not in the index: the construction check always runs
