"""Each deliberately broken env fails (or, for SHOULD rules, warns on) exactly the rule it was built to break.

One child run of the suite (quick profile) selects, with ``-k``:

* the intended (rule, target) item of every broken env — each must fail or warn, with a message that starts with
  the rule id and ends with a reproducer that actually replays the example;
* every item of the correct envs — nothing may fail or warn;
* every item of a few representative broken envs — nothing outside the intended rule and its declared collateral
  may fail or warn (all broken envs get that check under ``-m slow``);
* for a few root causes that once spilled into other rules, those rules' items — they must not fail or warn.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gymspec.rules import RULES
from tests.meta._reproducers import RAISING, ends_in_assert, stale, unasserted
from tests.meta._run import SuiteRun, has_xdist, run_suite
from tests.meta.broken.catalog import BROKEN, CORRECT
from tests.meta.catalog import Broken

# One representative each for SPACE and WRAP, a render drawing from the env's generator (RENDER-014), and root causes
# whose consequences reach across rules: a non-reproducible env fails only SEED-001..005 (the root-cause gate); an
# observation outside the space through wrappers, ENV-006 only, once; a constructor rejecting a render mode, or
# None, RENDER-001 (and its collateral) only, every other item checked; rgb_array by default, RENDER-018 only.
_SAMPLE_TARGETS = ("space_008_global_generator", "wrap_003_mutates_inner_space", "Render014RenderDrawsRandomness",
                   "Seed001OsEntropy", "env_006_wrapped_outside", "Render001RejectsRenderMode",
                   "Render001RejectsNone", "Render018RgbArrayByDefault")
_SAMPLE = [broken for broken in BROKEN if broken.name in _SAMPLE_TARGETS]
# Root causes whose consequences must stay with their own rules, checked on the rules they once spilled into: no
# options parameter, ENV-004 only, not ENV-031; unseeded resets restarted, SEED-004 only, not SEED-013; a close that
# fails after rendering, RENDER-015 only, not ENV-030 or SEED-009; no render mode and no render_mode parameter,
# RENDER-003 (a SHOULD) only, not RENDER-001 or RENDER-002; episodes that time out on one of six cells, ENV-023 only,
# not ENV-024 (a terminal cell equal to a reset's draw by chance).
_GUARDS = {
    "Env004NoOptions": ("ENV-031",),
    "Render003NoRenderModeParameter": ("RENDER-001", "RENDER-002"),
    "HopsBothFlagsAtEveryEnd": ("ENV-024",),
    "Seed004ConstantOnUnseededReset": ("SEED-013",),
    "Render015CloseFailsAfterRender": ("ENV-030", "SEED-009"),
}
_GUARDED = [broken for broken in BROKEN if broken.name in _GUARDS]
# Every broken env gets the check of every item under -m slow. The regular run, which must fit well under 15 minutes,
# leaves out Env009StepOutside, Seed003EntropyOnUnseededReset and ControlRenderDrawsRandomness (98 items each, a
# representative of an area or rule the sample above has) and checks the three targets above on their guards only.
# Every item of every broken target, at the quick profile: about 10 s of suite time per target on a busy machine.
_SECONDS_PER_TARGET = 10.0


def _targets(broken: list[Broken], correct: tuple[str, ...] = ()) -> list[str]:
    options = [("--env", spec) for spec in correct] + [entry.args for entry in broken]
    return [arg for option in dict.fromkeys(options) for arg in option]


def _parallel() -> list[str]:
    return ["-n", "2"] if has_xdist() else []


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> SuiteRun:
    selection = [f"{broken.rule}-{broken.target_id}" for broken in BROKEN]
    selection += [broken.target_id for broken in _SAMPLE] + list(CORRECT)
    selection += [f"{rule}-{broken.target_id}" for broken in _GUARDED for rule in _GUARDS[broken.name]]
    # "]" ends the item's parameter: a target's id alone would also select those it is a prefix of.
    args = ["--conformance-profile", "quick", *_targets(list(BROKEN), CORRECT),
            "-k", " or ".join(f"{entry}]" for entry in selection), *_parallel()]
    return run_suite(args, tmp_path_factory.mktemp("broken") / "report.json")


_IDS = [broken.test_id for broken in BROKEN]


@pytest.mark.parametrize("broken", BROKEN, ids=_IDS)
def test_broken_env_violates_its_rule(suite: SuiteRun, broken: Broken) -> None:
    record = suite.result(broken.target_id, broken.rule)
    expected = "failed" if RULES[broken.rule].level.is_mandatory else "warned"
    assert record["outcome"] == expected, record["message"]
    assert record["message"].startswith(f"{broken.rule} ("), record["message"]
    assert "expected:" in record["message"] and "actual:" in record["message"], record["message"]
    assert broken.name in record["reproducer"], record["reproducer"]


@pytest.mark.parametrize("broken", BROKEN, ids=_IDS)
def test_reproducer_replays(suite: SuiteRun, broken: Broken, tmp_path: Path) -> None:
    script = suite.result(broken.target_id, broken.rule)["reproducer"]
    # Run as the file it is meant to be (SEED-012's script runs itself again under other hash salts).
    path = tmp_path / "reproducer.py"
    path.write_text(script, encoding="utf-8")
    namespace: dict[str, object] = {"__name__": "reproducer", "__file__": str(path)}
    if ends_in_assert(script):
        # A reproducer that ends in its check fails while the defect exists (tests/meta/test_reproducers.py).
        with pytest.raises(AssertionError, match=broken.rule):
            exec(compile(script, "<reproducer>", "exec"), namespace)  # noqa: S102 - the suite's own output
    elif broken.rule in RAISING or broken.name in RAISING:
        with pytest.raises(Exception):  # noqa: B017, PT011 - whatever the env raises is the violation
            exec(compile(script, "<reproducer>", "exec"), namespace)  # noqa: S102 - the suite's own output
    else:
        exec(compile(script, "<reproducer>", "exec"), namespace)  # noqa: S102


def test_every_failure_ends_in_an_assertion(suite: SuiteRun) -> None:
    """Every failed or warned item of the run (intended rules, collateral, the sampled targets' other rules) ends its
    reproducer in an assertion, unless its replayed call raises the finding or its rule is still listed as writing
    none (tests/meta/_reproducers.py); a listed rule that now always asserts leaves the list."""
    records = suite.report["results"]
    assert not unasserted(records)
    assert not stale(records), "these rules now end in an assertion: remove them from UNASSERTED"


@pytest.mark.parametrize("spec", CORRECT)
def test_correct_envs_pass_everything(suite: SuiteRun, spec: str) -> None:
    outcomes = suite.outcomes(spec)
    assert "CONSTRUCT" in outcomes and len(outcomes) > 50  # every item of this target ran
    problems = {rule: outcome for rule, outcome in outcomes.items() if outcome not in ("passed", "skipped")}
    assert not problems, problems


@pytest.mark.parametrize("broken", _SAMPLE, ids=[b.test_id for b in _SAMPLE])
def test_representative_broken_envs_break_nothing_else(suite: SuiteRun, broken: Broken) -> None:
    assert len(suite.outcomes(broken.target_id)) > 50  # every item of this target ran
    assert not broken.unexpected(suite.outcomes(broken.target_id))


@pytest.mark.parametrize("broken", _GUARDED, ids=[b.test_id for b in _GUARDED])
def test_root_causes_stay_with_their_rule(suite: SuiteRun, broken: Broken) -> None:
    outcomes = suite.outcomes(broken.target_id)
    guards = _GUARDS[broken.name]
    assert set(guards) <= set(outcomes), outcomes  # the guarded items ran
    assert not broken.unexpected(suite.outcomes(broken.target_id))


@pytest.mark.slow
def test_every_broken_env_breaks_nothing_else(tmp_path: Path) -> None:
    args = ["--conformance-profile", "quick", *_targets(list(BROKEN)), *_parallel()]
    run = run_suite(args, tmp_path / "report.json", timeout=max(600.0, _SECONDS_PER_TARGET * len(BROKEN)))
    unexpected = {broken.target_id: found for broken in BROKEN
                  if (found := broken.unexpected(run.outcomes(broken.target_id)))}
    assert not unexpected, unexpected
