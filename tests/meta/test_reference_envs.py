"""The suite passes on its embedded default targets.

Those are every env the reference registers, plus the reference's vector envs (Sync and Async in each autoreset
mode, a vector entry point) and functional envs (:mod:`conformance._engine.targets`).

Running every rule on all of them is ``-m slow`` here: CI runs it anyway, as README's first command
(``pytest --pyargs conformance``, the embedded defaults at the default profile, after the test command), so in the
regular run it would only repeat that at the quick profile, for about three minutes. The regular run keeps what only
this module checks: that no target means exactly these targets, and that the HTML report of a run on reference envs
holds every result and their frames.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.meta._run import has_xdist, run_suite

# One classic-control env (pygame frames) and one toy-text env (frames and ansi) for the report in the regular run.
_HTML_IDS = ("CartPole-v1", "FrozenLake-v1")


def _reference_ids() -> list[str]:
    try:
        import reference.envs  # noqa: F401 - registers the ids
        from reference.registration import registry
    except ImportError as exc:
        pytest.skip(f"the reference registry is not available yet: {exc}")
    return [env_id for env_id, spec in registry.items() if getattr(spec, "entry_point", None) is not None]


def _default_ids(ids: list[str]) -> set[str]:
    """The target ids of the embedded default: ``ids``, plus the reference's vector envs and functional envs."""
    from conformance._engine.targets import FUNC_TARGETS, VECTOR_TARGETS

    return {*ids, *(entry[0] for entry in VECTOR_TARGETS), *FUNC_TARGETS}


def test_no_target_means_every_reference_env() -> None:
    from conformance._engine.targets import TargetsRequest, resolve_targets

    ids = _reference_ids()
    if not ids:
        pytest.skip("the reference registers no env yet")
    targets = resolve_targets(TargetsRequest())
    assert {target.id for target in targets} == _default_ids(ids)
    assert all(target.unavailable is None for target in targets), [t.unavailable for t in targets]


def test_report_of_reference_envs_holds_their_results_and_frames(tmp_path: Path) -> None:
    ids = [env_id for env_id in _reference_ids() if env_id in _HTML_IDS]
    if not ids:
        pytest.skip(f"the reference registers none of {_HTML_IDS}")
    html = tmp_path / "report.html"
    args = ["--conformance-profile", "quick", "--conformance-html", str(html), "--rules", "ENV-00[1-4]"]
    run = run_suite([*args, *(arg for env_id in ids for arg in ("--env-id", env_id))], tmp_path / "report.json")
    assert run.returncode == 0, run.output[-3000:]
    names = {record["target"]: record["target"].rpartition("/")[2] for record in run.report["results"]}
    assert set(names.values()) == set(ids), names
    _check_html(html, run.report["results"], names)
    assert 'alt="rgb_array seed' in html.read_text(encoding="utf-8"), "no frames at all: the check proved nothing"


@pytest.mark.slow
def test_suite_passes_on_reference_envs(tmp_path: Path) -> None:
    ids = _reference_ids()
    if not ids:
        pytest.skip("the reference registers no env yet")
    html = tmp_path / "report.html"
    args = ["--conformance-profile", "quick", "--conformance-html", str(html)] + (["-n", "2"] if has_xdist() else [])
    run = run_suite(args, tmp_path / "report.json")  # no target: the embedded default, i.e. these ids
    targets = {record["target"] for record in run.report["results"]}
    assert targets == _default_ids(ids)
    problems = [
        f"{record['rule']} [{record['target']}]: {record['message']}"
        for record in run.report["results"]
        if record["outcome"] in ("failed", "error")
    ]
    assert not problems, "\n".join(problems)
    assert run.returncode == 0, run.output[-3000:]
    _check_html(html, run.report["results"], {env_id: env_id for env_id in ids})


def _check_html(html: Path, results: list[dict[str, Any]], envs: dict[str, str]) -> None:
    """The HTML report of the run holds every result and, per registered env (target id → env id), frames of each
    declared image mode."""
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
    for target, env_id in envs.items():
        env = reference.make(env_id)
        modes = [mode for mode in env.metadata.get("render_modes", []) if mode in IMAGE_MODES]
        env.close()
        for mode in modes:
            assert f'alt="{mode} seed' in sections[target], f"no {mode} frames of {env_id} in the HTML report"
