"""Files the run writes for people: the status badge, and the HTML report with the frames the target drew.

**Badge.** A status badge (``--conformance-badge PATH``): a small SVG for a README, written from the run's results.

Green "N rules passed" when nothing failed (warnings and accepted findings counted beside it), red "N failed" when a
MUST rule failed or an item errored. Plain SVG text with no fonts or scripts loaded, so any README host shows it.

**Frames.** Frames for the HTML report: what the target draws in each declared image mode, from a few seeded episodes.

Captured in the target's own supervised process, beside its shared run (so the pytest process never runs target
code), only when ``--conformance-html`` is given; written as PNG files into a folder the report's writer reads and
removes. Capture is best effort and bounded in time: the RENDER rules report what is wrong with the frames; the
gallery only shows them.

**HTML report.** The HTML report (``--conformance-html PATH``): one self-contained file an env author opens in a
browser.

Per target: the outcome counts, a chart of each rule's time and steps, the rule table, every failure, warning and
error with its message (expected, actual, what differs) and its reproducer, and a gallery of the frames the target
drew in each declared image mode (below). Everything is inline — styles, charts (SVG)
and frames (PNG data URIs) — so the file needs no network and can be uploaded as a CI artifact.
"""

from __future__ import annotations

import base64
import html
import re
import shutil
import struct
import time
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from conformance._engine.describe import is_array, is_list, is_list_or_tuple, is_tuple
from conformance._engine.report import replace_file
from conformance.results import OUTCOMES, RuleResult

if TYPE_CHECKING:
    from conformance._engine.case import Case

__all__ = [
    "IMAGE_MODES",
    "badge_text",
    "capture",
    "encode_png",
    "frames_folder",
    "render_badge",
    "render_html",
    "write_badge",
    "write_html",
]


# --- Badge ---------------------------------------------------------------------------------------------------------

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


# --- Frames -----------------------------------------------------------------------------------------------------------

IMAGE_MODES = ("rgb_array", "rgb_array_list", "depth_array", "depth_array_list")
"""Render modes whose frames are images."""

SEEDS = (0, 1, 2)
"""One episode per seed: its first frame and one after :data:`_STEPS` random steps."""

_STEPS = 12
_SECONDS = 4.0  # per mode: a slow renderer shows fewer episodes rather than holding the run
_MAX_SIDE = 240  # pixels: keeps a registry's report to a few MiB
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def frames_folder(html: str | Path, target: str) -> Path:
    """Where the frames of ``target`` go for the report written to ``html``."""
    return Path(f"{html}.frames") / _SAFE.sub("_", target)


def _image(frame: object, mode: str) -> np.ndarray[Any, np.dtype[np.uint8]] | None:
    """The frame as an (H, W, 3) uint8 image, shrunk to at most :data:`_MAX_SIDE` pixels a side (``None``: not an
    image of its mode)."""
    if not is_array(frame) or frame.size == 0:
        return None
    if mode.startswith("depth") and frame.ndim == 2:
        values = np.nan_to_num(frame.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0)
        low, high = float(values.min()), float(values.max())
        scaled = (values - low) / (high - low) if high > low else np.zeros_like(values)
        gray = (scaled * 255).astype(np.uint8)
        image = np.stack([gray, gray, gray], axis=-1)
    elif mode.startswith("rgb") and frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8:
        image = frame.astype(np.uint8, copy=False)
    else:
        return None
    stride = max(1, -(-max(image.shape[:2]) // _MAX_SIDE))
    return np.ascontiguousarray(image[::stride, ::stride])


def encode_png(image: np.ndarray[Any, np.dtype[np.uint8]]) -> bytes:
    """A PNG file of an (H, W, 3) uint8 image (8-bit RGB, no filtering)."""
    height, width = image.shape[:2]
    rows = np.concatenate([np.zeros((height, 1), np.uint8), image.reshape(height, width * 3)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows.tobytes(), 9))
            + chunk(b"IEND", b""))


def _shown(rendered: object, mode: str, vector: bool) -> object:
    """The one image to show of what ``render()`` returned."""
    frame = rendered
    if vector and is_list_or_tuple(rendered) and rendered:
        frame = rendered[0]  # a vector env renders one frame per sub-env: show the first
    if mode.endswith("_list"):  # the frames since the last render call: show the newest
        return frame[-1] if is_list(frame) and frame else None
    return frame


def capture(case: Case, folder: Path) -> int:
    """Render each declared image mode of ``case``'s target over :data:`SEEDS` and write the frames as
    ``<mode>-seed<seed>-step<n>.png`` into ``folder``; a mode whose frames cannot be had gets a ``<mode>.txt``
    saying why. Returns how many frames were written."""
    # Late: the strategies import Hypothesis, and this module is loaded with the reporter in every pytest run.
    from conformance._kit.strategies import sampler

    probe = case.probe()
    modes = [mode for mode in probe.render_modes if mode in IMAGE_MODES]
    if not modes or probe.action_space is None or case.target.kind == "func":
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    written = 0
    for mode in modes:
        begun = time.perf_counter()
        case.new_example()
        try:
            env = case.make(render_mode=mode)
            draw = sampler(probe.action_space)
            for seed in SEEDS:
                if time.perf_counter() - begun > _SECONDS:
                    break
                rng = np.random.default_rng(seed)
                env.reset(seed=seed)
                for step in range(_STEPS + 1):
                    if step in (0, _STEPS):
                        image = _image(_shown(env.render(), mode, case.target.kind == "vector"), mode)
                        if image is not None:
                            (folder / f"{mode}-seed{seed}-step{step}.png").write_bytes(encode_png(image))
                            written += 1
                    if step < _STEPS:
                        result: object = env.step(draw(rng))
                        ended = is_tuple(result) and len(result) == 5 and bool(np.any(result[2]) or np.any(result[3]))
                        if ended:
                            break
        except Exception as exc:  # noqa: BLE001 - the RENDER rules report it; the gallery says why it is empty
            (folder / f"{mode}.txt").write_text(f"{type(exc).__name__}: {exc}"[:500], encoding="utf-8")
        finally:
            case.close_all()
    return written


# --- HTML report ---------------------------------------------------------------------------------------------------

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
    rows = ["<tr><th>rule</th><th>level</th><th>outcome</th><th>summary</th><th>observed</th>"
            "<th class=num>seconds</th></tr>"]
    for result in sorted(items, key=lambda r: r.rule):
        summary = result.message.splitlines()[0] if result.message else ""
        anchor = f'<a href="#{_e(_anchor(result))}">{_e(result.rule)}</a>' if result.outcome in _FINDINGS \
            else _e(result.rule)
        rows.append(f"<tr><td>{anchor}</td><td>{_e(result.level)}</td><td>{_outcome(result.outcome)}</td>"
                    f"<td>{_e(summary[:200])}</td><td>{_e(result.evidence.describe())}</td>"
                    f"<td class=num>{result.seconds:.2f}</td></tr>")
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
