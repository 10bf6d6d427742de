"""A pass is evidence (issue 36): every rule declares the least it must observe, the suite drives its rollouts to it,
and an item that ended with less is never a pass.

* A target behind a heavy import (threads, so spawn isolation; a costly construction, so one example an item) still
  fails its rule: its single example is a full rollout, not Hypothesis' empty one.
* Every rule whose check steps declares a floor that asks for what it steps for, and the docs list every floor.
* Episodes that never end make the episode-end rules *not observed*; an item out of time is *not checked*.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from conformance._engine.evidence import Floor
from tests.meta._run import run_suite
from tests.meta.broken.slow_import import HEAVY
from tests.meta.test_rule_coverage import MODULES

_HEAVY_ENV_011 = "tests.meta.broken.slow_import:env_011"
# Rules about what reset returns, judged on the resets of the shared rollouts (which step for the other observers).
_RESET_OBSERVERS = frozenset({"ENV-005", "ENV-006", "ENV-007", "VEC-005"})
_WRITING_CHECKS = Path(__file__).resolve().parents[2] / "docs" / "writing-checks.md"


def _floors() -> dict[str, Floor]:
    """Every rule's declared floor, from the markers of the suite's checks."""
    floors: dict[str, Floor] = {}
    for name in MODULES:
        module = importlib.import_module(f"conformance.{name}")
        for attr in vars(module).values():
            for mark in getattr(attr, "pytestmark", []):
                if mark.name == "conformance_rule":
                    floors[str(mark.args[0])] = mark.kwargs["floor"]
    return floors


def test_a_heavy_import_leaves_no_pass_on_zero_steps(tmp_path: Path) -> None:
    """The issue's own target: a list reward on every step, made by a factory whose import takes 4 s and leaves two
    threads (spawn; one example an item under the default profile). Every ENV rule that passes passed on its floor,
    and ENV-011 fails, saying what it observed."""
    run = run_suite(["--env", _HEAVY_ENV_011, "--rules", "ENV-*"], tmp_path / "report.json", timeout=600)
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.output[-3000:]
    record = run.result(_HEAVY_ENV_011, "ENV-011")
    assert record["outcome"] == "failed", record
    assert "reward of type list" in record["message"] and "\n  observed: " in record["message"], record["message"]
    assert run.report["summary"]["isolation"][_HEAVY_ENV_011].startswith("spawn"), run.report["summary"]
    floors = _floors()
    for result in run.report["results"]:
        if result["outcome"] == "passed" and result["rule"] in floors:
            evidence = result["evidence"]
            missing = [name for name, needed in floors[result["rule"]].needs()
                       if _count(evidence, name) < needed]
            assert not missing or floors[result["rule"]].otherwise is not None, (result["rule"], evidence, missing)
            assert result["rule"] != "ENV-009" or evidence.get("steps", 0) >= 30, result


def _count(evidence: dict[str, Any], name: str) -> int:
    if name == "renders":
        return sum(evidence.get("renders", {}).values())
    value = evidence.get(name, evidence.get("judged", {}).get(name, 0))
    return int(value)


@pytest.mark.slow
def test_heavy_targets_of_every_family_fail_their_rule(tmp_path: Path) -> None:
    """A target behind a heavy import for rules of each family (ENV, SEED, RENDER, WRAP, VEC, AUTORESET, FUNC),
    under the quick profile: each fails (ENV-023, a SHOULD, warns) on its rule."""
    args = [arg for _, option, target in HEAVY for arg in (option, target)]
    rules = ",".join(sorted({rule for rule, _, _ in HEAVY}))
    run = run_suite([*args, "--rules", rules, "--conformance-profile", "quick"], tmp_path / "report.json",
                    timeout=900, env={"CONFORMANCE_SLOW_IMPORT_SECONDS": "1.5"})
    for rule, _, target in HEAVY:
        record = run.result(target, rule)
        assert record["outcome"] in ("failed", "warned"), (target, rule, record["message"][:500])


def test_every_rule_declares_its_floor_and_the_docs_list_them() -> None:
    floors = _floors()
    assert all(isinstance(floor, Floor) for floor in floors.values())
    text = _WRITING_CHECKS.read_text(encoding="utf-8")
    for rule, floor in floors.items():
        assert f"| {rule} | {floor.describe()} |" in text, f"docs/writing-checks.md lacks {rule}'s floor"


def test_a_rule_that_steps_asks_for_steps_or_episode_ends(tmp_path: Path) -> None:
    """Every item that stepped on a correct single, vector and functional target belongs to a rule whose floor asks
    for steps, episode ends, frames or what its check judges: a floor of nothing would let it pass on none."""
    args = ["--env", "tests.meta.broken._base:Walk", "--vector-env", "tests.meta.broken_vector._base:HopSync",
            "--func-env", "tests.meta.broken_func._base:Drift", "--conformance-profile", "quick"]
    run = run_suite(args, tmp_path / "report.json", timeout=600)
    assert run.returncode == pytest.ExitCode.OK, run.output[-3000:]
    floors = _floors()
    stepping = {record["rule"] for record in run.report["results"] if record["evidence"].get("steps")}
    assert len(stepping) > 50
    for rule in stepping - {"CONSTRUCT"} - _RESET_OBSERVERS:
        floor = floors[rule]
        asks = {name for name, _ in floor.needs()} | (
            {name for name, _ in floor.otherwise.needs()} if floor.otherwise is not None else set())
        assert asks & {"steps", "ends", "terminated", "autoresets", "autoreset_envs", "renders", "renders_after_step",
                       "instances", "unseeded_resets", "processes"} or floor.judged, (rule, floor)


def test_episodes_without_the_events_a_rule_needs_are_not_observed(tmp_path: Path) -> None:
    """Episodes that never end: ENV-023 (several ends) and ENV-024 (a terminated one) are skipped as not observed,
    naming the cap; episodes that end only by a time limit: ENV-024 is not observed, naming the truncations; the rest
    passes. Neither is the env's defect, nor a pass."""
    endless, truncated = "tests.meta.broken.episodes:Endless", "tests.meta.broken.episodes:OnlyTruncated"
    run = run_suite(["--env", endless, "--env", truncated, "--rules", "ENV-0*", "--conformance-profile", "quick"],
                    tmp_path / "report.json", timeout=600)
    assert run.returncode == pytest.ExitCode.OK, run.output[-3000:]
    for rule in ("ENV-023", "ENV-024"):
        record = run.result(endless, rule)
        assert record["outcome"] == "skipped" and "not observed" in record["message"], record
        assert "episode cap" in record["message"] and "no episode ended" in record["message"], record["message"]
    record = run.result(truncated, "ENV-024")
    assert record["outcome"] == "skipped" and "ended truncated, not terminated" in record["message"], record
    # No terminal step, and no declared limit for an episode to reach: neither of ENV-023's patterns can be judged.
    record = run.result(truncated, "ENV-023")
    assert record["outcome"] == "skipped" and "0 of 3 terminated episode ends" in record["message"], record
    assert "(or 0 of 2 episodes at the declared limit)" in record["message"], record["message"]
    assert not run.report["summary"]["not_checked"]


def test_an_item_out_of_time_under_its_floor_is_not_checked(tmp_path: Path) -> None:
    """Episodes of 100 steps of 10 ms and a budget of half a second: ENV-023 cannot see its three episode ends, so
    it is an error that names what it saw, what it needed and the remedy, and the run fails."""
    slow = "tests.meta.broken.episodes:SlowEpisodes"
    run = run_suite(["--env", slow, "--rules", "ENV-023", "--conformance-budget", "0.5"], tmp_path / "report.json",
                    timeout=600)
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.output[-3000:]
    record = run.result(slow, "ENV-023")
    assert record["outcome"] == "error", record
    assert "not checked" in record["message"] and "episode ends" in record["message"], record["message"]
    assert "--conformance-budget" in record["message"], record["message"]
    assert run.report["summary"]["not_checked"] == {slow: 1}


def test_rules_go_on_with_the_actions_an_env_accepts(tmp_path: Path) -> None:
    """An env that rejects an action of its own space fails ENV-016; the rules that step with a plan's actions go on
    with the actions it accepts (the rejected one passed over in their reproducers), and each pass says which it
    passed over, instead of being left unchecked as "reported by ENV-016" (issue 37 item 14)."""
    target = "tests.meta.broken.env:Env016RejectsAction"
    rules = "ENV-009,ENV-011,ENV-016,SEED-001,SEED-003,RENDER-006"
    run = run_suite(["--env", target, "--rules", rules, "--conformance-profile", "quick"], tmp_path / "report.json")
    outcomes = run.outcomes(target)
    assert outcomes.pop("ENV-016") == "failed", outcomes
    assert set(outcomes.values()) == {"passed"}, outcomes
    for rule in ("ENV-011", "SEED-001", "SEED-003", "RENDER-006"):
        message = run.result(target, rule)["message"]
        assert "checked with the actions the env accepts; it passed over" in message, (rule, message)
        assert "rejected actions passed over" in run.result(target, rule)["evidence"]["judged"], rule
