"""The rule catalog: grammar, uniqueness, coverage of the areas, and the generated docs/spec.md."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gymspec import rules as rules_module
from gymspec.rules import AREAS, RULES, Level, Rule, RuleSyntaxError, parse_rules, render_markdown, rules_in_area

ROOT = Path(__file__).resolve().parents[2]


def test_ids_are_well_formed_and_ordered() -> None:
    assert list(RULES) == [rule.id for rule in RULES.values()]
    for rule_id, rule in RULES.items():
        area, number = rule_id.split("-")
        assert area == rule.area and area in AREAS
        assert number == f"{rule.number:03d}"
    keys = [(AREAS.index(r.area), r.number) for r in RULES.values()]
    assert keys == sorted(keys)


# Rule ids are handed out in blocks to work done in parallel (one block per branch, e.g. ENV-021 to one and
# ENV-022..ENV-029 to another), so one branch, or the merge of several, may hold a block only partly used: a gap of
# up to one block is legitimate. A longer gap is a typo (ENV-210 for ENV-021) or a renumbering.
_LONGEST_GAP = 10


def test_every_area_has_rules_and_numbers_are_nearly_dense() -> None:
    for area in AREAS:
        numbers = sorted(rule.number for rule in rules_in_area(area))
        assert numbers, f"area {area} has no rules"
        # Numbers are never reused (a retired rule stays as WITHDRAWN) and start at 1.
        assert numbers[0] == 1, f"{area} numbers start at {numbers[0]}"
        gaps = [(a, b) for a, b in zip(numbers, numbers[1:]) if b - a > _LONGEST_GAP]
        assert not gaps, f"{area} numbers jump by more than one block of ids: {gaps}"


# A rule line as a writer types it in any gymspec docstring, read without the catalog's parser.
_TAGGED_RULE = re.compile(r"^\s*\[([A-Z]+-\d{3})\] (?:MUST|SHOULD|MAY|WITHDRAWN)\b", re.M)


def test_catalog_holds_every_rule_written_in_gymspec_once() -> None:
    # No size cap (new rules must not fail the build): instead every tagged line anywhere in gymspec's sources
    # reaches the catalog, e.g. a rule written in a module the parser does not read, and no id is written twice.
    written: dict[str, list[str]] = {}
    for path in sorted((ROOT / "gymspec").rglob("*.py")):
        for rule_id in _TAGGED_RULE.findall(path.read_text()):
            written.setdefault(rule_id, []).append(path.relative_to(ROOT).as_posix())
    repeated = {rule_id: paths for rule_id, paths in written.items() if len(paths) > 1}
    assert repeated == {}, f"rule ids written more than once: {repeated}"
    assert sorted(written) == sorted(RULES), (
        f"written but not in the catalog: {sorted(set(written) - set(RULES))}; "
        f"in the catalog but not found as written: {sorted(set(RULES) - set(written))}"
    )
    # Ids are withdrawn, never deleted, so the catalog never shrinks below its size when this check was written.
    assert len(RULES) >= 126, f"the catalog shrank to {len(RULES)} rules; mark a retired rule WITHDRAWN instead"


def test_owners_are_protocol_members() -> None:
    for rule in RULES.values():
        module_name, _, qualname = rule.owner.partition(".")[2].partition(".")
        module = sys.modules[f"gymspec.{module_name}"]
        obj: object = module
        for part in qualname.split("."):
            obj = getattr(obj, part)
        assert f"[{rule.id}]" in (getattr(obj, "__doc__", "") or "")


def test_rule_text_is_one_normalised_sentence() -> None:
    for rule in RULES.values():
        assert "  " not in rule.text, rule.id
        assert rule.text.endswith("."), f"{rule.id} text must end with a full stop"
        assert not rule.text.startswith(("MUST", "SHOULD", "MAY")), rule.id


def test_rules_in_area_rejects_unknown_area() -> None:
    with pytest.raises(ValueError, match="rules_in_area area must be one of"):
        rules_in_area("NOPE")


def test_level_classification() -> None:
    assert Level.MUST.is_mandatory and Level.MUST_NOT.is_mandatory
    assert Level.SHOULD.is_recommended and Level.SHOULD_NOT.is_recommended
    assert not Level.MAY.is_mandatory and not Level.WITHDRAWN.is_recommended


def test_str_of_rule_round_trips_the_line() -> None:
    rule = RULES["ENV-008"]
    assert str(rule) == f"[ENV-008] MUST {rule.text}"


def _module_with_doc(doc: str) -> ModuleType:
    module = ModuleType("gymspec_rule_probe")

    class Probe:
        pass

    Probe.__doc__ = doc
    Probe.__module__ = module.__name__
    module.Probe = Probe  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    return module


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[ENV-1] MUST do it.", "3-digit"),
        ("[NOPE-001] MUST do it.", "AREA-NNN"),
        ("[ENV-001] MUSTN'T do it.", "level must be one of"),
        ("[ENV-001] MUST", "text must not be empty"),
        ("not a rule line", "must start with"),
    ],
)
def test_malformed_rule_lines_are_rejected(line: str, message: str) -> None:
    _module_with_doc(f"Probe.\n\nRules:\n    {line}\n")
    with pytest.raises(RuleSyntaxError, match=message):
        parse_rules(("gymspec_rule_probe",))


def test_duplicate_ids_are_rejected() -> None:
    _module_with_doc("Probe.\n\nRules:\n    [ENV-001] MUST a.\n    [ENV-001] MUST b.\n")
    with pytest.raises(RuleSyntaxError, match="unique"):
        parse_rules(("gymspec_rule_probe",))


@given(
    level=st.sampled_from(list(Level)),
    area=st.sampled_from(AREAS),
    number=st.integers(1, 999),
    words=st.lists(st.sampled_from(["return", "a", "tuple", "NOT", "MUST", "x"]), min_size=1, max_size=6),
    wrap=st.integers(1, 6),
)
def test_any_well_formed_rule_parses_back(level: Level, area: str, number: int, words: list[str], wrap: int) -> None:
    # "MUST NOT x" is read as the level MUST NOT: a text cannot start with "NOT" (the grammar's only ambiguity).
    assume(words[0] != "NOT")
    text = " ".join(words) + "."
    head, tail = words[:wrap], words[wrap:]
    lines = f"    [{area}-{number:03d}] {level.value} {' '.join(head)}"
    lines += ("\n        " + " ".join(tail) + ".") if tail else "."
    _module_with_doc(f"Probe.\n\nRules:\n{lines}\n\nReturns:\n    nothing\n")
    parsed = parse_rules(("gymspec_rule_probe",))
    rule_id = f"{area}-{number:03d}"
    assert parsed == {rule_id: Rule(rule_id, area, number, level, text, "gymspec_rule_probe.Probe")}


def test_notes_are_listed_under_their_rule_and_the_command_in_the_header() -> None:
    # docs/spec.md is this rendering with the suite's notes (tests/meta/test_spec_doc.py holds it up to date).
    text = render_markdown(notes={"ENV-001": ["first", "second"]}, command="make spec")
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if line.startswith("- **ENV-001** "))
    assert lines[rule + 1:rule + 4] == ["  - first", "  - second", lines[rule + 3]]
    assert lines[rule + 3].startswith("- **ENV-002** ")
    assert "<!-- Generated by `make spec`; do not edit by hand. -->" in lines
    assert render_markdown().count("\n  - ") == 0


def test_module_entry_point_prints_the_catalog() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "gymspec.rules"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout == render_markdown()
    assert result.stderr == ""
    assert rules_module.main.__doc__
