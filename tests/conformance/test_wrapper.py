"""Tests for conformance/test_wrapper.py: a layer the rules drive on their own that cannot be reset alone (its outer
wrapper prepares it, as Meta-World's task wrapper does) is reported not checked, naming that layer, and no other
rule is named for it (the target's own reset works: ENV-004 passes)."""

from __future__ import annotations

from pathlib import Path

from tests.meta._run import run_inprocess

_TARGET = "tests.meta.broken.unchecked:inner_layer_needs_its_wrapper"


def test_a_layer_its_wrapper_prepares_is_not_checked_and_named(tmp_path: Path) -> None:
    run = run_inprocess(["--env", _TARGET, "--rules", "ENV-004,WRAP-001,WRAP-002", "--conformance-profile", "quick",
                         "--conformance-isolation", "thread"], tmp_path / "report.json")
    outcomes = run.outcomes(_TARGET)
    assert [outcomes[rule] for rule in ("ENV-004", "WRAP-001", "WRAP-002")] == ["passed", "error", "error"], outcomes
    for rule in ("WRAP-001", "WRAP-002"):
        message = run.result(_TARGET, rule)["message"]
        assert "cannot be reset on its own" in message and "_NeedsATask: no task set" in message, message
        assert "ENV-004" not in message, message


def test_an_env_that_keeps_an_env_attribute_is_no_wrapper(tmp_path: Path) -> None:
    # Issue 37 item 3: only wrappers by the protocol are layers, and an env whose get_wrapper_attr looks up its own
    # attributes is the innermost env it says it is, whatever it keeps in .env (even that env's very spaces).
    plain, duck = "tests.meta.broken.odd:HoldsAnEnv", "tests.meta.broken.odd:DuckHoldsAnEnv"
    run = run_inprocess(["--env", plain, "--env", duck, "--rules", "WRAP-*", "--conformance-profile", "quick",
                         "--conformance-isolation", "thread"], tmp_path / "report.json")
    assert run.outcomes(plain)["WRAP-006"] == "passed", run.result(plain, "WRAP-006")["message"]
    for target in (plain, duck):
        for rule, outcome in run.outcomes(target).items():
            if rule not in ("CONSTRUCT", "WRAP-006"):
                assert outcome == "skipped", (target, rule, outcome)
                assert "the target is not a wrapper" in run.result(target, rule)["message"]
    wrapper = "tests.meta.broken.wrapper:wrap_006_unwrapped_is_wrapper"  # its get_wrapper_attr searches inside
    run = run_inprocess(["--env", wrapper, "--rules", "WRAP-006", "--conformance-isolation", "thread"],
                        tmp_path / "wrapper.json")
    assert run.outcomes(wrapper)["WRAP-006"] == "failed"
