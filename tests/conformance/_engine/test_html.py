"""The HTML report: self-contained, every result and finding in it, the frames inline, the frames folder removed."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import numpy as np

from conformance._engine.gallery import encode_png, frames_folder
from conformance._engine.html import write_html
from conformance.results import RuleResult


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
        RuleResult("ENV-001", "pkg:Env", "MUST", "passed", seconds=0.2, steps=10, examples=3),
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
