"""A status badge (``--conformance-badge PATH``): a small SVG for a README, written from the run's results.

Green "N rules passed" when nothing failed (warnings and accepted findings counted beside it), red "N failed" when a
MUST rule failed or an item errored. Plain SVG text with no fonts or scripts loaded, so any README host shows it.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from conformance._engine.report import replace_file
from conformance.results import RuleResult

__all__ = ["badge_text", "render_badge", "write_badge"]

_GREEN, _YELLOW, _RED, _GREY = "#2e7d32", "#b26a00", "#c62828", "#757575"
_CHAR = 6.6  # px per character of 11px Verdana-like text: a badge need not be exact, only wide enough


def badge_text(results: Sequence[RuleResult]) -> tuple[str, str]:
    """The right-hand text and its colour for these results."""
    failed = sum(r.outcome in ("failed", "error") for r in results)
    if failed:
        return f"{failed} failed", _RED
    checked = [r for r in results if r.outcome != "skipped"]
    if not checked:
        return "not checked", _GREY
    extras = [f"{count} {name}" for name, count in (
        ("warned", sum(r.outcome == "warned" for r in results)),
        ("accepted", sum(r.outcome == "accepted" for r in results)),
    ) if count]
    text = f"{sum(r.outcome == 'passed' for r in results)} passed" + (f", {', '.join(extras)}" if extras else "")
    return text, _YELLOW if extras else _GREEN


def render_badge(results: Sequence[RuleResult], label: str = "conformance") -> str:
    """The badge as SVG text."""
    value, colour = badge_text(results)
    left = int(len(label) * _CHAR) + 12
    right = int(len(value) * _CHAR) + 12
    width = left + right
    label_text, value_text = html.escape(label), html.escape(value)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" '
        f'aria-label="{label_text}: {value_text}"><title>{label_text}: {value_text}</title>'
        f'<rect width="{left}" height="20" fill="#555"/><rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
        '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">'
        f'<text x="{left / 2:.1f}" y="14">{label_text}</text><text x="{left + right / 2:.1f}" y="14">{value_text}'
        "</text></g></svg>\n"
    )


def write_badge(path: str | Path, results: Sequence[RuleResult]) -> Path:
    """Write :func:`render_badge` to ``path`` (atomically)."""
    return replace_file(Path(path), render_badge(results))
