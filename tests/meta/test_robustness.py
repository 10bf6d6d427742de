"""The suite survives its targets: hangs become failed rules, broken constructors one clear error, and neither
the suite's imports nor its runs change global state."""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.meta._run import REPO, SuiteRun, has_xdist, run_inprocess, run_suite

_PACKAGE = "tests.meta.broken"
_WALK = f"{_PACKAGE}._base:Walk"


_HANGING = [f"{_PACKAGE}.robustness:{name}" for name in ("SleepsOnStep", "SpinsOnStep", "SleepsInConstructor")]
_RAISING = f"{_PACKAGE}.robustness:RaisesInConstructor"


@pytest.fixture(scope="module")
def attacked(tmp_path_factory: pytest.TempPathFactory) -> tuple[SuiteRun, float]:
    """One run over targets that hang (in C, in a Python loop, in the constructor) or fail to construct."""
    args = [arg for spec in (*_HANGING, _RAISING, _WALK) for arg in ("--env", spec)]
    args += ["--conformance-timeout", "0.5", "--rules", "ENV-00[89],ENV-01*,SEED-00[12]"]
    started = time.monotonic()
    run = run_suite(args, tmp_path_factory.mktemp("attacked") / "report.json", timeout=120)
    return run, time.monotonic() - started


@pytest.mark.parametrize("spec", _HANGING[:2], ids=["sleeps", "spins"])
def test_hanging_step_fails_its_items_fast(attacked: tuple[SuiteRun, float], spec: str) -> None:
    run, elapsed = attacked
    outcomes = run.outcomes(spec)
    messages = [r["message"] for r in run.report["results"] if r["target"] == spec and r["outcome"] == "failed"]
    assert sum("the target hung: env.step did not return within 0.5 s" in message for message in messages) == 1
    assert any("hung earlier" in message for message in messages), messages
    assert set(outcomes.values()) <= {"failed", "passed"}
    assert elapsed < 60, f"the suite took {elapsed:.0f} s: hung items did not fail fast"


def test_other_targets_survive_a_hang(attacked: tuple[SuiteRun, float]) -> None:
    run, _ = attacked
    # Checked by fresh worker threads after the hangs, the correct env is unaffected.
    assert set(run.outcomes(_WALK).values()) == {"passed"}


def test_hanging_constructor_is_one_failure(attacked: tuple[SuiteRun, float]) -> None:
    run, _ = attacked
    construct = run.result(_HANGING[2], "CONSTRUCT")
    assert construct["outcome"] == "failed"
    assert "did not return within 0.5 s" in construct["message"]


def test_raising_constructor_is_one_clear_error(attacked: tuple[SuiteRun, float]) -> None:
    run, _ = attacked
    outcomes = run.outcomes(_RAISING)
    assert outcomes.pop("CONSTRUCT") == "failed"
    assert set(outcomes.values()) == {"skipped"}
    assert "RuntimeError: RaisesInConstructor cannot be built" in run.result(_RAISING, "CONSTRUCT")["message"]
    skipped = run.result(_RAISING, "ENV-009")["message"]
    assert "could not be constructed" in skipped and "test_target_constructs" in skipped


def test_suite_run_leaves_global_generators_alone() -> None:
    random.seed(1234)
    np.random.seed(1234)
    before = (random.getstate(), np.random.get_state())
    args = ["--pyargs", "conformance", "-p", "no:cacheprovider", "-o", "addopts=", "-q", "--tb=no",
            "--env", f"{_PACKAGE}.seeding:Seed008AdvancesGlobal",
            "--env", f"{_PACKAGE}.space:space_008_global_generator",
            "--conformance-profile", "quick", "--rules", "SEED-00[18],SPACE-00[478],ENV-009"]
    code = pytest.main(args)
    after = (random.getstate(), np.random.get_state())
    assert code == pytest.ExitCode.TESTS_FAILED  # the two envs do touch the global generators
    assert before[0] == after[0]
    assert all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(before[1], after[1]))


def test_imports_have_no_side_effects() -> None:
    script = """
import random, numpy as np, hypothesis
random.seed(5); np.random.seed(5)
state = (random.getstate(), np.random.get_state()[1].copy())
profile = hypothesis.settings._current_profile
import conformance, conformance.plugin, conformance._engine.case, conformance._kit.strategies, conformance._engine.profiles
import conformance.test_env, conformance.test_space, conformance.test_seeding, conformance.test_render
import conformance.test_wrapper, conformance._engine.report, conformance.__main__
assert random.getstate() == state[0]
assert (np.random.get_state()[1] == state[1]).all()
assert hypothesis.settings._current_profile == profile
assert hypothesis.settings().max_examples == hypothesis.settings.default.max_examples
print("clean")
"""
    completed = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=False)
    assert completed.stdout.strip() == "clean", completed.stderr


def _plain_run(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    # Without conformance options nothing of the suite beyond the plugin may be imported; with one (here
    # --conformance-report) the options are validated, which needs the target parser but still no target.
    watched = "('reference', 'gymnasium')" if options else "('reference', 'gymnasium', 'conformance._engine.targets')"
    (tmp_path / "test_plain.py").write_text(
        "import sys\n\n"
        "def test_plain():\n"
        f"    loaded = [m for m in {watched} if m in sys.modules]\n"
        "    assert not loaded, loaded\n"
    )
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *options, str(tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )


def test_plugin_is_inert_outside_the_suite(tmp_path: Path) -> None:
    completed = _plain_run(tmp_path)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "conformance" not in completed.stdout


def test_plugin_writes_no_report_without_conformance_items(tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    completed = _plain_run(tmp_path, "-p", "no:hypothesispytest", "--conformance-report", str(report))
    assert "1 passed" in completed.stdout, completed.stdout + completed.stderr
    assert "conformance summary" not in completed.stdout
    assert not report.exists()


def _records(run: SuiteRun) -> set[tuple[str, str, str]]:
    return {(r["target"], r["rule"], r["outcome"]) for r in run.report["results"]}


@pytest.mark.skipif(not has_xdist(), reason="pytest-xdist is not installed")
def test_report_aggregates_across_xdist_workers(tmp_path: Path) -> None:
    args = ["--env", _WALK, "--env", f"{_PACKAGE}.env:Env009StepOutside", "--rules", "ENV-00*",
            "--conformance-profile", "quick"]
    single = run_inprocess(args, tmp_path / "single.json")
    parallel = run_suite([*args, "-n", "2"], tmp_path / "parallel.json")
    assert _records(single) == _records(parallel)
    assert parallel.report["summary"]["failed"] == 1
    assert "conformance summary" in parallel.output
