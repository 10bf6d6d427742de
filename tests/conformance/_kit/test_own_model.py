"""Tests for :mod:`conformance._kit.own_model`: a vector env's own ``num_envs=1`` copies model its sub-envs when it
seeds them as copies, are refused when it does not, and route what a shared generator explains to VEC-023."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance._engine.case import Case
from conformance._engine.handles import Handle
from conformance._engine.record import Trace
from conformance._engine.watchdog import Watchdog
from conformance._kit import vector_rollout
from conformance._kit.autoreset_model import GENERIC, OWN, Problem, VectorModel
from conformance._kit.own_model import OneCopy, OwnCopies, refusal
from conformance._kit.vector_rollout import VecRecord
from conformance.equality import value_difference
from gymspec import AutoresetMode
from tests.meta.broken_vector import copies, direct

_N = 3


class _State:
    """Stands for a target's state (the key of the refusal cache)."""


class _Case:
    """The part of :class:`~conformance._engine.case.Case` the copies use."""

    def __init__(self, cls: Any, watchdog: Watchdog) -> None:
        self.cls = cls
        self.state = _State()
        self.trace = Trace()
        self.watchdog = watchdog

    def make(self, var: str = "env", **kwargs: Any) -> Handle:
        return Handle(self.cls(**kwargs), var, self.trace, self.watchdog)

    def wrap(self, obj: Any, var: str, expression: str, *, imports: Any = (), counted: bool = True) -> Handle:
        return Handle(obj, var, self.trace, self.watchdog)

    def note(self, line: str, *, imports: Any = ()) -> None:
        pass


@pytest.fixture(scope="module")
def watchdog() -> Iterator[Watchdog]:
    dog = Watchdog(10.0)
    yield dog
    dog.shutdown()


def _actions(seed: int, steps: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 3, _N) for _ in range(steps)]


def _follow(cls: Any, seed: int, steps: int, watchdog: Watchdog) -> tuple[list[Problem], VectorModel, Case]:
    case = cast(Case, _Case(cls, watchdog))
    env = cls(_N)
    mode = cls.mode
    handle = Handle(env, "env", Trace(), watchdog)
    own = OwnCopies(case, "env", _N, mode, (env.single_observation_space, env.single_action_space))
    model = VectorModel(mode, _N, env.single_observation_space, own)
    found: list[Problem] = []

    def on_record(record: VecRecord) -> None:
        if record.kind == "reset":
            found.extend(model.reset(record.arg, record.obs_copy, record.info_copy, record.where()))
        elif record.kind == "partial":
            found.extend(model.partial(record.arg, record.obs_copy, record.info_copy, record.where()))
        else:
            result = (record.obs_copy, record.rewards, record.terminations, record.truncations, record.info_copy)
            found.extend(model.step(record.arg, env.single_action_space, result, record.where()))

    vector_rollout.run(handle, seed, _actions(seed, steps), _N, mode, on_record=on_record)
    return found, model, case


@settings(max_examples=10, deadline=None)
@given(st.sampled_from([copies.Lanes, copies.LanesSameStep, copies.LanesDisabled]), st.integers(0, 2**16))
def test_one_copy_is_the_sub_env_alone(cls: Any, seed: int) -> None:
    env, ones = cls(_N), [OneCopy(cls(1), cls.mode) for _ in range(_N)]
    obs, _ = env.reset(seed=seed)
    for i, one in enumerate(ones):
        assert value_difference(one.reset(seed=seed + i)[0], obs[i]) is None
    for actions in _actions(seed, 30):
        obs, rewards, terms, truncs, info = env.step(actions)
        for i, one in enumerate(ones):
            if cls.mode is AutoresetMode.NEXT_STEP and one._ended:  # noqa: SLF001 - the reset step
                row, reward, ended = one.reset()[0], 0.0, (False, False)
            else:
                row, reward, term, trunc, _ = one.step(actions[i])
                ended = (term, trunc)
                if cls.mode is AutoresetMode.SAME_STEP and (term or trunc):
                    assert value_difference(row, info["final_obs"][i]) is None
                    row = one.reset()[0]
            assert value_difference(row, obs[i]) is None
            assert reward == rewards[i] and ended == (terms[i], truncs[i])
        if cls.mode is AutoresetMode.DISABLED and (terms | truncs).any():
            mask = terms | truncs
            env.reset(options={"reset_mask": mask})
            for row_index in np.flatnonzero(mask):
                ones[int(row_index)].reset()


@pytest.mark.parametrize("cls", [copies.Lanes, copies.LanesSameStep, copies.LanesDisabled])
def test_copies_model_correct_envs_exactly(cls: Any, watchdog: Watchdog) -> None:
    found, model, case = _follow(cls, 3, 60, watchdog)
    assert found == [] and model.established and model.ever_exact and refusal(case) is None


def test_a_target_that_shares_one_generator_is_refused(watchdog: Watchdog) -> None:
    found, model, case = _follow(direct.Slide, 3, 40, watchdog)
    assert found == [] and not model.ever_exact
    reason = refusal(case)
    assert reason is not None and "does not seed its sub-envs as copies" in reason
    assert reason in model.why_not_exact()


def test_shared_noise_is_vec_023_and_no_autoreset_rule(watchdog: Watchdog) -> None:
    found, _, _ = _follow(copies.LanesSharedNoise, 3, 60, watchdog)
    assert found and all(problem.rules == (OWN,) for problem in found), found[:3]


@pytest.mark.parametrize(("cls", "rule"), [(copies.LanesOthersWait, "AUTORESET-004"),
                                          (copies.LanesPartialClearsOthers, "AUTORESET-009")])
def test_cross_talk_is_the_autoreset_rule(cls: Any, rule: str, watchdog: Watchdog) -> None:
    found: list[Problem] = []
    for seed in range(5):
        found += _follow(cls, seed, 60, watchdog)[0]
    assert any(rule in problem.rules and GENERIC in problem.rules for problem in found), found[:3]
