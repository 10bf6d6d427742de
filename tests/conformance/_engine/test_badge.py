"""The badge: its text and colour follow the results; it is well-formed SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from conformance._engine.badge import badge_text, write_badge
from conformance.results import Outcome, RuleResult


def _results(*outcomes: Outcome) -> list[RuleResult]:
    return [RuleResult(f"ENV-{i:03d}", "t", "MUST", outcome) for i, outcome in enumerate(outcomes)]


@pytest.mark.parametrize(
    ("outcomes", "text"),
    [
        (("passed", "passed", "skipped"), "2 passed"),
        (("passed", "warned", "accepted"), "1 passed, 1 warned, 1 accepted"),
        (("passed", "failed", "error"), "2 failed"),
        (("skipped",), "not checked"),
    ],
)
def test_text_follows_the_results(outcomes: tuple[Outcome, ...], text: str) -> None:
    assert badge_text(_results(*outcomes))[0] == text


def test_written_badge_is_svg(tmp_path: Path) -> None:
    path = write_badge(tmp_path / "b.svg", _results("passed", "failed"))
    root = ElementTree.fromstring(path.read_text(encoding="utf-8"))
    assert root.tag.endswith("svg")
    assert "1 failed" in "".join(root.itertext())
