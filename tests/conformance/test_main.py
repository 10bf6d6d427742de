"""``python -m conformance``: targets are classified, a one-screen table or the JSON report is printed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conformance.__main__ import _parser, _pytest_args, main
from conformance._engine.options import classify
from tests.meta._run import REPO


def test_targets_are_classified() -> None:
    assert classify("CartPole-v1") == ("--env-id", "CartPole-v1")
    assert classify("tests.meta.broken._base:Walk") == ("--env", "tests.meta.broken._base:Walk")
    assert classify("gymnasium_robotics:FetchReach-v2") == ("--env-id", "gymnasium_robotics:FetchReach-v2")
    assert classify("no_such_module_xyz:Thing") == ("--env-id", "no_such_module_xyz:Thing")


@pytest.fixture
def in_repo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("PYTHONPATH", str(REPO))
    monkeypatch.delenv("CONFORMANCE_ENV", raising=False)


@pytest.mark.usefixtures("in_repo")
def test_table_and_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tests.meta.broken._base:Walk", "tests.meta.broken.env:Env009StepOutside", "--rules", "ENV-009",
                 "--profile", "quick"])
    out = capsys.readouterr().out
    assert code == 1
    assert "target" in out.splitlines()[0] and "passed" in out.splitlines()[0]
    assert "FAILED  ENV-009 [tests.meta.broken.env:Env009StepOutside]" in out
    assert len(out.splitlines()) < 25


@pytest.mark.usefixtures("in_repo")
def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tests.meta.broken._base:Walk", "--rules", "ENV-00[1-3]", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0
    assert report["schema"] == 2 and report["summary"]["failed"] == 0
    assert os.path.basename(report["results"][0]["nodeid"]).startswith("test_")


def test_help_lists_the_target_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    help_text = capsys.readouterr().out
    for flag in ("--env", "--env-id", "--vector-env", "--vector-env-id", "--vectorization-mode", "--func-env",
                 "--registry", "--env-kwargs"):
        assert f"{flag} " in help_text, flag


def test_target_options_are_forwarded_as_given() -> None:
    options = _parser().parse_args(
        ["CartPole-v1", "--vector-env-id", "CartPole-v1", "--vector-env-id", "Pendulum-v1", "--vectorization-mode",
         "async", "--func-env", "a.b:F", "--vector-env", "a.b:V", "--registry", "mypkg.envs", "--env-kwargs", "{}"]
    )
    args = _pytest_args(options, Path("r.json"))
    forwarded = args[args.index("--env-id"):]
    assert forwarded == [
        "--env-id", "CartPole-v1", "--vector-env", "a.b:V", "--vector-env-id", "CartPole-v1", "--vector-env-id",
        "Pendulum-v1", "--vectorization-mode", "async", "--func-env", "a.b:F", "--registry", "mypkg.envs",
        "--env-kwargs", "{}",
    ]
    assert "--registry" not in _pytest_args(_parser().parse_args([]), Path("r.json"))


@pytest.mark.usefixtures("in_repo")
def test_vector_functional_and_registry_module_targets(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--vector-env-id", "CartPole-v1", "--vectorization-mode", "sync", "--func-env",
                 "reference.envs.functional.cartpole:CartPoleFunctional", "--env-id", "CartPole-v1", "--registry",
                 "reference.registration", "--rules", "VEC-001,FUNC-001,REG-001", "--profile", "quick", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0, report
    outcomes = {(r["target"], r["rule"]): r["outcome"] for r in report["results"]}
    assert outcomes == {
        ("reference.registration/CartPole-v1", "CONSTRUCT"): "passed",
        ("reference.registration/CartPole-v1", "REG-001"): "passed",
        ("reference.registration/CartPole-v1/sync", "CONSTRUCT"): "passed",
        ("reference.registration/CartPole-v1/sync", "REG-001"): "passed",
        ("reference.registration/CartPole-v1/sync", "VEC-001"): "passed",
        ("reference.envs.functional.cartpole:CartPoleFunctional", "CONSTRUCT"): "passed",
        ("reference.envs.functional.cartpole:CartPoleFunctional", "FUNC-001"): "passed",
    }


@pytest.mark.usefixtures("in_repo")
def test_unusable_registry_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--env-id", "CartPole-v1", "--registry", "json"])
    assert code == pytest.ExitCode.USAGE_ERROR
    assert "--registry must be a module with a callable make, got 'json'" in capsys.readouterr().err


def test_an_unwritable_report_names_the_front_ends_own_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--report", "/dev/null/r.json", "tests.meta.broken._base:Walk"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "--report must be a path in a writable directory, got '/dev/null/r.json'" in err
    assert "--conformance-report" not in err
