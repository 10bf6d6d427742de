"""The project's own suite (``conformance.check_env``, profile "quick") on the reference's vector envs.

``SyncVectorEnv`` and ``AsyncVectorEnv`` built by hand over a registered Tuple/Discrete env (Blackjack-v1) with the
autoreset modes ``make_vec`` does not use, and the three ``make_vec`` vectorization modes on CartPole-v1. Each must pass every rule it is checked on, with no SHOULD warning, and the rules
about its autoreset mode and the vector API must really be checked (passed), not skipped: a target the suite could
not check would otherwise pass this test vacuously.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import reference
from conformance import check_env
from gymspec import AutoresetMode
from reference.vector import AsyncVectorEnv, SyncVectorEnv

# Rules about each autoreset mode (the others skip as "not applicable", which the suite says and this test allows).
_MODE_RULES = {
    AutoresetMode.NEXT_STEP: {"AUTORESET-003", "AUTORESET-004"},
    AutoresetMode.SAME_STEP: {"AUTORESET-005", "AUTORESET-006", "AUTORESET-007"},
    AutoresetMode.DISABLED: {"AUTORESET-008", "AUTORESET-009"},
}
# Rules that need the sub-env factories (env_fns) to compare with, or that hold only for a vector env promising
# Sync/Async semantics, which the suite recognises by env_fns: a vector entry point has neither.
_NEEDS_ENV_FNS = {"AUTORESET-002", "AUTORESET-004", "AUTORESET-010", "AUTORESET-011", "VEC-006", "VEC-007", "VEC-018"}


def sync_blackjack_same_step(num_envs: int) -> SyncVectorEnv[object, object]:
    """Tuple-of-Discrete observations, Discrete actions, SameStep autoreset."""
    return SyncVectorEnv([lambda: reference.make("Blackjack-v1")] * num_envs, autoreset_mode=AutoresetMode.SAME_STEP)


def async_blackjack_disabled_pickled(num_envs: int) -> AsyncVectorEnv[object, object]:
    """The same env in worker processes, observations pickled through the pipes (``make_vec`` "async" covers
    shared memory), Disabled autoreset."""
    return AsyncVectorEnv(
        [lambda: reference.make("Blackjack-v1")] * num_envs, shared_memory=False, autoreset_mode=AutoresetMode.DISABLED
    )


@dataclass(frozen=True)
class _Target:
    name: str
    target: object
    mode: AutoresetMode
    vectorization_mode: str | None = None

    @property
    def must_pass(self) -> set[str]:
        """Rules the suite must have checked and passed on this target."""
        always = {"AUTORESET-001", "AUTORESET-002", "AUTORESET-010", "AUTORESET-011", "AUTORESET-012"}
        vector = {f"VEC-{number:03d}" for number in range(1, 21)}
        wanted = always | vector | _MODE_RULES[self.mode]
        return wanted - _NEEDS_ENV_FNS if self.vectorization_mode == "vector_entry_point" else wanted


TARGETS = [
    _Target("make_vec-sync-CartPole", "CartPole-v1", AutoresetMode.NEXT_STEP, "sync"),
    _Target("make_vec-async-CartPole", "CartPole-v1", AutoresetMode.NEXT_STEP, "async"),
    _Target("make_vec-vector_entry_point-CartPole", "CartPole-v1", AutoresetMode.NEXT_STEP, "vector_entry_point"),
    _Target("SyncVectorEnv-Blackjack-SameStep", sync_blackjack_same_step, AutoresetMode.SAME_STEP),
    _Target("AsyncVectorEnv-Blackjack-Disabled-pickled", async_blackjack_disabled_pickled, AutoresetMode.DISABLED),
]


@pytest.mark.parametrize("case", TARGETS, ids=lambda case: case.name)
def test_the_suite_passes_on_the_reference_vector_env(case: _Target) -> None:
    # raise_on="should": a violated MUST or SHOULD rule, or a check that errored, fails here with the suite's message.
    report = check_env(case.target, kind="vector", vectorization_mode=case.vectorization_mode, raise_on="should")
    assert report.ok and not report.warned and not report.errors, str(report)
    passed = {result.rule for result in report.passed}
    unchecked = sorted(case.must_pass - passed)
    assert unchecked == [], f"the suite did not check {unchecked} on {case.name}:\n{report}"
