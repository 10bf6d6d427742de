"""The badge: its text and colour follow the results; it is well-formed SVG.

The HTML report: self-contained, every result and finding in it, the frames inline, the frames folder removed.

Frames: valid PNG files of what was drawn, shrunk to a thumbnail, depth frames as gray images.
"""

from __future__ import annotations

import io
import os
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from conformance._engine.artifacts import (
    _image,  # pyright: ignore[reportPrivateUsage]
    badge_text,
    encode_png,
    frames_folder,
    write_badge,
    write_html,
)
from conformance.results import Evidence, Outcome, RuleResult

# --- The badge -----------------------------------------------------------------------------------------------------

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


# --- The HTML report -----------------------------------------------------------------------------------------------

class _Parsed(HTMLParser):
    """The parts of a report the tests read: ids, image sources, external references, text."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.images: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "img":
            self.images.append(str(values.get("src", "")))
        for name in ("src", "href"):
            value = values.get(name) or ""
            if value and not value.startswith(("#", "data:")):
                self.links.append(value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_report(path: Path) -> _Parsed:
    parsed = _Parsed()
    parsed.feed(path.read_text(encoding="utf-8"))
    return parsed


def test_a_report_holds_every_result_and_finding_inline(tmp_path: Path) -> None:
    results = [
        RuleResult("ENV-001", "pkg:Env", "MUST", "passed", seconds=0.2, evidence=Evidence(steps=10, examples=3)),
        RuleResult("ENV-006", "pkg:Env", "MUST", "failed", "ENV-006 (MUST) violated by pkg:Env: obs[1] = 2 > 1 <b>",
               "env = Env()\nenv.reset(seed=3)", "conformance/test_env.py::t[ENV-006-pkg:Env]"),
        RuleResult("SEED-001", "other:Env", "MUST", "skipped", "not applicable"),
    ]
    path = tmp_path / "r.html"
    folder = frames_folder(path, "pkg:Env")
    folder.mkdir(parents=True)
    (folder / "rgb_array-seed0-step0.png").write_bytes(encode_png(np.zeros((4, 5, 3), np.uint8)))
    (folder / "ansi_list.txt").write_text("ValueError: no frames", encoding="utf-8")
    write_html(path, results, {"profile": "quick"})
    parsed = parse_report(path)
    text = "".join(parsed.text)
    assert {"pkg:Env", "other:Env", "pkg:Env--ENV-006"} <= parsed.ids
    assert all(rule in text for rule in ("ENV-001", "ENV-006", "SEED-001"))
    assert "obs[1] = 2 > 1 <b>" in text  # escaped, not markup
    assert "env.reset(seed=3)" in text
    assert len(parsed.images) == 1 and parsed.images[0].startswith("data:image/png;base64,")
    assert "ValueError: no frames" in text
    assert parsed.links == []  # nothing fetched from anywhere
    assert not Path(f"{path}.frames").exists()


def test_a_broken_envs_report_shows_its_failure_and_reproducer(tmp_path: Path) -> None:
    from tests.meta._run import run_inprocess

    target = "tests.meta.broken.env:Env011ArrayReward"
    html = tmp_path / "r.html"
    run = run_inprocess(["--env", target, "--rules", "ENV-011", "--conformance-profile", "quick",
                         "--conformance-html", str(html)], tmp_path / "r.json")
    record = run.result(target, "ENV-011")
    assert record["outcome"] == "failed" and record["reproducer"]
    parsed = parse_report(html)
    text = "".join(parsed.text)
    assert f"{target}--ENV-011" in parsed.ids
    assert record["message"].splitlines()[0] in text
    assert record["reproducer"].splitlines()[-1].strip() in text


# --- Frames -----------------------------------------------------------------------------------------------------------

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _decode(data: bytes) -> np.ndarray[Any, np.dtype[np.uint8]]:
    import pygame

    surface = pygame.image.load(io.BytesIO(data), "frame.png")
    return np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2)).astype(np.uint8)


@given(arrays(np.uint8, st.tuples(st.integers(1, 12), st.integers(1, 12), st.just(3))))
def test_png_round_trip(image: np.ndarray[Any, np.dtype[np.uint8]]) -> None:
    assert np.array_equal(_decode(encode_png(np.ascontiguousarray(image))), image)


def test_large_frames_are_thumbnails_and_depth_is_gray() -> None:
    big = _image(np.zeros((1000, 600, 3), np.uint8), "rgb_array")
    assert big is not None and max(big.shape[:2]) <= 240
    depth = _image(np.array([[0.0, 1.0], [np.nan, 2.0]]), "depth_array")
    assert depth is not None and depth.shape == (2, 2, 3) and depth.dtype == np.uint8
    assert depth[0, 0, 0] == 0 and depth[1, 1, 0] == 255
    assert _image(np.zeros((4, 4), np.float32), "rgb_array") is None  # not an rgb frame: not shown
    assert _image("text", "rgb_array") is None
