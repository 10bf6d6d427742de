"""The suite passes on Gymnasium's own classic-control and toy-text envs, made with ``--registry gymnasium``.

Expected deviation (a documented Gymnasium gap, not a suite bug): ``gymnasium.make`` accepts a ``render_mode`` the
env does not declare, with only a logged warning, so the SHOULD rules RENDER-003 and REG-007 are reported as *warned*
for every id. No MUST rule may fail.

Gymnasium defect found by the suite (expected below): every classic-control and toy-text env *constructed directly*
(no ``make``, so ``spec is None``) raises a bare ``AssertionError`` from ``render()`` when ``render_mode`` is ``None``
— the "no render mode" warning path asserts ``self.spec is not None`` to print the id — violating RENDER-004.
Through ``make`` (where ``spec`` is set) the same envs pass.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.meta._run import has_xdist, run_inprocess, run_suite

gym = pytest.importorskip("gymnasium")

EXPECTED_WARNINGS = {"RENDER-003", "REG-007"}


def _ids() -> list[str]:
    ids = []
    for env_id, spec in gym.registry.items():
        entry = spec.entry_point if isinstance(spec.entry_point, str) else ""
        if ("classic_control" in entry or "toy_text" in entry) and "jax" not in entry.lower():
            ids.append(env_id)
    return ids


# One env per space family in the regular run (Discrete/Box actions, Box/Tuple/Discrete observations); all under
# -m slow.
_REPRESENTATIVE = ("CartPole-v1", "Pendulum-v1", "Blackjack-v1", "FrozenLake-v1")


def _check(ids: list[str], report: Path) -> None:
    assert ids, "gymnasium registers no classic-control/toy-text env"
    args = ["--registry", "gymnasium", "--conformance-profile", "quick"]
    args += [arg for env_id in ids for arg in ("--env-id", env_id)]
    args += ["-n", "2"] if has_xdist() and len(ids) > 2 else []
    run = run_suite(args, report)
    failed = [
        f"{r['rule']} [{r['target']}]: {r['message']}"
        for r in run.report["results"]
        if r["outcome"] in ("failed", "error")
    ]
    assert not failed, "\n".join(failed)
    warned = {r["rule"] for r in run.report["results"] if r["outcome"] == "warned"}
    assert warned <= EXPECTED_WARNINGS, warned
    assert {r["target"] for r in run.report["results"]} == {f"gymnasium/{env_id}" for env_id in ids}


@pytest.mark.gymnasium
def test_suite_passes_on_representative_gymnasium_envs(tmp_path: Path) -> None:
    _check([env_id for env_id in _ids() if env_id in _REPRESENTATIVE], tmp_path / "report.json")


@pytest.mark.gymnasium
@pytest.mark.slow
def test_suite_passes_on_all_gymnasium_envs(tmp_path: Path) -> None:
    _check(_ids(), tmp_path / "report.json")


@pytest.mark.gymnasium
def test_gymnasium_defect_render_without_mode_needs_a_spec(tmp_path: Path) -> None:
    spec = "gymnasium.envs.classic_control.cartpole:CartPoleEnv"
    run = run_inprocess(["--env", spec, "--rules", "RENDER-004,RENDER-005"], tmp_path / "report.json")
    record = run.result(spec, "RENDER-004")
    assert record["outcome"] == "failed"
    assert "env.render() raised AssertionError" in record["message"]
    assert "env = CartPoleEnv()" in record["reproducer"]
