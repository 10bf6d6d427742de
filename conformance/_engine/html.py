"""The HTML report (``--conformance-html PATH``): one self-contained file an env author opens in a browser.

Per target: the outcome counts, a chart of each rule's time and steps, the rule table, every failure, warning and
error with its message (expected, actual, what differs) and its reproducer, and a gallery of the frames the target
drew in each declared image mode (:mod:`conformance._engine.gallery`). Everything is inline — styles, charts (SVG)
and frames (PNG data URIs) — so the file needs no network and can be uploaded as a CI artifact.
"""

from __future__ import annotations

import base64
import html
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from conformance._engine.gallery import frames_folder
from conformance._engine.report import replace_file
from conformance.results import OUTCOMES, RuleResult

__all__ = ["render_html", "write_html"]

_COLOURS = {"passed": "#2e7d32", "warned": "#b26a00", "failed": "#c62828", "error": "#6a1b9a",
            "skipped": "#757575", "accepted": "#1565c0"}
_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:2px solid #ddd;padding-bottom:.2em}
table{border-collapse:collapse;width:100%;margin:.5em 0}td,th{border-bottom:1px solid #eee;padding:3px 6px;
text-align:left;vertical-align:top}th{background:#f6f6f6}td:nth-child(-n+3){white-space:nowrap}.num{text-align:right;font-variant-numeric:tabular-nums}
.o{font-weight:600}pre{background:#f7f7f7;padding:.6em;overflow-x:auto;white-space:pre-wrap;font-size:12.5px}
details{margin:.4em 0 1em}summary{cursor:pointer}.gallery{display:flex;flex-wrap:wrap;gap:8px}
figure{margin:0;text-align:center;font-size:12px;color:#555}figure img{display:block;border:1px solid #ccc;
image-rendering:pixelated}.counts span{margin-right:1em}.note{color:#555}
"""
_FINDINGS = ("failed", "error", "warned", "accepted")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _outcome(outcome: str) -> str:
    return f'<span class="o" style="color:{_COLOURS.get(outcome, "#222")}">{_e(outcome)}</span>'


def _counts(items: Sequence[RuleResult]) -> str:
    outcomes = [*OUTCOMES, *sorted({r.outcome for r in items} - set(OUTCOMES))]
    cells = [f"{_outcome(o)} {sum(r.outcome == o for r in items)}" for o in outcomes
             if any(r.outcome == o for r in items)]
    return '<p class="counts">' + "".join(f"<span>{cell}</span>" for cell in cells) + "</p>"


def _chart(items: Sequence[RuleResult]) -> str:
    """Horizontal bars: each rule's seconds and steps (the costliest first), as inline SVG."""
    ranked = sorted((r for r in items if r.seconds > 0 or r.steps > 0), key=lambda r: (-r.seconds, -r.steps))[:30]
    if not ranked:
        return ""
    most_seconds = max(r.seconds for r in ranked) or 1.0
    most_steps = max(r.steps for r in ranked) or 1
    row, width = 16, 260
    bars: list[str] = []
    for index, result in enumerate(ranked):
        y = index * row
        seconds = width * result.seconds / most_seconds
        steps = width * result.steps / most_steps
        bars.append(
            f'<text x="0" y="{y + 12}" font-size="11">{_e(result.rule)}</text>'
            f'<rect x="90" y="{y + 3}" width="{seconds:.1f}" height="10" fill="#5c6bc0"/>'
            f'<text x="{94 + seconds:.1f}" y="{y + 12}" font-size="10">{result.seconds:.2f} s</text>'
            f'<rect x="{width + 170}" y="{y + 3}" width="{steps:.1f}" height="10" fill="#26a69a"/>'
            f'<text x="{width + 174 + steps:.1f}" y="{y + 12}" font-size="10">{result.steps} steps, '
            f"{result.examples} ex.</text>"
        )
    height = row * len(ranked) + 4
    return (f'<details><summary>time and effort per rule (the {len(ranked)} costliest)</summary>'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{2 * width + 300}" height="{height}">'
            + "".join(bars) + "</svg></details>")


def _table(items: Sequence[RuleResult]) -> str:
    rows = ["<tr><th>rule</th><th>level</th><th>outcome</th><th>summary</th><th class=num>examples</th>"
            "<th class=num>steps</th><th class=num>seconds</th></tr>"]
    for result in sorted(items, key=lambda r: r.rule):
        summary = result.message.splitlines()[0] if result.message else ""
        anchor = f'<a href="#{_e(_anchor(result))}">{_e(result.rule)}</a>' if result.outcome in _FINDINGS \
            else _e(result.rule)
        rows.append(f"<tr><td>{anchor}</td><td>{_e(result.level)}</td><td>{_outcome(result.outcome)}</td>"
                    f"<td>{_e(summary[:200])}</td><td class=num>{result.examples}</td>"
                    f"<td class=num>{result.steps}</td><td class=num>{result.seconds:.2f}</td></tr>")
    return (f"<details><summary>all {len(items)} rules</summary><table>" + "".join(rows) + "</table></details>")


def _anchor(result: RuleResult) -> str:
    return f"{result.target}--{result.rule}"


def _findings(items: Sequence[RuleResult]) -> str:
    parts: list[str] = []
    for result in sorted(items, key=lambda r: (_FINDINGS.index(r.outcome) if r.outcome in _FINDINGS else 9, r.rule)):
        if result.outcome not in _FINDINGS:
            continue
        parts.append(f'<h4 id="{_e(_anchor(result))}">{_e(result.rule)} {_outcome(result.outcome)}</h4>'
                     f"<pre>{_e(result.message)}</pre>")
        if result.reproducer:
            parts.append(f"<details open><summary>reproducer</summary><pre>{_e(result.reproducer)}</pre></details>")
        if result.nodeid:
            parts.append(f'<p class="note">re-run alone: <code>pytest --pyargs conformance "{_e(result.nodeid)}"'
                         "</code></p>")
    return "<h3>findings</h3>" + "".join(parts) if parts else ""


def _gallery(folder: Path) -> str:
    if not folder.is_dir():
        return ""
    by_mode: dict[str, list[str]] = {}
    for png in sorted(folder.glob("*.png")):
        mode, _, rest = png.stem.partition("-")
        data = base64.b64encode(png.read_bytes()).decode("ascii")
        caption = rest.replace("-", ", ").replace("seed", "seed ").replace("step", "step ")
        by_mode.setdefault(mode, []).append(
            f'<figure><img alt="{_e(mode)} {_e(caption)}" src="data:image/png;base64,{data}"/>'
            f"<figcaption>{_e(caption)}</figcaption></figure>"
        )
    for note in sorted(folder.glob("*.txt")):
        by_mode.setdefault(note.stem, []).append(
            f'<p class="note">no frames: {_e(note.read_text(encoding="utf-8", errors="replace"))}</p>'
        )
    if not by_mode:
        return ""
    sections = [f"<h4>{_e(mode)}</h4><div class=gallery>{''.join(figures)}</div>" for mode, figures in by_mode.items()]
    return "<h3>frames</h3>" + "".join(sections)


def render_html(results: Sequence[RuleResult], meta: Mapping[str, Any], frames: Mapping[str, Path]) -> str:
    """The report as one HTML document.

    Args:
        results: Every item's record.
        meta: The run's facts (profile, rules filter, ...).
        frames: Target id → the folder of its captured frames (missing targets have none).
    """
    by_target: dict[str, list[RuleResult]] = {}
    for result in results:
        by_target.setdefault(result.target, []).append(result)
    facts = ", ".join(f"{_e(key)} {_e(value)}" for key, value in meta.items() if value not in ("", None, False))
    body = [f"<h1>gymspec conformance report</h1><p class=note>{facts}</p>", _counts(results)]
    body.append("<ul>" + "".join(f'<li><a href="#{_e(t)}">{_e(t)}</a></li>' for t in sorted(by_target)) + "</ul>")
    for target in sorted(by_target):
        items = by_target[target]
        folder = frames.get(target)
        # What needs reading first: the findings, then what the env draws; the full table and costs fold away.
        body += [f'<h2 id="{_e(target)}">{_e(target)}</h2>', _counts(items), _findings(items),
                 _gallery(folder) if folder is not None else "", _table(items), _chart(items)]
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>conformance report</title>"
            f"<style>{_STYLE}</style></head><body>" + "".join(body) + "</body></html>\n")


def write_html(path: str | Path, results: Sequence[RuleResult], meta: Mapping[str, Any]) -> Path:
    """Write :func:`render_html` to ``path`` atomically, with the frames captured for it, then remove them."""
    file = Path(path)
    targets = sorted({result.target for result in results})
    frames = {target: frames_folder(file, target) for target in targets}
    replace_file(file, render_html(results, meta, frames))
    shutil.rmtree(Path(f"{file}.frames"), ignore_errors=True)
    return file
