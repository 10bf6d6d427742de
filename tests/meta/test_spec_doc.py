"""docs/spec.md lists, under each rule, its check, its evidence floor and its broken targets, and is up to date."""

from __future__ import annotations

import re

import pytest

from gymspec.rules import RULES, Level
from tests.meta import spec_doc
from tests.meta.catalog import Broken
from tests.meta.test_rule_coverage import BROKEN, COVERED_AREAS


def test_docs_spec_md_is_up_to_date() -> None:
    on_disk = (spec_doc.ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert on_disk == spec_doc.render(), f"docs/spec.md is stale: run `{spec_doc.COMMAND}`"


def test_every_checked_rule_names_its_check_and_its_broken_targets() -> None:
    notes = spec_doc.notes()
    levels = (Level.MUST, Level.MUST_NOT, Level.SHOULD, Level.SHOULD_NOT)
    checked = [rule.id for rule in RULES.values() if rule.area in COVERED_AREAS and rule.level in levels]
    assert [rule for rule in checked if [line.split(":", 1)[0] for line in notes.get(rule, [])]
            != ["check", "broken"]] == []


def _defines(path: str, name: str) -> bool:
    source = (spec_doc.ROOT / path).read_text(encoding="utf-8")
    return re.search(rf"^(?:def|class) {re.escape(name)}\b|^{re.escape(name)} = ", source, re.MULTILINE) is not None


def test_every_check_named_is_defined_where_the_doc_says() -> None:
    # The doc is a map: a function it names must be found in the file it names, by its name.
    wrong = {rule: f"{check.path}::{check.function}" for rule, check in spec_doc.checks().items()
             if not _defines(check.path, check.function)}
    assert wrong == {}


@pytest.mark.parametrize("broken", BROKEN, ids=lambda broken: broken.test_id)
def test_every_broken_target_is_defined_where_the_doc_says(broken: Broken) -> None:
    path, name = spec_doc.broken_location(broken)
    assert (spec_doc.ROOT / path).is_file(), path
    assert not name or _defines(path, name), f"{path}::{name}"


def test_the_entry_point_prints_the_doc(capsys: pytest.CaptureFixture[str]) -> None:
    assert spec_doc.main() == 0
    assert capsys.readouterr().out == spec_doc.render()
