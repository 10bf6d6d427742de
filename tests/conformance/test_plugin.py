"""The plugin's interface: options and their ini keys, CONFORMANCE_ENV, usage errors, rule selection, -W.

These run the suite in-process (``pytest.main``) on the small correct env of the broken-env library.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from gymspec.rules import RULES
from tests.meta._run import REPO, run_inprocess, run_suite, suite_env

_WALK = "tests.meta.broken._base:Walk"


@pytest.fixture(autouse=True)
def _no_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONFORMANCE_ENV", raising=False)


def test_options_are_registered(capsys: pytest.CaptureFixture[str]) -> None:
    assert pytest.main(["--help", "-p", "no:cacheprovider"]) == pytest.ExitCode.OK
    help_text = capsys.readouterr().out
    for flag in ("--env", "--env-id", "--registry", "--env-kwargs", "--vector-env", "--vector-env-id",
                 "--vectorization-mode", "--func-env", "--conformance-report", "--conformance-profile", "--rules",
                 "--conformance-timeout"):
        assert f"{flag}=" in help_text, flag
    for key in ("conformance_env", "conformance_env_id", "conformance_registry", "conformance_env_kwargs",
                "conformance_report", "conformance_profile", "conformance_rules", "conformance_timeout"):
        assert f"{key} (" in help_text, key


def test_ini_keys_configure_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ini = tmp_path / "pytest.ini"
    ini.write_text(
        "[pytest]\n"
        f"conformance_env = {_WALK}\n"
        "conformance_rules = ENV-00[1-3]\n"
        "conformance_profile = quick\n"
        "conformance_report = report.json\n"
    )
    monkeypatch.chdir(tmp_path)
    args = ["-c", str(ini), "--rootdir", str(tmp_path), "--pyargs", "conformance", "-q", "-p", "no:cacheprovider"]
    code = pytest.main(args)
    assert code == pytest.ExitCode.OK
    report = json.loads((tmp_path / "report.json").read_text())
    assert {(r["target"], r["rule"]) for r in report["results"]} == {
        (_WALK, rule) for rule in ("CONSTRUCT", "ENV-001", "ENV-002", "ENV-003")
    }
    assert report["summary"]["run"]["profile"] == "quick"


def test_environment_variable_names_targets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONFORMANCE_ENV", f"{_WALK} tests.meta.broken._base:wrapped")
    run = run_inprocess(["--rules", "ENV-001"], tmp_path / "r.json")
    assert run.returncode == 0
    assert {r["target"] for r in run.report["results"]} == {_WALK, "tests.meta.broken._base:wrapped"}


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--registry", "nope"], "--registry must be one of"),
        (["--registry", "json"], "--registry must be a module with a callable make, got 'json'"),
        (["--registry", "reference.registration", "--vector-env-id", "X-v0", "--registry", "json"],
         "--registry must be a module with a callable make and make_vec, got 'json'"),
        (["--env-kwargs", "[1]"], "--env-kwargs must be a JSON object"),
        (["--env", "no-colon"], "'pkg.module:attr'"),
        (["--conformance-profile", "fast"], "--conformance-profile must be one of"),
        (["--conformance-timeout", "-1"], "positive number of seconds"),
        (["--conformance-timeout", "inf"], "positive number of seconds"),
        (["--rules", "NOPE-*"], "--rules must select at least one rule, got 'NOPE-*'"),
        (["--rules", "!*"], "--rules must select at least one rule, got '!*'"),
        (["--env", _WALK, "--rules", "VEC-*"], "--rules must select at least one rule that applies to the targets"),
        (["--conformance-report", "/dev/null/x.json"], "--conformance-report must be a path in a writable directory"),
        (["--conformance-report", "/tmp"], "--conformance-report must be a file path, got '/tmp', which is a dir"),
        (["--conformance-memory", "lots"], "--conformance-memory must be a size such as 2GiB"),
        (["--conformance-isolation", "fiber"], "--conformance-isolation must be one of ['auto', 'fork', 'spawn', 'thread']"),
        (["--conformance-jobs", "0"], "--conformance-jobs must be a positive number of processes or 'auto', got '0'"),
        (["--conformance-jobs", "many"], "--conformance-jobs must be a positive number of processes or 'auto'"),
        (["--conformance-shard", "3/2"], "--conformance-shard must be I/N with 1 <= I <= N"),
        (["--env-id", "Nope-*"], "--env-id must match at least one registered id, got 'Nope-*'"),
    ],
)
def test_malformed_options_are_one_line_usage_errors(
    option: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--pyargs", "conformance", "-o", "addopts=", "-p", "no:cacheprovider", "--rootdir", str(REPO)]
    code = pytest.main([*base, *option])
    assert code == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("ERROR:")]
    assert len(errors) == 1 and message in errors[0], errors


def test_a_bad_environment_variable_is_named(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("CONFORMANCE_ENV", "garbage!!")
    base = ["--pyargs", "conformance", "-o", "addopts=", "-p", "no:cacheprovider", "--rootdir", str(REPO)]
    assert pytest.main(base) == pytest.ExitCode.USAGE_ERROR
    assert "the CONFORMANCE_ENV environment variable must be 'pkg.module:attr'" in capsys.readouterr().err


def test_rule_globs_ignore_case(tmp_path: Path) -> None:
    run = run_inprocess(["--env", _WALK, "--rules", "env-00[1-3]"], tmp_path / "r.json")
    assert {record["rule"] for record in run.report["results"]} == {"CONSTRUCT", "ENV-001", "ENV-002", "ENV-003"}


def test_the_report_is_written_whole_and_only_at_the_end(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    report.write_text("previous run\n")
    run_inprocess(["--env", _WALK, "--rules", "ENV-003"], report)
    assert json.loads(report.read_text())["summary"]["total"] == 2
    assert not [path.name for path in tmp_path.iterdir() if path.name != "report.json"]  # no temporary left


def test_rule_ids_are_in_node_ids(tmp_path: Path) -> None:
    run = run_inprocess(["--env", _WALK, "-k", "SEED-", "--conformance-profile", "quick"], tmp_path / "r.json")
    rules = {record["rule"] for record in run.report["results"]}
    assert rules == {rule_id for rule_id in RULES if rule_id.startswith("SEED-")}
    assert all(f"[{r['rule']}-{_WALK}]" in r["nodeid"] for r in run.report["results"])


def test_should_violations_are_filterable_warnings(tmp_path: Path) -> None:
    spec = "tests.meta.broken.render:Render003RefusesAtRender"
    base = ["--env", spec, "--rules", "RENDER-003"]
    warned = run_inprocess(base, tmp_path / "warned.json")
    assert warned.returncode == 0 and warned.result(spec, "RENDER-003")["outcome"] == "warned"
    escalated = run_inprocess([*base, "-W", "error::conformance.ConformanceWarning"], tmp_path / "error.json")
    assert escalated.result(spec, "RENDER-003")["outcome"] == "failed"
    ignored = run_inprocess([*base, "-W", "ignore::conformance.rule_warnings.RENDER003Warning"], tmp_path / "ignored.json")
    assert ignored.returncode == 0


def test_sigterm_is_given_back_after_an_inprocess_run(tmp_path: Path) -> None:
    # A run with a report turns SIGTERM into an interrupt so the report is still written; a process that ran it with
    # pytest.main and goes on (a test session forking workers) must get the default back, or its children would too.
    import signal

    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    run_inprocess(["--env", _WALK, "--rules", "ENV-001"], tmp_path / "r.json")
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_not_checkable_before_the_examples_is_a_skip(tmp_path: Path) -> None:
    # Issue 37 item 2: VEC-007 and AUTORESET-010/011/012 read the facts their strategies are drawn from before any
    # example runs; on a target whose single_observation_space raises, that stop surfaced as a failed MUST item whose
    # message started with the suite's internal "conformance._engine.outcomes.NotCheckable:".
    spec = "tests.meta.broken_vector.vector:Vec001SingleSpaceUnreadable"
    rules = "VEC-001,VEC-007,AUTORESET-010,AUTORESET-011,AUTORESET-012"
    run = run_inprocess(["--vector-env", spec, "--rules", rules, "--conformance-profile", "quick"], tmp_path / "r.json")
    assert run.result(spec, "VEC-001")["outcome"] == "failed"
    for rule in rules.split(",")[1:]:
        record = run.result(spec, rule)
        assert record["outcome"] == "skipped", record["message"]
        assert record["message"].startswith(f"{rule} not checked on {spec}: "), record["message"]
        assert "(reported by VEC-001)" in record["message"], record["message"]


def test_a_run_imports_only_the_suite_modules_its_targets_and_rules_need(tmp_path: Path) -> None:
    script = (
        "import sys, pytest\n"
        "code = pytest.main(sys.argv[1:])\n"
        "print('modules', int(code), *sorted(name for name in sys.modules if name.startswith('conformance.test_')))\n"
    )

    def imported(*args: str) -> list[str]:
        run = subprocess.run(
            [sys.executable, "-c", script, "--pyargs", "conformance", "-q", "-p", "no:cacheprovider", "--collect-only",
             "--env", _WALK, *args], capture_output=True, text=True, cwd=tmp_path, env=suite_env(), timeout=300,
            check=False)
        words = run.stdout.splitlines()[-1].split()
        assert words[:2] == ["modules", "0"], run.stdout
        return [word.removeprefix("conformance.") for word in words[2:]]

    every = imported()
    assert "test_env" in every and "test_target" in every
    assert not {"test_vector", "test_autoreset", "test_functional"} & set(every)  # no vector or functional target
    assert imported("--rules", "SEED-00[1-3]") == ["test_seeding", "test_target"]


def test_not_applicable_items_are_counted_once_and_never_listed(tmp_path: Path) -> None:
    # Issue 39 item 5: under the project's -ra, the reference run ended in 182 "SKIPPED ... not applicable" lines. A
    # rule that is not about the target is counted once in pytest's tally; a skip a person must read (a rule that could
    # not be checked) is still listed, and the report keeps both with their reasons.
    vector = "tests.meta.broken_vector.vector:Vec001SingleSpaceUnreadable"
    run = run_suite(["--env", _WALK, "--vector-env", vector, "--rules", "ENV-022,VEC-001,VEC-007", "-ra",
                     "--conformance-profile", "quick"], tmp_path / "r.json")
    not_applicable = run.result(_WALK, "ENV-022")
    assert not_applicable["outcome"] == "skipped", not_applicable
    assert not_applicable["message"].startswith(f"ENV-022 not applicable to {_WALK}: "), not_applicable
    assert run.result(vector, "VEC-007")["outcome"] == "skipped"
    skips = [line for line in run.output.splitlines() if line.startswith("SKIPPED")]
    assert len(skips) == 1 and "VEC-007 not checked on" in skips[0], run.output[-3000:]
    assert "1 skipped" in run.output and "1 not applicable" in run.output, run.output[-3000:]
    assert run.report["summary"]["pytest"]["not applicable"] == 1 and run.report["summary"]["pytest"]["skipped"] == 1


@pytest.mark.parametrize("isolation", ["auto", "thread"])
def test_what_a_target_prints_goes_to_the_report_not_the_terminal(tmp_path: Path, isolation: str) -> None:
    # Issue 39 item 5: a target that prints on every step (a simulator's progress lines) flooded the terminal with
    # each failing item's captured output. It goes to the item's record, its last lines per phase and stream.
    from tests.meta.broken.chatty import PRINTED

    target = "tests.meta.broken.chatty:PrintsAndBreaksEnv011"
    run = run_suite(["--env", target, "--rules", "ENV-011,SEED-001", "--conformance-profile", "quick",
                     "--conformance-isolation", isolation], tmp_path / "r.json")
    assert run.result(target, "ENV-011")["outcome"] == "failed"
    assert PRINTED not in run.output and "Captured" not in run.output, run.output[-3000:]
    record = run.result(target, "SEED-001")
    assert record["outcome"] == "passed"
    lines = record["output"].splitlines()
    assert lines[0].startswith("stdout (call, the last 20 of "), lines[:2]
    assert all(line.startswith(PRINTED) for line in lines[1:21]), lines
    assert "stderr (call" in record["output"] and "PrintsEachStep: a new episode" in record["output"]
    assert PRINTED in run.result(target, "ENV-011")["output"]
