"""Each broken registry fails (or, for REG-007, warns on) the REG rule it breaks; the reference registry passes.

A broken registry is a module with ``make``/``make_vec`` (:mod:`tests.meta.broken_registry`). The suite names
registries with ``--registry``, so each run adds its module to ``conformance._engine.targets.REGISTRIES`` for the run's
duration (in-process runs share that dict), and the ``Hop`` id is registered in the reference registry only while
the run lasts. Targets: that id as an env and as a vector env.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance._engine.targets import REGISTRIES
from gymspec.rules import RULES
from tests.meta._reproducers import ends_in_assert, unasserted
from tests.meta._run import SuiteRun, run_inprocess
from tests.meta.broken_registry._base import HOP_ID, registered
from tests.meta.broken_registry.catalog import BROKEN
from tests.meta.catalog import Broken

_TARGETS = ("--env-id", HOP_ID, "--vector-env-id", HOP_ID)
# REG-002 needs a constructor kwarg for "made again from the spec" to differ when the spec's kwargs are lost.
_KWARGS = {"REG-002": '{"push": 0.9}'}
# The registry a fixed reproducer imports in place of the broken one.
_CORRECT = "tests.meta.broken_registry._base"
# Registries whose make_vec breaks the rule as well as make (the vector target must fail it too).
_VECTOR_TOO = frozenset({"REG-004"})


def _run(registry: str, module: str, rules: str, report: Path, kwargs: str | None = None) -> SuiteRun:
    args = ["--conformance-profile", "quick", "--registry", registry, *_TARGETS, "--rules", rules]
    if kwargs is not None:
        args += ["--env-kwargs", kwargs]
    added = registry not in REGISTRIES
    REGISTRIES[registry] = module
    try:
        with registered():
            return run_inprocess(args, report)
    finally:
        if added:
            del REGISTRIES[registry]


@pytest.mark.parametrize("broken", BROKEN, ids=[broken.test_id for broken in BROKEN])
def test_broken_registry_violates_its_rule(broken: Broken, tmp_path: Path) -> None:
    rule_id = broken.rule
    run = _run("broken", broken.spec, rule_id, tmp_path / "report.json", _KWARGS.get(rule_id))
    record = run.result(f"broken/{HOP_ID}", rule_id)
    expected = "failed" if RULES[rule_id].level.is_mandatory else "warned"
    assert record["outcome"] == expected, record["message"]
    assert record["message"].startswith(f"{rule_id} ("), record["message"]
    assert "expected:" in record["message"] and "actual:" in record["message"], record["message"]
    if rule_id in _VECTOR_TOO:
        assert run.result(f"broken/{HOP_ID}/make_vec", rule_id)["outcome"] == expected
    # Every finding's reproducer ends in the assertion that fails while the defect exists and passes on the
    # correct registry (issue 24 item 8).
    assert not unasserted(run.report["results"])
    for found in (r for r in run.report["results"] if r["rule"] == rule_id and r["outcome"] == expected):
        _replay(found["reproducer"], rule_id, broken.spec, tmp_path)


def test_make_vec_raising_is_one_finding_of_reg_009(tmp_path: Path) -> None:
    """make_vec raising on an env target breaks REG-009 (its owner); REG-008, which needs the same call, skips
    naming REG-009 instead of repeating the finding or reporting itself unchecked."""
    run = _run("broken", "tests.meta.broken_registry.make_vec_raises", "REG-*", tmp_path / "report.json")
    target = f"broken/{HOP_ID}"
    outcomes = run.outcomes(target)
    assert outcomes["REG-009"] == "failed", outcomes
    assert "raised TypeError" in run.result(target, "REG-009")["message"]
    assert outcomes["REG-008"] == "skipped", outcomes
    assert "reported by REG-009" in run.result(target, "REG-008")["message"]
    assert [rule for rule, outcome in outcomes.items() if outcome in ("failed", "error")] == ["REG-009"], outcomes


def _replay(script: str, rule_id: str, module: str, tmp_path: Path) -> None:
    """Run a reproducer as a module would: it fails on ``rule_id`` with the broken registry, and runs through with
    the correct one put in its place."""
    if not ends_in_assert(script):  # the replayed call raises the finding (tests/meta/_reproducers.py)
        return
    path = tmp_path / "reproducer.py"
    with registered():
        with pytest.raises(AssertionError, match=rule_id):
            exec(compile(script, str(path), "exec"), {"__name__": "reproducer"})  # noqa: S102 - the suite's output
        fixed = script.replace(module, _CORRECT)
        assert fixed != script, script
        exec(compile(fixed, str(path), "exec"), {"__name__": "reproducer"})  # noqa: S102


def test_reference_registry_passes(tmp_path: Path) -> None:
    run = _run("reference", REGISTRIES["reference"], "REG-*", tmp_path / "report.json", '{"push": 0.9}')
    outcomes = {(r["target"], r["rule"]): r["outcome"] for r in run.report["results"]}
    ran = {rule for (_, rule), outcome in outcomes.items() if outcome == "passed"}
    assert {rule for rule in RULES if rule.startswith("REG-")} <= ran, outcomes
    problems = {key: outcome for key, outcome in outcomes.items() if outcome not in ("passed", "skipped")}
    assert not problems, problems


def test_flags_of_either_bool_type_are_one_trajectory(tmp_path: Path) -> None:
    # Issue 37 item 6: REG-002 compared the remade env's flags by type, and failed a registry whose envs made from a
    # spec return numpy.bool_ flags, "truncated: type bool != bool", though every rule takes either as a flag.
    module = "tests.meta.broken_registry.numpy_flags"
    run = _run("numpy_flags", module, "REG-002", tmp_path / "report.json", '{"push": 0.9}')
    record = run.result(f"numpy_flags/{HOP_ID}", "REG-002")
    assert record["outcome"] == "passed", record["message"]
