"""Reproducers are scripts that fail while the defect exists and pass once it is fixed.

A sample of broken targets across the rule families (ENV, SEED, SPACE, RENDER, WRAP, VEC, AUTORESET, REG, FUNC), at
least one per rule whose reproducer ends in an assertion the check writes specially (a construction that must raise,
copies taken when a call returned, the autoreset model's prediction written out, a row's own results), is checked on
its own rule, in one suite run; each failure's reproducer is written to a file and run as a script in a fresh
interpreter: it must exit non-zero with an ``AssertionError`` naming the rule (not some other error). A target that
reads the global generators or entropy (``repeat``) runs twice: the script pins the global generators, so its verdict
is the same every run. The same script with the broken target replaced by the correct one it was derived from
(``Walk``, the ``wrapped`` Walk, ``Control``, the reference ``SyncVectorEnv`` of ``Hop`` in the target's autoreset
mode, ``Slide``, ``Lanes``, ``Drift``, the reference registry) must exit 0: the assertion is about the defect, not
about the script.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from gymspec.rules import RULES
from tests.meta._run import REPO, SuiteRun, run_suite, suite_env

_BROKEN = "tests.meta.broken"
_VECTOR = "tests.meta.broken_vector"
_FUNC = "tests.meta.broken_func"
_REGISTRY = "tests.meta.broken_registry"


@dataclass(frozen=True)
class _Sample:
    """One broken target checked on one rule.

    Attributes:
        rule: The rule it breaks.
        option: How the suite is given it (``--env``, ``--vector-env``, ``--func-env``, ``--env-id``).
        target: Its spec.
        correct: The correct target it derives from, ``(module, name)``, imported in its place; for a registry, the
            correct registry module that replaces the broken one.
        repeat: Whether the target reads the global generators or entropy (its script runs twice on it).
    """

    rule: str
    option: str
    target: str
    correct: tuple[str, str]
    repeat: bool = False

    @property
    def test_id(self) -> str:
        return f"{self.rule}-{self.target.rpartition(':')[2]}"

    @property
    def target_id(self) -> str:
        """The target's id in the report (an id is named with its registry)."""
        return f"{_BROKEN_REGISTRY}/{self.target}" if self.option == "--env-id" else self.target


def _env(rule: str, target: str, correct: tuple[str, str]) -> _Sample:
    return _Sample(rule, "--env", f"{_BROKEN}.{target}", correct, repeat=rule.startswith("SEED-"))


def _vec(rule: str, target: str, correct: tuple[str, str]) -> _Sample:
    return _Sample(rule, "--vector-env", f"{_VECTOR}.{target}", correct)


_WALK = (f"{_BROKEN}._base", "Walk")
_WRAPPED = (f"{_BROKEN}._base", "wrapped")
_CONTROL = (f"{_BROKEN}._shapes", "Control")
_HOP = (f"{_BROKEN}._shapes", "Hop")
_HOP_SYNC = (f"{_VECTOR}._base", "HopSync")
_SYNC_SAME = (f"{_VECTOR}.correct", "sync_same_step")
_SYNC_DISABLED = (f"{_VECTOR}.correct", "sync_disabled")
_SLIDE = (f"{_VECTOR}.direct", "Slide")
_LANES = (f"{_VECTOR}.copies", "Lanes")
_DRIFT = (f"{_FUNC}._base", "Drift")
_FUNC_TARGETS = f"{_FUNC}.func"
# A registry breaking several REG rules at once (one run has one --registry), and the id it makes: importing the
# id's module registers it, in the suite's process and in the script's.
_BROKEN_REGISTRY = f"{_REGISTRY}.reproducers"
_ID = f"{_REGISTRY}.hop:conformance_meta/Hop-v0"
_CORRECT_REGISTRY = (f"{_REGISTRY}._base", "")

_SAMPLES: tuple[_Sample, ...] = (
    _env("ENV-006", "env:Env006ResetOutside", _WALK),
    _env("ENV-009", "env:Env009StepOutside", _WALK),
    _env("SEED-001", "seeding:Seed001PerInstance", _WALK),
    _env("SEED-002", "seeding:Seed002EpisodeCounter", _WALK),
    _env("SEED-003", "seeding:Seed003EntropyOnUnseededReset", _WALK),
    _env("SEED-004", "seeding:Seed004DerivedFromSeedOnUnseededReset", _WALK),
    _env("SEED-005", "seeding:Seed005PreviousSeedLeaks", _WALK),
    _env("SEED-006", "seeding:Seed006FixedEntropy", _WALK),
    _env("SEED-008", "seeding:Seed008AdvancesGlobal", _WALK),
    _env("SEED-009", "seeding:Seed009SharedGenerator", _WALK),
    _env("SEED-010", "seeding:Seed010CoupledToActionSpace", _WALK),
    _env("SEED-012", "deep:HopSaltedStart", _HOP),
    _env("SEED-011", "seeding:Seed011WrongSeedReported", _WALK),
    _env("SEED-013", "deep:HopFixedUnseededStream", _HOP),
    _env("SPACE-004", "space:space_004_seed_ignored", _WALK),
    _env("SPACE-007", "space:space_007_sample_outside", _WALK),
    _env("SPACE-012", "space:space_012_json_round_trip", _WALK),
    _env("SPACE-013", "space:space_013_bounds_shape", _WALK),
    _env("RENDER-002", "render:Render002AcceptsAnything", _WALK),
    _env("RENDER-003", "render:Render003WrongError", _WALK),
    _env("RENDER-006", "render:Render006FloatFrames", _WALK),
    _env("RENDER-012", "deep:ControlZoomsOutAfter100Steps", _CONTROL),
    _env("RENDER-013", "render:Render013AliasedFrame", _WALK),
    _env("RENDER-014", "render:Render014RenderDrawsRandomness", _WALK),
    _env("RENDER-014", "deep:ControlRenderDrawsRandomness", _CONTROL),
    _env("WRAP-001", "wrapper:wrap_001_space_not_updated", _WRAPPED),
    _env("WRAP-003", "wrapper:wrap_003_mutates_inner_space", _WRAPPED),
    _env("WRAP-004", "wrapper:wrap_004_render_mode_hidden", _WRAPPED),
    _env("WRAP-005", "wrapper:wrap_005_env_chain_decoy", _WRAPPED),
    _env("WRAP-006", "wrapper:wrap_006_unwrapped_is_wrapper", _WRAPPED),
    _env("WRAP-008", "wrapper:wrap_008_own_generator", _WRAPPED),
    _vec("VEC-002", "vector:Vec002UntiledBounds", _HOP_SYNC),
    _vec("VEC-006", "vector:Vec006SameSeedEverywhere", _HOP_SYNC),
    _vec("VEC-008", "vector:Vec008NoisyRewards", _HOP_SYNC),
    _vec("VEC-009", "vector:Vec009ResetKeepsAutoresetFlags", _HOP_SYNC),
    _vec("VEC-011", "vector:Vec011ObservationsScaled", _HOP_SYNC),
    _vec("VEC-014", "vector:Vec014MaskMissing", _HOP_SYNC),
    _vec("VEC-015", "vector:Vec015StaleMaskedEntries", _HOP_SYNC),
    _vec("VEC-017", "vector:Vec017NoCopy", _HOP_SYNC),
    _vec("VEC-022", "direct:SlideIdenticalRows", _SLIDE),
    _vec("VEC-023", "copies:LanesSharedNoise", _LANES),
    _vec("AUTORESET-001", "autoreset:Autoreset001UnknownMode", _HOP_SYNC),
    _vec("AUTORESET-002", "autoreset:Autoreset002NoFinalReward", _HOP_SYNC),
    _vec("AUTORESET-003", "autoreset:Autoreset003RewardOnResetStep", _HOP_SYNC),
    _vec("AUTORESET-004", "autoreset:Autoreset004OthersWait", _HOP_SYNC),
    _vec("AUTORESET-005", "autoreset:Autoreset005FinalObsReturned", _SYNC_SAME),
    _vec("AUTORESET-006", "autoreset:Autoreset006NoFinalObs", _SYNC_SAME),
    _vec("AUTORESET-007", "autoreset:Autoreset007FinalInfoUnmasked", _SYNC_SAME),
    _vec("AUTORESET-008", "autoreset:Autoreset008ResetsByItself", _SYNC_DISABLED),
    _vec("AUTORESET-009", "autoreset:Autoreset009ResetsEverything", _SYNC_DISABLED),
    _vec("AUTORESET-010", "autoreset:Autoreset010AnyMask", _HOP_SYNC),
    _vec("AUTORESET-011", "autoreset:Autoreset011PopsMask", _SYNC_DISABLED),
    _vec("AUTORESET-012", "autoreset:Autoreset012UnseededResetReplays", _HOP_SYNC),
    _Sample("REG-003", "--env-id", _ID, _CORRECT_REGISTRY),
    _Sample("REG-004", "--env-id", _ID, _CORRECT_REGISTRY),
    _Sample("REG-006", "--env-id", _ID, _CORRECT_REGISTRY),
    _Sample("REG-007", "--env-id", _ID, _CORRECT_REGISTRY),
    _Sample("REG-008", "--env-id", _ID, _CORRECT_REGISTRY),
    _Sample("FUNC-002", "--func-env", f"{_FUNC_TARGETS}:Func002TransitionMutatesState", _DRIFT),
    _Sample("FUNC-004", "--func-env", f"{_FUNC_TARGETS}:Func004ReadsGlobalState", _DRIFT, repeat=True),
    _Sample("FUNC-006", "--func-env", f"{_FUNC_TARGETS}:Func006InitialOutside", _DRIFT),
    _Sample("FUNC-009", "--func-env", f"{_FUNC_TARGETS}:Func009IntTerminal", _DRIFT),
    _Sample("FUNC-014", "--func-env", f"{_FUNC_TARGETS}:Func014MixedRows", _DRIFT),
)
_IMPORT = re.compile(r"^from (tests\.meta\.broken\w*\.\w+) import (\w+)$", re.M)


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> SuiteRun:
    args = ["--conformance-profile", "quick", "--rules", ",".join(sorted({sample.rule for sample in _SAMPLES})),
            "--registry", _BROKEN_REGISTRY]
    for option, target in dict.fromkeys((sample.option, sample.target) for sample in _SAMPLES):
        args += [option, target]
    # Only the sampled (rule, target) items: every rule on every target would more than double the run.
    args += ["-k", " or ".join(f"{sample.rule}-{sample.target_id}" for sample in _SAMPLES)]
    return run_suite(args, tmp_path_factory.mktemp("reproducers") / "report.json")


def _run(script: str, path: Path) -> subprocess.CompletedProcess[str]:
    path.write_text(script, encoding="utf-8")
    return subprocess.run([sys.executable, str(path)], cwd=REPO, env=suite_env(), capture_output=True, text=True,
                          timeout=120, check=False)


def _fixed(sample: _Sample, script: str) -> str:
    """The script with the broken target (or registry) replaced by the correct one."""
    module, correct = sample.correct
    if sample.option == "--env-id":
        return script.replace(_BROKEN_REGISTRY, module)
    return _IMPORT.sub(rf"from {module} import {correct} as \2", script)


@pytest.mark.parametrize("sample", _SAMPLES, ids=[sample.test_id for sample in _SAMPLES])
def test_reproducer_fails_on_the_broken_env_and_passes_on_the_correct_one(
    suite: SuiteRun, sample: _Sample, tmp_path: Path
) -> None:
    rule = sample.rule
    record = suite.result(sample.target_id, rule)
    assert record["outcome"] == ("failed" if RULES[rule].level.is_mandatory else "warned"), record["message"]
    script = record["reproducer"]
    assert script.rstrip().splitlines()[-1].startswith("assert "), script
    for attempt in range(2 if sample.repeat else 1):  # pinned generators: the same verdict every run
        broken = _run(script, tmp_path / f"broken_{attempt}.py")
        assert broken.returncode != 0, script
        assert "AssertionError" in broken.stderr and f"{rule}:" in broken.stderr, broken.stderr[-2000:]
    fixed = _fixed(sample, script)
    assert fixed != script
    ok = _run(fixed, tmp_path / "correct.py")
    assert ok.returncode == 0, ok.stderr[-2000:] + "\n" + fixed
