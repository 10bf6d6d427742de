"""``--rules`` selection: comma-separated globs, ``!GLOB`` excludes."""

from __future__ import annotations

import fnmatch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance._engine.options import rules_match
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
