"""Reproducers are scripts that fail while the defect exists and pass once it is fixed.

A sample of broken envs is checked on its own rule; each failure's reproducer is written to a file and run as a
script in a fresh interpreter: it must exit non-zero with an ``AssertionError`` (not some other error), every time
(the global generators are pinned). The same script with the broken class replaced by the correct env it was
derived from (``Walk``) must exit 0: the assertion is about the defect, not about the script.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.meta._run import REPO, SuiteRun, run_suite, suite_env

_SAMPLE = {
    "ENV-006": "tests.meta.broken.env:Env006ResetOutside",
    "ENV-009": "tests.meta.broken.env:Env009StepOutside",
    "SEED-001": "tests.meta.broken.seeding:Seed001PerInstance",
    "SEED-002": "tests.meta.broken.seeding:Seed002EpisodeCounter",
    "SEED-003": "tests.meta.broken.seeding:Seed003EntropyOnUnseededReset",
    "SEED-005": "tests.meta.broken.seeding:Seed005PreviousSeedLeaks",
    "SEED-010": "tests.meta.broken.seeding:Seed010CoupledToActionSpace",
    "RENDER-014": "tests.meta.broken.render:Render014RenderDrawsRandomness",
}
_IMPORT = re.compile(r"^from (tests\.meta\.broken\.\w+) import (\w+)$", re.M)


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> SuiteRun:
    args = ["--conformance-profile", "quick", "--rules", ",".join(_SAMPLE)]
    for spec in dict.fromkeys(_SAMPLE.values()):
        args += ["--env", spec]
    return run_suite(args, tmp_path_factory.mktemp("reproducers") / "report.json")


def _run(script: str, path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(script, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], cwd=REPO, env=suite_env(), capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("rule", sorted(_SAMPLE))
def test_reproducer_fails_on_the_broken_env_and_passes_on_the_correct_one(
    suite: SuiteRun, rule: str, tmp_path: Path
) -> None:
    record = suite.result(_SAMPLE[rule], rule)
    assert record["outcome"] == "failed", record["message"]
    script = record["reproducer"]
    assert script.rstrip().splitlines()[-1].startswith("assert "), script
    for attempt in range(2):  # pinned generators: the same verdict every run
        broken = _run(script, tmp_path / f"broken_{attempt}.py")
        assert broken.returncode != 0, script
        assert "AssertionError" in broken.stderr and f"{rule}:" in broken.stderr, broken.stderr[-2000:]
    fixed = _IMPORT.sub(r"from tests.meta.broken._base import Walk as \2", script)
    assert fixed != script
    correct = _run(fixed, tmp_path / "correct.py")
    assert correct.returncode == 0, correct.stderr[-2000:] + "\n" + fixed
