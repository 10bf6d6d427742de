"""Reproducers are scripts that fail while the defect exists and pass once it is fixed.

A sample of broken targets across the rule families (ENV, SEED, RENDER, WRAP, VEC) is checked on its own rule; each
failure's reproducer is written to a file and run as a script in a fresh interpreter: it must exit non-zero with an
``AssertionError`` naming the rule (not some other error), every time (the global generators are pinned). The same
script with the broken target replaced by the correct one it was derived from (``Walk``, the ``wrapped`` Walk, or
the reference ``SyncVectorEnv`` of ``Hop``) must exit 0: the assertion is about the defect, not about the script.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gymspec.rules import RULES
from tests.meta._run import REPO, SuiteRun, run_suite, suite_env

_BROKEN = "tests.meta.broken"
_VECTOR = "tests.meta.broken_vector"
# The correct target each broken one was derived from: (module, name) imported in its place.
_WALK = (f"{_BROKEN}._base", "Walk")
_WRAPPED = (f"{_BROKEN}._base", "wrapped")
_HOP_SYNC = (f"{_VECTOR}._base", "HopSync")

_ENVS: dict[str, tuple[str, tuple[str, str]]] = {
    "ENV-006": (f"{_BROKEN}.env:Env006ResetOutside", _WALK),
    "ENV-009": (f"{_BROKEN}.env:Env009StepOutside", _WALK),
    "SEED-001": (f"{_BROKEN}.seeding:Seed001PerInstance", _WALK),
    "SEED-002": (f"{_BROKEN}.seeding:Seed002EpisodeCounter", _WALK),
    "SEED-003": (f"{_BROKEN}.seeding:Seed003EntropyOnUnseededReset", _WALK),
    "SEED-005": (f"{_BROKEN}.seeding:Seed005PreviousSeedLeaks", _WALK),
    "SEED-010": (f"{_BROKEN}.seeding:Seed010CoupledToActionSpace", _WALK),
    "WRAP-001": (f"{_BROKEN}.wrapper:wrap_001_space_not_updated", _WRAPPED),
    "WRAP-003": (f"{_BROKEN}.wrapper:wrap_003_mutates_inner_space", _WRAPPED),
    "WRAP-004": (f"{_BROKEN}.wrapper:wrap_004_render_mode_hidden", _WRAPPED),
    "WRAP-005": (f"{_BROKEN}.wrapper:wrap_005_env_chain_decoy", _WRAPPED),
    "WRAP-006": (f"{_BROKEN}.wrapper:wrap_006_unwrapped_is_wrapper", _WRAPPED),
    "WRAP-008": (f"{_BROKEN}.wrapper:wrap_008_own_generator", _WRAPPED),
}
_VECTORS: dict[str, tuple[str, tuple[str, str]]] = {
    "VEC-008": (f"{_VECTOR}.vector:Vec008NoisyRewards", _HOP_SYNC),
    "VEC-009": (f"{_VECTOR}.vector:Vec009ResetKeepsAutoresetFlags", _HOP_SYNC),
}
_SAMPLE = {**_ENVS, **_VECTORS}
_IMPORT = re.compile(r"^from (tests\.meta\.broken(?:_vector)?\.\w+) import (\w+)$", re.M)


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> SuiteRun:
    args = ["--conformance-profile", "quick", "--rules", ",".join(_SAMPLE)]
    for spec, _ in dict.fromkeys(_ENVS.values()):
        args += ["--env", spec]
    for spec, _ in dict.fromkeys(_VECTORS.values()):
        args += ["--vector-env", spec]
    return run_suite(args, tmp_path_factory.mktemp("reproducers") / "report.json")


def _run(script: str, path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(script, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], cwd=REPO, env=suite_env(), capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("rule", sorted(_SAMPLE))
def test_reproducer_fails_on_the_broken_env_and_passes_on_the_correct_one(
    suite: SuiteRun, rule: str, tmp_path: Path
) -> None:
    target, (module, correct) = _SAMPLE[rule]
    record = suite.result(target, rule)
    assert record["outcome"] == ("failed" if RULES[rule].level.is_mandatory else "warned"), record["message"]
    script = record["reproducer"]
    assert script.rstrip().splitlines()[-1].startswith("assert "), script
    for attempt in range(2):  # pinned generators: the same verdict every run
        broken = _run(script, tmp_path / f"broken_{attempt}.py")
        assert broken.returncode != 0, script
        assert "AssertionError" in broken.stderr and f"{rule}:" in broken.stderr, broken.stderr[-2000:]
    fixed = _IMPORT.sub(rf"from {module} import {correct} as \2", script)
    assert fixed != script
    ok = _run(fixed, tmp_path / "correct.py")
    assert ok.returncode == 0, ok.stderr[-2000:] + "\n" + fixed
