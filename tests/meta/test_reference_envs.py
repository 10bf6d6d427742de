"""The suite passes on its embedded default targets.

Those are every env the reference registers, plus the reference's vector envs (Sync and Async in each autoreset
mode, a vector entry point) and functional envs (:mod:`conformance._engine.targets`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.meta._run import has_xdist, run_suite


def _reference_ids() -> list[str]:
    try:
        import reference.envs  # noqa: F401 - registers the ids
        from reference.registration import registry
    except ImportError as exc:
        pytest.skip(f"the reference registry is not available yet: {exc}")
    return [env_id for env_id, spec in registry.items() if getattr(spec, "entry_point", None) is not None]


def test_suite_passes_on_reference_envs(tmp_path: Path) -> None:
    ids = _reference_ids()
    if not ids:
        pytest.skip("the reference registers no env yet")
    html = tmp_path / "report.html"
    args = ["--conformance-profile", "quick", "--conformance-html", str(html)] + (["-n", "2"] if has_xdist() else [])
    run = run_suite(args, tmp_path / "report.json")  # no target: the embedded default, i.e. these ids
    targets = {record["target"] for record in run.report["results"]}
    from conformance._engine.targets import FUNC_TARGETS, VECTOR_TARGETS

    # ... plus the reference's vector envs and functional envs.
    assert targets == {*ids, *(entry[0] for entry in VECTOR_TARGETS), *FUNC_TARGETS}
    problems = [
        f"{record['rule']} [{record['target']}]: {record['message']}"
        for record in run.report["results"]
        if record["outcome"] in ("failed", "error")
    ]
    assert not problems, "\n".join(problems)
    assert run.returncode == 0, run.output[-3000:]
    _check_html(html, run.report["results"], ids)


def _check_html(html: Path, results: list[dict[str, Any]], ids: list[str]) -> None:
    """The HTML report of the run holds every result and, per registered env, frames of each declared image mode."""
    import reference
    from conformance._engine.artifacts import IMAGE_MODES
    from tests.conformance._engine.test_artifacts import parse_report

    assert html.stat().st_size < 5 * 2**20, f"the registry's HTML report is {html.stat().st_size} bytes"
    parsed = parse_report(html)
    assert {record["target"] for record in results} <= parsed.ids
    text = html.read_text(encoding="utf-8")
    sections = {part.split('"', 1)[0]: part for part in text.split('<h2 id="')[1:]}
    for record in results:
        assert f">{record['rule']}<" in sections[record["target"]], (record["target"], record["rule"])
    for env_id in ids:
        env = reference.make(env_id)
        modes = [mode for mode in env.metadata.get("render_modes", []) if mode in IMAGE_MODES]
        env.close()
        for mode in modes:
            assert f'alt="{mode} seed' in sections[env_id], f"no {mode} frames of {env_id} in the HTML report"
