"""Each broken vector env and functional env fails (or, for SHOULD rules, warns on) exactly the rule it breaks.

One child run of the suite (quick profile, VEC/AUTORESET/FUNC rules, two xdist workers) selects with ``-k``:

* the intended (rule, target) item of every broken target — each must fail or warn, with a message that starts with
  the rule id and ends with a reproducer that replays the example;
* every item of the correct targets (reference Sync over ``Hop`` in each autoreset mode, Async without shared
  memory — with it, the embedded defaults cover every mode —, a multi-task Sync, vector envs written directly with
  one shared generator (``Slide``) and with sub-envs seeded as copies (``Lanes``, in each mode), and the functional
  ``Drift``) — nothing may fail or warn;
* every item of a few representative broken targets — nothing outside the intended rule and its declared collateral
  may fail or warn.

Under ``-m slow``, one run checks every item of every broken target (nothing else may fail) and of every correct
target, ``CORRECT_SLOW``'s too (nothing may fail).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gymspec.rules import RULES
from tests.meta._reproducers import RAISING, ends_in_assert, stale, unasserted
from tests.meta._run import SuiteRun, has_xdist, run_suite
from tests.meta.broken_func.catalog import BROKEN as FUNC_BROKEN
from tests.meta.broken_func.catalog import CORRECT as FUNC_CORRECT
from tests.meta.broken_vector.catalog import BROKEN as VECTOR_BROKEN
from tests.meta.broken_vector.catalog import CORRECT as VECTOR_CORRECT
from tests.meta.broken_vector.catalog import CORRECT_SLOW as VECTOR_CORRECT_SLOW
from tests.meta.catalog import Broken

BROKEN = VECTOR_BROKEN + FUNC_BROKEN
# One target per concern: a changed sub-env's collateral (VEC-006), the root-cause gate of a non-reproducible target
# (VEC-008), the copies model (VEC-023), a model rule's collateral on env_fns targets (AUTORESET-009), a functional
# env (FUNC-002), a space that cannot be read (every other rule skips, none fails as the suite's own NotCheckable),
# a slip stream shared by the sub-envs (VEC-023 only, no AUTORESET rule, though its first steps agree with its
# copies). Every other broken target gets this check under -m slow: the AUTORESET-004 ones and
# LanesPartialClearsOthers were in this sample, and cost a third of the run's item time (Autoreset004OthersWait's
# collateral AUTORESET-012 failure alone shrinks for 30 to 100 s, longer than any other item).
_SAMPLE_TARGETS = ("Vec001SingleSpaceUnreadable", "LanesSharedSlips", "Vec006SameSeedEverywhere", "Vec008NoisyRewards",
                   "LanesSharedNoise", "Autoreset009ResetsEverything", "Func002TransitionMutatesState")
_SAMPLE = [broken for broken in BROKEN if broken.name in _SAMPLE_TARGETS]
# Every item of every broken and correct target, at the quick profile: seconds of suite time per target, busy machine.
_SECONDS_PER_TARGET = 15.0


def _ids(entries: tuple[Broken, ...] | list[Broken]) -> list[str]:
    return [f"{broken.rule}:{broken.name}" for broken in entries]


def _args(vector_correct: tuple[str, ...]) -> list[str]:
    """The suite arguments naming every broken target and the correct ones (quick profile, these areas' rules)."""
    args = ["--conformance-profile", "quick", "--rules", "VEC-*,AUTORESET-*,FUNC-*"]
    args += [arg for broken in BROKEN for arg in (broken.option, broken.spec)]
    args += [arg for spec in vector_correct for arg in ("--vector-env", spec)]
    args += [arg for spec in FUNC_CORRECT for arg in ("--func-env", spec)]
    return [*args, *(["-n", "2"] if has_xdist() else [])]


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> SuiteRun:
    selection = [f"{broken.rule}-{broken.spec}" for broken in BROKEN]
    selection += [broken.spec for broken in _SAMPLE] + [*VECTOR_CORRECT, *FUNC_CORRECT]
    # "]" ends the item's parameter: ``copies:Lanes`` alone would also select every item of every ``Lanes*`` target.
    args = [*_args(VECTOR_CORRECT), "-k", " or ".join(f"{entry}]" for entry in selection)]
    return run_suite(args, tmp_path_factory.mktemp("broken_vector") / "report.json")


@pytest.mark.parametrize("broken", BROKEN, ids=_ids(BROKEN))
def test_broken_target_violates_its_rule(suite: SuiteRun, broken: Broken) -> None:
    record = suite.result(broken.spec, broken.rule)
    expected = "failed" if RULES[broken.rule].level.is_mandatory else "warned"
    assert record["outcome"] == expected, record["message"]
    assert record["message"].startswith(f"{broken.rule} ("), record["message"]
    assert "expected:" in record["message"] and "actual:" in record["message"], record["message"]
    assert broken.name in record["reproducer"], record["reproducer"]


@pytest.mark.parametrize("broken", BROKEN, ids=_ids(BROKEN))
def test_reproducer_replays(suite: SuiteRun, broken: Broken) -> None:
    script = suite.result(broken.spec, broken.rule)["reproducer"]
    namespace: dict[str, object] = {"__name__": "reproducer"}
    code = compile(script, "<reproducer>", "exec")
    if ends_in_assert(script):
        # A reproducer that ends in its check fails while the defect exists (tests/meta/test_reproducers.py).
        with pytest.raises(AssertionError, match=broken.rule):
            exec(code, namespace)  # noqa: S102 - the suite's own output
    elif broken.rule in RAISING:
        with pytest.raises(Exception):  # noqa: B017, PT011 - whatever the env raises is the violation
            exec(code, namespace)  # noqa: S102 - the suite's own output
    else:
        exec(code, namespace)  # noqa: S102
    for value in namespace.values():
        close = getattr(value, "close", None)
        if callable(close) and not isinstance(value, type):
            try:
                close()
            except Exception:  # noqa: BLE001, S110 - cleanup of what the script left open; VEC-019 closes twice
                pass


def test_every_failure_ends_in_an_assertion(suite: SuiteRun) -> None:
    """Every failed or warned item of the run ends its reproducer in an assertion, unless its replayed call raises
    the finding or its rule is still listed as writing none (tests/meta/_reproducers.py)."""
    records = suite.report["results"]
    assert not unasserted(records)
    assert not stale(records), "these rules now end in an assertion: remove them from UNASSERTED"


@pytest.mark.parametrize("spec", [*VECTOR_CORRECT, *FUNC_CORRECT])
def test_correct_targets_pass_everything(suite: SuiteRun, spec: str) -> None:
    outcomes = suite.outcomes(spec)
    assert "CONSTRUCT" in outcomes and len(outcomes) > 12, outcomes  # every item of this target ran
    problems = {rule: outcome for rule, outcome in outcomes.items() if outcome not in ("passed", "skipped")}
    assert not problems, problems


@pytest.mark.parametrize("broken", _SAMPLE, ids=_ids(_SAMPLE))
def test_representative_broken_targets_break_nothing_else(suite: SuiteRun, broken: Broken) -> None:
    outcomes = suite.outcomes(broken.spec)
    assert len(outcomes) > 12, outcomes  # every item of this target ran
    unexpected = broken.unexpected(suite.outcomes(broken.target_id))
    assert not unexpected, unexpected


@pytest.mark.slow
def test_every_target_breaks_nothing_else(tmp_path: Path) -> None:
    """Every item of every broken target (nothing beyond its rule and collateral fails) and of every correct target,
    those of ``CORRECT_SLOW`` too (nothing fails or warns)."""
    correct = (*VECTOR_CORRECT, *VECTOR_CORRECT_SLOW)
    targets = len({broken.spec for broken in BROKEN}) + len(correct) + len(FUNC_CORRECT)
    run = run_suite(_args(correct), tmp_path / "report.json", timeout=max(600.0, _SECONDS_PER_TARGET * targets))
    unexpected = {broken.spec: found for broken in BROKEN
                  if (found := broken.unexpected(run.outcomes(broken.target_id)))}
    assert not unexpected, unexpected
    for spec in (*correct, *FUNC_CORRECT):
        outcomes = run.outcomes(spec)
        assert "CONSTRUCT" in outcomes and len(outcomes) > 12, (spec, outcomes)
        problems = {rule: outcome for rule, outcome in outcomes.items() if outcome not in ("passed", "skipped")}
        assert not problems, (spec, problems)
