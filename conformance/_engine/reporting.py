"""What the run shows its user: progress lines on the terminal, the status badge, the HTML report, and the reporter that
gathers item records where pytest logs reports.

**Progress.** Progress of long runs on the terminal: per target, items done of its total and the time so far.

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
drew in each declared image mode (the frames above). Everything is inline — styles, charts (SVG)
and frames (PNG data URIs) — so the file needs no network and can be uploaded as a CI artifact.

**The reporter.** What the run reports, gathered where pytest logs reports (pytest-xdist's controller, or the only
process): the
:class:`Reporter` the plugin registers — item records merged phase by phase, the live and final JSON report, the
terminal summary, the targets' own warnings, HTML, badge and baseline — and how a conformance item's node id names its
rule and target (for reports the suite did not make: an xdist worker's crash).

Loaded with the plugin in every pytest session, so it imports nothing heavy at module level: what only a run with
conformance items needs (the session, the report writers) is imported where it is used.
"""

from __future__ import annotations

import base64
import html
import os
import re
import shutil
import signal
import struct
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from conformance._engine.describe import is_array, is_dict, is_list, is_list_or_tuple, is_tuple
from conformance._engine.options import option
from conformance._engine.project import fingerprint, write_baseline
from conformance._engine.report import PROPERTY, TARGET_WARNINGS, LiveReport, record_of, replace_file, write_report
from conformance.results import CONSTRUCT, OUTCOMES, Report, RuleResult, rule_level

if TYPE_CHECKING:
    from conformance._engine.case import Case
    from conformance._engine.project import Baseline, Entry
    from conformance._engine.runner import ItemRunner

__all__ = [
    "BASELINE_KEY",
    "IMAGE_MODES",
    "Progress",
    "RUNNER_KEY",
    "Reporter",
    "badge_text",
    "capture",
    "encode_png",
    "frames_folder",
    "orphan_record",
    "render_badge",
    "render_html",
    "rule_and_target",
    "target_group",
    "write_badge",
    "write_html",
]


# --- Progress ------------------------------------------------------------------------------------------------------

class Progress:
    """Per target, items done of total and the time since its first item, on the terminal of long runs.

    Args:
        config: The run's config (verbosity, the terminal reporter).
        target_of: The target id of a conformance item's node id (``None`` for other items).
        clock: Seconds, monotonic.

    A line is written when a target finishes and, while one runs, at most every :attr:`EVERY` seconds; nothing in
    the first few seconds (short runs stay as pytest prints them) and nothing under ``-q``.
    """

    EVERY = 10.0
    QUIET_FOR = 5.0

    def __init__(
        self, config: pytest.Config, target_of: Callable[[str], str | None], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.config = config
        self.target_of = target_of
        self.clock = clock
        self.totals: dict[str, int] = {}
        self.done: dict[str, set[str]] = {}
        self.started: dict[str, float] = {}
        self.announced: set[str] = set()
        self.began = clock()
        self.last = self.began

    def expect(self, nodeids: Iterable[str]) -> None:
        """Count each target's items (once: every xdist worker reports the same collection)."""
        if self.totals:
            return
        for nodeid in nodeids:
            target = self.target_of(nodeid)
            if target is not None:
                self.totals[target] = self.totals.get(target, 0) + 1

    def reported(self, report: pytest.TestReport, record: RuleResult) -> None:
        """Note an item's report; write a line when its target finished or the last line is old enough."""
        target = record.target
        now = self.clock()
        self.started.setdefault(target, now)
        done = self.done.setdefault(target, set())
        done.add(report.nodeid)
        total = self.totals.get(target)
        if self.config.get_verbosity() < 0 or total is None or now - self.began < self.QUIET_FOR:
            return
        finished = len(done) >= total
        if finished:
            if target in self.announced:  # the item's later phases
                return
            self.announced.add(target)
        elif now - self.last < self.EVERY or now - self.started[target] < self.QUIET_FOR:
            return
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is None:
            return
        self.last = now
        state = "done" if finished else "running"
        reporter.write_line(f"conformance: {target} {len(done)}/{total} items {state}, {now - self.started[target]:.1f} s")


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


# --- The reporter --------------------------------------------------------------------------------------------------

BASELINE_KEY = pytest.StashKey["Baseline | None"]()
"""The run's baseline (``--conformance-baseline``), read at configure time."""
RUNNER_KEY = pytest.StashKey["ItemRunner | None"]()
"""The run's item runner, made with the first conformance item."""

# A conformance item's node id: conformance/test_<area>.py::test_<name>[<rule id>-<target id>] (or [<target id>]).
# Its file is one of the suite's, relative to the rootdir: the package's own directory under `--pyargs conformance`,
# a directory above it otherwise. An "@group" suffix is pytest-xdist's, under --dist loadgroup.
_SUITE_FILES = "|".join(sorted(re.escape(path.stem) for path in Path(__file__).parents[1].glob("test_*.py")))
_NODEID = re.compile(rf"(?:^|(?:^|/)conformance/)(?:{_SUITE_FILES})\.py::test_\w+\[(?P<param>.*)\](?:@[^\]]*)?$")
_PARAM = re.compile(r"^(?P<rule>[A-Z]+-\d{3})-(?P<target>.+)$")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # terminal colours some packages put in their warnings


def rule_and_target(nodeid: str) -> tuple[str, str] | None:
    """The rule id (``CONSTRUCT`` for a target's construction item) and target id of a conformance item's node id;
    ``None`` for any other item's."""
    match = _NODEID.search(nodeid)
    if match is None:
        return None
    param = match["param"]
    found = _PARAM.match(param)
    return (found["rule"], found["target"]) if found else (CONSTRUCT, param)


def target_group(nodeid: str) -> str | None:
    """The target id of a conformance item's node id (``None`` for any other item): its xdist group."""
    parsed = rule_and_target(nodeid)
    return None if parsed is None else parsed[1]


def orphan_record(report: pytest.TestReport, reason: str) -> RuleResult | None:
    """A record for a conformance item's report the suite did not make (an xdist worker crash), from its node id."""
    parsed = rule_and_target(report.nodeid)
    if parsed is None:
        return None
    rule, target = parsed
    return RuleResult(rule, target, rule_level(rule), "error", reason, nodeid=report.nodeid)


class Reporter:
    """Collects the records where reports are logged (the xdist controller, or the only process).

    Args:
        config: The run's config.
    """

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: dict[str, RuleResult] = {}
        self.running: dict[str, tuple[str, int | None, str]] = {}
        self.interrupted = False
        self.internal_error = ""
        self.progress = Progress(config, target_group)
        self.fixed: list[Entry] = []
        # The targets' own warnings: (target, category, message, where) -> the number of items that raised it.
        self.target_warnings: dict[tuple[str, str, str, str], int] = {}
        self.signal = ""
        self.sigterm_caught = False
        self.exitstatus: int | pytest.ExitCode | None = None
        self.started = time.monotonic()
        self.live: Any = None  # the report on disk while the run goes on (LiveReport), where one is asked for
        path = option(config, "report")
        if path and not self._worker():
            self.live = LiveReport(path)
            self._catch_sigterm()

    def _catch_sigterm(self) -> None:
        """Make SIGTERM (a CI job's cancel, ``timeout``) stop the run as Ctrl-C does, so the report and the summary
        are still written; a handler the user installed stays."""
        if threading.current_thread() is not threading.main_thread():
            return
        if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
            return

        def stop(signum: int, frame: object) -> None:
            del signum, frame
            self.signal = "SIGTERM"
            raise KeyboardInterrupt("SIGTERM")

        signal.signal(signal.SIGTERM, stop)
        self.sigterm_caught = True

    def _meta(self) -> dict[str, Any]:
        return {
            "profile": option(self.config, "profile") or "default",
            "rules": option(self.config, "rules") or "*",
            "registry": option(self.config, "registry") or "reference",
            "python": sys.version.split()[0],
            "interrupted": self.interrupted,
            "signal": self.signal,
            "internal_error": self.internal_error,
        }

    def _merge(self, result: RuleResult) -> None:
        previous = self.records.get(result.nodeid)
        merged = result if previous is None else previous.merge(result)
        self.records[result.nodeid] = merged
        if self.live is not None:
            self.live.update(merged, self._meta())

    def pytest_runtest_logstart(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        self.running[nodeid] = location

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        self.running.pop(nodeid, None)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Merge the phases of each item into one record (the most severe outcome wins); a finding the baseline
        accepts becomes ``accepted`` here, before pytest's own reporters count it (as xfailed)."""
        record = record_of(report)
        if record is None and report.failed:
            record = orphan_record(report, str(report.longrepr))
        if record is not None:
            baseline = self.config.stash.get(BASELINE_KEY, None)
            if baseline is not None:
                record = baseline.accept(report, record)
            self._merge(record)
            self.progress.reported(report, record)
        self._gather_warnings(report)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.progress.expect(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """(pytest-xdist, on the controller) Every worker collects the same items: count them once."""
        del node
        self.progress.expect(ids)

    def _gather_warnings(self, report: pytest.TestReport) -> None:
        parsed = rule_and_target(report.nodeid)
        for name, value in getattr(report, "user_properties", ()):
            if name != TARGET_WARNINGS or parsed is None or not is_list(value):
                continue
            seen: set[tuple[str, str, str, str]] = set()
            for warning in value:
                if not is_dict(warning):
                    continue
                key = (
                    parsed[1],
                    f"{warning.get('module')}.{warning.get('name')}",
                    str(warning.get("message", "")),
                    f"{warning.get('filename')}:{warning.get('lineno')}",
                )
                if key not in seen:  # counted once per item, however often the item raised it
                    seen.add(key)
                    self.target_warnings[key] = self.target_warnings.get(key, 0) + 1

    def pytest_keyboard_interrupt(self) -> None:
        self.interrupted = True
        self._unfinished("interrupted (Ctrl-C) before it finished")

    def pytest_internalerror(self, excrepr: Any) -> None:
        self.internal_error = str(excrepr).splitlines()[-1] if str(excrepr) else "internal error"
        self._unfinished(f"pytest stopped with an internal error before it finished: {self.internal_error}")

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed and "conformance" in report.nodeid:
            reason = str(report.longrepr).strip().splitlines()[-1]
            self._merge(RuleResult("COLLECT", "-", rule_level("COLLECT"), "error", reason, nodeid=report.nodeid))

    def _unfinished(self, reason: str) -> None:
        """Log an error report for every conformance item that started and never reported, so pytest counts it."""
        for nodeid, location in list(self.running.items()):
            if nodeid in self.records:
                continue
            report = pytest.TestReport(nodeid, location, {}, "failed", reason, "setup")
            record = orphan_record(report, reason)
            if record is None:
                continue
            properties: list[tuple[str, object]] = [(PROPERTY, record.to_dict())]
            report.user_properties = properties
            self.config.hook.pytest_runtest_logreport(report=report)
        self.running.clear()

    def _worker(self) -> bool:
        return hasattr(self.config, "workerinput")

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Print the target × area table (only when conformance items ran)."""
        results = list(self.records.values())
        if not results or self._worker():
            return
        report = Report(tuple(results))
        profile = option(self.config, "profile") or "default"
        terminalreporter.write_sep("=", f"conformance summary (profile {profile})")
        for line in report.table():
            terminalreporter.write_line(line)
        effort = report.effort()
        if effort:
            terminalreporter.write_line("effort (steps and examples by rule area; costly targets get fewer):")
            for line in effort:
                terminalreporter.write_line(f"  {line}")
        failing = sorted({f"{r.rule} [{r.target}]" for r in results if r.outcome in ("failed", "error")})
        if failing:
            terminalreporter.write_line("violated MUST rules or errors: " + ", ".join(failing), red=True)
        warned = sorted({f"{r.rule} [{r.target}]" for r in results if r.outcome == "warned"})
        if warned:
            terminalreporter.write_line("SHOULD warnings: " + ", ".join(warned), yellow=True)
        for target, note in report.isolation.items():
            terminalreporter.write_line(f"isolation: {note} ({target})")
        for target, count in report.not_checked.items():
            terminalreporter.write_line(
                f"NOT CHECKED: {target} — {count} item{'s' if count != 1 else ''} could not be checked (errors above "
                "name the cause and the remedy); the target has not passed", red=True)
        if self.interrupted:
            why = f" by {self.signal}" if self.signal else ""
            terminalreporter.write_line(f"the run was interrupted{why}: items that did not run are not in the table")
        self._summarize_warnings(terminalreporter)
        self._baseline_summary(terminalreporter, results)
        for name, what in (("report", "conformance report"), ("html", "HTML report"), ("badge", "badge")):
            path = option(self.config, name)
            if path:
                terminalreporter.write_line(f"{what}: {path}")

    def _baseline_summary(self, terminalreporter: Any, results: list[RuleResult]) -> None:
        baseline: Baseline | None = self.config.stash.get(BASELINE_KEY, None)
        if baseline is None:
            return
        accepted = sum(r.outcome == "accepted" for r in results)
        new = sum(r.outcome in ("failed", "warned", "error") for r in results)
        terminalreporter.write_line(
            f"baseline {baseline.path}: {accepted} accepted, {new} new, {len(self.fixed)} fixed", bold=True
        )
        strict = bool(option(self.config, "strict_baseline"))
        for entry in self.fixed:
            terminalreporter.write_line(
                f"  fixed: {entry.rule} [{entry.target}] {entry.fingerprint} no longer occurs: remove it from the "
                f"baseline{' (--conformance-baseline-strict fails the run until then)' if strict else ''}",
                red=strict, green=not strict,
            )

    def _summarize_warnings(self, terminalreporter: Any) -> None:
        """The warnings the targets raised themselves, once per target and warning, with the number of items."""
        if not self.target_warnings:
            return
        terminalreporter.write_line("warnings the targets raised (once each, with the number of items that raised it):")
        for (target, category, message, where), count in sorted(self.target_warnings.items()):
            text = " ".join(_ANSI.sub("", message).split())
            if len(text) > 200:
                text = text[:197] + "..."
            terminalreporter.write_line(f"  [{target}] {category} ({count} item{'' if count == 1 else 's'}) at {where}: {text}")

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self, config: pytest.Config) -> None:
        """Give SIGTERM back its default (a process that runs pytest.main and goes on, e.g. a test session, must not
        keep a handler that turns its children's termination into KeyboardInterrupt); under thread isolation, end
        the process at once when a worker thread is still stuck in a call of the target: interpreter shutdown would
        finalize modules under it (one such run crashed at exit)."""
        if self.sigterm_caught:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            self.sigterm_caught = False
        watchdog = sys.modules.get("conformance._engine.watchdog")
        if self.exitstatus is None or self._worker() or watchdog is None or not watchdog.stuck_threads():
            return
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os._exit(int(self.exitstatus))

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int | pytest.ExitCode) -> None:
        """Stop the supervised processes; write the JSON report (not on xdist workers)."""
        self.exitstatus = exitstatus
        runner = self.config.stash.get(RUNNER_KEY, None)
        if runner is not None:
            runner.supervisor.close()
        # Late: the reporter is loaded in every pytest run, and the session's module brings the target machinery.
        from conformance._engine.session import existing_session

        conformance = existing_session(self.config)
        if conformance is not None:
            conformance.close()
        self._unfinished("the run ended before it finished")
        if self._worker() or (conformance is None and not self.records):
            return
        self._outputs(session)
        path = option(self.config, "report")
        if not path:
            return
        report = Report(tuple(self.records.values()), time.monotonic() - self.started,
                        {**self._meta(), "incomplete": False})
        try:
            write_report(path, report)
        except OSError as exc:
            reporter = self.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_line(f"conformance report not written to {path}: {exc}", red=True)

    def _outputs(self, session: pytest.Session) -> None:
        """The HTML report, the badge and a written baseline; a strict baseline with fixed entries fails the run."""
        results = list(self.records.values())
        baseline: Baseline | None = self.config.stash.get(BASELINE_KEY, None)
        if baseline is not None:
            found = [(r.target, r.rule, fingerprint(r.rule, r.target, r.message)) for r in results
                     if r.outcome in ("failed", "warned", "error", "accepted")]
            self.fixed = baseline.fixed([(r.target, r.rule) for r in results if r.outcome != "skipped"], found)
        writers: list[tuple[str, Callable[[], object]]] = []
        html, badge, written = option(self.config, "html"), option(self.config, "badge"), option(self.config,
                                                                                                  "write_baseline")
        if html:
            meta = {"profile": option(self.config, "profile") or "default", "rules": option(self.config, "rules")}
            writers.append((html, lambda: write_html(html, results, meta)))
        if badge:
            writers.append((badge, lambda: write_badge(badge, results)))
        if written:
            writers.append((written, lambda: write_baseline(written, results, baseline)))
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        for path, write in writers:
            try:
                write()
            except OSError as exc:
                if reporter is not None:
                    reporter.write_line(f"conformance: {path} not written: {exc}", red=True)
        if self.fixed and option(self.config, "strict_baseline") and session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
