"""Every wrapper records its constructor arguments, so ``make(env.spec)`` rebuilds the same stack."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import reference.envs  # noqa: F401 - registers the built-in ids
import reference.wrappers as w
from reference.registration import make
from tests.reference._equality import assert_identical


def _layers(env: Any) -> list[str]:
    names = []
    while hasattr(env, "env"):
        names.append(type(env).__name__)
        env = env.env
    return names


_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("CartPole-v1", lambda e: w.DelayObservation(e, delay=2)),
    ("CartPole-v1", lambda e: w.FrameStackObservation(e, 3, padding_type="zero")),
    ("CartPole-v1", lambda e: w.TimeAwareObservation(e, normalize_time=True)),
    ("CartPole-v1", lambda e: w.ReshapeObservation(w.DtypeObservation(e, np.float64), (2, 2))),
    ("CartPole-v1", lambda e: w.StickyAction(e, 0.25, (1, 2))),
    ("CartPole-v1", lambda e: w.RecordEpisodeStatistics(w.Autoreset(e), buffer_length=5)),
    ("Pendulum-v1", lambda e: w.ClipAction(w.RescaleAction(e, min_action=-1.0, max_action=1.0))),
    ("Pendulum-v1", lambda e: w.RescaleObservation(e, np.float32(0), np.float32(1))),
    ("Pendulum-v1", lambda e: w.ClipReward(w.MaxAndSkipObservation(e, skip=2), min_reward=-3.0)),
    ("Pendulum-v1", lambda e: w.FlattenObservation(w.RepeatAction(e, 2))),
]


@pytest.mark.parametrize(("env_id", "wrap"), _CASES)
def test_make_from_spec_rebuilds_the_stack(env_id: str, wrap: Callable[[Any], Any]) -> None:
    env = wrap(make(env_id))
    assert env.spec is not None and all(spec.kwargs is not None for spec in env.spec.additional_wrappers)
    rebuilt = make(env.spec)
    assert _layers(rebuilt) == _layers(env)
    env.action_space.seed(1)
    rebuilt.action_space.seed(1)
    assert_identical(env.reset(seed=5)[0], rebuilt.reset(seed=5)[0])
    for _ in range(5):
        action = env.action_space.sample()
        assert_identical(env.step(action)[0], rebuilt.step(action)[0])
