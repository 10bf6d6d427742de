"""Tests for :mod:`conformance._kit.autoreset_model`: the model agrees with correct vector envs and catches broken
ones."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance._engine.handles import Handle
from conformance._engine.record import Trace
from conformance._engine.watchdog import Watchdog
from conformance._kit import vector_rollout
from conformance._kit.autoreset_model import Problem, VectorModel, seeds_for
from conformance._kit.vector_rollout import VecRecord
from gymspec import AutoresetMode
from reference.spaces import Box
from tests.meta.broken_vector import autoreset, odd
from tests.meta.broken_vector._base import HopSync

_N = 3
_OBS = Box(-5.0, 5.0, (2,), np.float32)


@pytest.fixture(scope="module")
def watchdog() -> Iterator[Watchdog]:
    dog = Watchdog(10.0)
    yield dog
    dog.shutdown()


def _problems(env: Any, mode: AutoresetMode, seed: int, actions: list[Any], watchdog: Watchdog,
              exact: bool = True) -> list[Problem]:
    trace = Trace()
    handle = Handle(env, "env", trace, watchdog)
    subs = [Handle(fn(), f"sub_{i}", trace, watchdog) for i, fn in enumerate(env.env_fns)] if exact else None
    model = VectorModel(mode, env.num_envs, env.single_observation_space, subs)
    found: list[Problem] = []

    def on_record(record: VecRecord) -> None:
        if record.kind == "reset":
            found.extend(model.reset(record.arg, record.obs_copy, record.info_copy, record.where()))
        elif record.kind == "partial":
            found.extend(model.partial(record.arg, record.obs_copy, record.info_copy, record.where()))
        else:
            result = (record.obs_copy, record.rewards, record.terminations, record.truncations, record.info_copy)
            found.extend(model.step(record.arg, env.single_action_space, result, record.where()))

    vector_rollout.run(handle, seed, actions, env.num_envs, mode, on_record=on_record)
    env.close()
    return found


def _actions(seed: int, steps: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 3, _N) for _ in range(steps)]


@settings(max_examples=10, deadline=None)
@given(st.sampled_from(list(AutoresetMode)), st.integers(0, 2**16), st.booleans())
def test_correct_envs_agree_with_the_model(mode: AutoresetMode, seed: int, exact: bool) -> None:
    dog = Watchdog(10.0)
    try:
        assert _problems(HopSync(_N, mode), mode, seed, _actions(seed, 40), dog, exact) == []
    finally:
        dog.shutdown()


@pytest.mark.parametrize(
    ("cls", "mode", "rule", "exact"),
    [
        (autoreset.Autoreset002NoFinalReward, AutoresetMode.NEXT_STEP, "AUTORESET-002", True),
        (autoreset.Autoreset003RewardOnResetStep, AutoresetMode.NEXT_STEP, "AUTORESET-003", False),
        (autoreset.Autoreset004OthersWait, AutoresetMode.NEXT_STEP, "AUTORESET-004", True),
        (autoreset.Autoreset005FinalObsReturned, AutoresetMode.SAME_STEP, "AUTORESET-005", True),
        (autoreset.Autoreset006NoFinalObs, AutoresetMode.SAME_STEP, "AUTORESET-006", False),
        (autoreset.Autoreset007FinalInfoUnmasked, AutoresetMode.SAME_STEP, "AUTORESET-007", False),
        (autoreset.Autoreset009ResetsEverything, AutoresetMode.DISABLED, "AUTORESET-009", False),
    ],
)
def test_broken_envs_disagree_on_their_rule(cls: Any, mode: AutoresetMode, rule: str, exact: bool,
                                            watchdog: Watchdog) -> None:
    found = _problems(cls(_N), mode, 0, _actions(0, 60), watchdog, exact)
    assert found, "no disagreement found"
    assert any(rule in problem.rules for problem in found), found[:3]
    # What a reproducer asserts about it (tests/meta/test_reproducers.py runs the scripts).
    claim = next(problem for problem in found if rule in problem.rules).claim
    assert claim is not None and claim.kind in ("equal", "unequal", "true") and "latest" in claim.left, claim


def test_seeds_for() -> None:
    assert seeds_for(None, 2) == [None, None]
    assert seeds_for(5, 3) == [5, 6, 7]
    assert seeds_for(np.int64(5), 2) == [5, 6]
    assert seeds_for([1, None], 2) == [1, None]


def test_structural_next_step_prediction_without_sub_envs() -> None:
    model = VectorModel(AutoresetMode.NEXT_STEP, 2, _OBS, None)
    obs = np.zeros((2, 2), dtype=np.float32)
    flags = np.array([False, False])
    assert model.reset(0, obs, {}, "the reset") == []
    ended: tuple[Any, ...] = (obs, np.zeros(2), np.array([True, False]), flags, {})
    assert model.step(np.array([0, 0]), None, ended, "the step at position 1") == []
    not_reset: tuple[Any, ...] = (obs, np.array([1.0, 0.0]), flags, flags, {})
    (problem,) = model.step(np.array([0, 0]), None, not_reset, "the step at position 2")
    assert problem.rules[0] == "AUTORESET-003" and "sub-env 0" in problem.where


@pytest.mark.parametrize("exact", [True, False])
def test_final_obs_equal_to_the_returned_observation_is_no_defect(exact: bool, watchdog: Watchdog) -> None:
    # Issue 37 item 1: sub-envs whose next episode starts where the last one ended return, on every ending step, a
    # final_obs equal to the observation the step returned (Gymnasium's Blackjack does so by chance). Only the single
    # env says what the terminal observation was; without one, nothing is concluded from the equality.
    env = odd.resume_sync_same_step(_N)
    rng = np.random.default_rng(3)
    actions = [rng.integers(0, 2, _N) for _ in range(60)]
    ended = 0

    def count(record: VecRecord) -> None:
        nonlocal ended
        if record.kind == "step":
            ended += int(np.sum(record.terminations))

    vector_rollout.run(Handle(odd.resume_sync_same_step(_N), "env", Trace(), watchdog), 3, actions, _N,
                       AutoresetMode.SAME_STEP, on_record=count)
    assert ended >= 5  # the rollout ends episodes by termination, each with final_obs equal to the returned one
    assert _problems(env, AutoresetMode.SAME_STEP, 3, actions, watchdog, exact) == []
