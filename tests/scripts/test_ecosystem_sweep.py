"""``scripts/ecosystem_sweep.py``: the target list it reads, the rows it makes of reports, and a run it caps.

The runs use a fake interpreter (a shell script standing in for ``<venv>/bin/python``) that writes a report or
never returns, so no test runs the suite or waits on the clock beyond a cap of one second.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest

from scripts import ecosystem_sweep as sweep

_TOML = """
[defaults]
venv = "/opt/shared"
env = { SDL_VIDEODRIVER = "dummy", MUJOCO_GL = "egl" }

[[targets]]
name = "CartPole-v1"
args = ["--env-id", "CartPole-v1"]

[[targets]]
name = "gymnax-vector"
venv = "gymnax"
env = { MUJOCO_GL = "osmesa" }
args = ["--vector-env", "tests.ecosystem.jax_targets:gymnax_cartpole_vector"]
"""


def _record(rule: str, outcome: str, steps: int, **extra: Any) -> dict[str, Any]:
    return {"rule": rule, "target": "t", "level": "MUST", "outcome": outcome, "steps": steps, **extra}


def _report(*records: dict[str, Any], isolation: str = "") -> dict[str, Any]:
    return {"schema": 1, "results": list(records),
            "summary": {"isolation": {"t": isolation} if isolation else {}, "run": {"incomplete": False},
                        "seconds": 1.5}}


def _run(name: str = "t") -> sweep.Run:
    return sweep.Run(name, "/py", [], "04a1979 /repo", "2026-01-01T00:00:00", 2.0, "1", "/r.json", "/r.log")


def test_load_targets_merges_defaults_and_resolves_named_venvs(tmp_path: Path) -> None:
    path = tmp_path / "targets.toml"
    path.write_text(_TOML)
    shared, gymnax = sweep.load_targets(path, venvs=Path("/venvs"))
    assert shared.python == Path("/opt/shared/bin/python")
    assert gymnax.python == Path("/venvs/gymnax/bin/python")
    assert gymnax.env == {"SDL_VIDEODRIVER": "dummy", "MUJOCO_GL": "osmesa"}
    assert shared.args == ("--env-id", "CartPole-v1")


def test_load_targets_reads_json_too(tmp_path: Path) -> None:
    path = tmp_path / "targets.json"
    path.write_text(json.dumps({"targets": [{"name": "a", "venv": "/v", "args": ["--env", "m:f"]}]}))
    (target,) = sweep.load_targets(path, venvs=Path("/venvs"))
    assert (target.name, target.python, target.env) == ("a", Path("/v/bin/python"), {})


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('[[targets]]\nname = "a"\nargs = ["x"]\n[[targets]]\nname = "a"\nargs = ["y"]\n', "unique"),
        ('[[targets]]\nname = "a"\nargs = "--env-id X"\n', "list of strings"),
        ('[[targets]]\nname = "a"\nargs = []\nenv = { A = 1 }\n', "map names to strings"),
        ('[defaults]\nvenv = "/v"\n', "non-empty"),
    ],
)
def test_load_targets_rejects_malformed_lists(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "targets.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        sweep.load_targets(path, venvs=Path("/venvs"))


def test_steps_of_prefers_the_evidence_mapping() -> None:
    assert sweep.steps_of(_record("ENV-011", "passed", 7)) == 7
    assert sweep.steps_of(_record("ENV-011", "passed", 7, evidence={"steps": 0, "resets": 3})) == 0
    assert sweep.steps_of(_record("ENV-011", "passed", 0, evidence={"steps": 40})) == 40
    assert sweep.steps_of(_record("ENV-011", "passed", 5, evidence={"resets": 1})) == 5


def test_rollout_rules_are_those_that_stepped_somewhere_or_declare_a_floor() -> None:
    stepped = _report(_record("ENV-011", "passed", 12), _record("SPACE-001", "passed", 0))
    floored = _report(_record("SEED-004", "passed", 0, evidence={"steps": 0, "floor": {"steps": 30}}))
    assert sweep.rollout_rules([stepped, floored, None], known=["VEC-014"]) == {"ENV-011", "SEED-004", "VEC-014"}


def test_make_row_counts_outcomes_and_finds_evidence_gaps() -> None:
    report = _report(
        _record("ENV-011", "passed", 0),  # a rollout rule passed on no step: a gap
        _record("ENV-012", "passed", 30),
        _record("SPACE-001", "passed", 0),  # not a rollout rule: no gap
        _record("ENV-013", "failed", 0),  # failed on no step: a failure, not a gap
        _record("VEC-014", "warned", 0),
        _record("SEED-004", "error", 0),
        _record("RENDER-001", "skipped", 0),
        isolation="spawn — 15 threads besides the main one (JAX/XLA)",
    )
    row = sweep.make_row(_run(), report, rollout={"ENV-011", "ENV-012", "ENV-013"})
    assert row.counts == {"passed": 3, "failed": 1, "warned": 1, "skipped": 1, "error": 1, "accepted": 0}
    assert (row.failed, row.warned, row.errors, row.gaps) == (["ENV-013"], ["VEC-014"], ["SEED-004"], ["ENV-011"])
    assert row.isolation == "spawn — 15 threads besides the main one (JAX/XLA)"
    assert row.report and row.complete


def test_effort_adds_steps_and_examples_by_area() -> None:
    report = _report(_record("ENV-011", "passed", 4, examples=2), _record("ENV-012", "failed", 0, examples=1,
                                                                           evidence={"steps": 6}),
                     _record("VEC-014", "passed", 0, examples=15))
    row = sweep.make_row(_run(), report, rollout=set())
    assert row.effort == {"ENV": (10, 3), "VEC": (0, 15)}
    assert sweep.effort_lines([row]).splitlines()[-1] == "- t: ENV 10/3, VEC 0/15"


def test_a_row_without_a_report_says_so() -> None:
    row = sweep.make_row(_run(), None, rollout=set())
    line = sweep.table([row]).splitlines()[-1]
    assert "(no report)" in line
    assert row.isolation == "?"


def test_a_forked_targets_row_reads_fork() -> None:
    row = sweep.make_row(_run(), _report(_record("ENV-011", "passed", 3)), rollout={"ENV-011"})
    assert row.isolation == "fork"
    assert sweep.table([row]).splitlines()[-1].endswith("| 0 | fork |")


def _fake_python(tmp_path: Path, body: str) -> sweep.Target:
    """A venv whose ``bin/python`` is a shell script: ``-c`` prints a directory, anything else runs ``body``."""
    python = tmp_path / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nif [ "$1" = "-c" ]; then echo {tmp_path}; exit 0; fi\n{body}\n')
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    return sweep.Target("fake", python, ("--env-id", "X"), {"FAKE_VAR": "1"})


def test_run_target_passes_the_report_path_and_records_the_exit_code(tmp_path: Path) -> None:
    # The fake writes a report to the path after --conformance-report, with its working directory and environment.
    body = ('while [ "$1" != "--conformance-report" ]; do shift; done\n'
            'printf \'{"schema": 1, "results": [], "summary": {"cwd": "%s", "var": "%s"}}\' "$PWD" "$FAKE_VAR" > "$2"\n'
            "exit 3")
    target = _fake_python(tmp_path, body)
    run = sweep.run_target(target, tmp_path / "out", Path("/repo"), cap=600.0, extra=["--conformance-profile", "quick"])
    assert run.exit == "3"
    report = sweep.read_report(Path(run.report))
    assert report is not None
    assert report["summary"]["var"] == "1"
    assert report["summary"]["cwd"] != str(Path.cwd())  # an empty temporary directory, not the caller's
    assert run.command[run.command.index("--conformance-profile") + 1] == "quick"
    assert run.commit == "?"  # the fake's directory is not a git checkout


def test_run_target_stops_a_run_at_its_cap(tmp_path: Path) -> None:
    target = _fake_python(tmp_path, "exec sleep 600")
    run = sweep.run_target(target, tmp_path / "out", Path("/repo"), cap=1.0, extra=[])
    assert run.exit == "cap"
    assert sweep.read_report(Path(run.report)) is None


def test_a_missing_interpreter_is_a_row_not_a_crash(tmp_path: Path) -> None:
    target = sweep.Target("gone", tmp_path / "nowhere" / "bin" / "python", ())
    run = sweep.run_target(target, tmp_path / "out", Path("/repo"), cap=1.0, extra=[])
    assert run.exit == "no venv"
    assert "does not exist" in Path(run.log).read_text()


def test_main_accumulates_runs_and_renders_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    (out / "reports").mkdir(parents=True)
    report = out / "reports" / "t.json"
    report.write_text(json.dumps(_report(_record("ENV-011", "passed", 0))))
    run = sweep.Run("t", "/py", [], "abc /repo", "now", 2.0, "0", str(report), "/log")
    sweep.save_runs(out, [run])
    rules = tmp_path / "rollout.txt"
    rules.write_text("# comment\nENV-011\n")
    targets = tmp_path / "targets.toml"
    targets.write_text(_TOML)
    assert sweep.main(["--targets", str(targets), "--out", str(out), "--table", "--rollout-rules", str(rules)]) == 0
    printed = capsys.readouterr().out
    assert "| t | abc | 2 | 0 | 1/0/0/0/0 | - | - | - | 1: ENV-011 | fork |" in printed
    assert "- t: ENV 0/0" in printed
    assert (out / "table.md").read_text().strip() == printed.strip()
