"""Tests for reference.wrappers.transform_action."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import error
from reference.envs.classic_control.pendulum import PendulumEnv
from reference.spaces import Box, Discrete
from reference.wrappers import ClipAction, RescaleAction, TransformAction
from tests.reference.wrappers._differential import compare_rollouts, gym_env, gym_wrapper, pendulum_actions
from tests.reference.wrappers._envs import BoxEnv, DiscreteEnv

_FLOATS = st.floats(-100, 100, allow_nan=False, width=32)


def test_transform_action() -> None:
    env: Any = TransformAction(DiscreteEnv(), lambda a: 2 - a, Discrete(3))
    env.reset()
    assert env.step(0)[1] == 2.0
    assert TransformAction(DiscreteEnv(), lambda a: a, None).action_space == Discrete(3)
    with pytest.raises(TypeError, match="func must be callable"):
        TransformAction(DiscreteEnv(), 3, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="action_space must be a Space or None"):
        TransformAction(DiscreteEnv(), lambda a: a, "space")  # type: ignore[arg-type]


@given(action=st.lists(_FLOATS, min_size=2, max_size=2))
@settings(max_examples=40, deadline=None)
def test_clip_action_lands_in_the_inner_space(action: list[float]) -> None:
    env = ClipAction(BoxEnv())
    assert env.action_space == Box(-np.inf, np.inf, (2,), np.float32)
    clipped = env.action(np.asarray(action, np.float32))
    assert clipped in env.env.action_space


@given(min_action=_FLOATS, width=st.floats(0.125, 50, width=32), fraction=st.floats(0, 1))
@settings(max_examples=40, deadline=None)
def test_rescale_action_maps_bounds_onto_bounds(min_action: float, width: float, fraction: float) -> None:
    max_action = min_action + width
    env = RescaleAction(BoxEnv(), min_action=min_action, max_action=max_action)
    low = env.action_space.low  # type: ignore[attr-defined]
    high = env.action_space.high  # type: ignore[attr-defined]
    np.testing.assert_allclose(env.action(low), -1.0, atol=1e-4)
    np.testing.assert_allclose(env.action(high), 1.0, atol=1e-4)
    inner = env.action(low + fraction * (high - low))
    np.testing.assert_allclose(inner, -1.0 + 2.0 * fraction, atol=1e-3)


def test_rescale_action_validates() -> None:
    with pytest.raises(error.InvalidBound, match="min_action must be < max_action"):
        RescaleAction(BoxEnv(), 1.0, 1.0)
    with pytest.raises(ValueError, match="RescaleAction min_action must be <= max_action"):
        RescaleAction(BoxEnv(), 2.0, 1.0)
    with pytest.raises(TypeError, match="must be an int, float or numpy array"):
        RescaleAction(BoxEnv(), "a", 1.0)
    with pytest.raises(ValueError, match="must have the Box shape"):
        RescaleAction(BoxEnv(), np.zeros(3), np.ones(3))
    for wrapper in (ClipAction, lambda e: RescaleAction(e, 0.0, 1.0)):
        with pytest.raises(TypeError, match="action_space must be a Box"):
            wrapper(DiscreteEnv())


_WRAPPERS: dict[str, Any] = {"ClipAction": ClipAction, "RescaleAction": RescaleAction}


@pytest.mark.gymnasium
@pytest.mark.filterwarnings("ignore:.*precision lowered")  # Gymnasium's Box warns; ours casts explicitly
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("ClipAction", {}),
        ("RescaleAction", {"min_action": -1.0, "max_action": 1.0}),
        ("RescaleAction", {"min_action": np.array([0.0], np.float32), "max_action": np.array([5.0], np.float32)}),
    ],
)
def test_matches_gymnasium_on_pendulum(name: str, kwargs: dict[str, Any]) -> None:
    ours = _WRAPPERS[name](PendulumEnv(), **kwargs)
    theirs = gym_wrapper(name)(gym_env("PendulumEnv"), **kwargs)
    compare_rollouts(ours, theirs, pendulum_actions(scale=3.0 if name == "ClipAction" else 1.0))
