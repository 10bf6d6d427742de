"""Tests for DiscretizeObservation and DiscretizeAction: the same cells as Gymnasium's, and the round trips."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.envs.classic_control.mountain_car import MountainCarEnv
from reference.envs.classic_control.pendulum import PendulumEnv
from reference.spaces import Box, Discrete, MultiDiscrete
from reference.wrappers import DiscretizeAction, DiscretizeObservation, TransformAction, TransformObservation
from tests.reference.wrappers._differential import compare_rollouts, gym_env, gym_wrapper
from tests.reference.wrappers._envs import BoxEnv

_DIMS = st.integers(1, 4)


def _bins(dims: int) -> st.SearchStrategy[int | tuple[int, ...]]:
    return st.integers(1, 6) | st.tuples(*[st.integers(1, 6)] * dims)


def _box(dims: int, low: float = -3.0, high: float = 5.0) -> Box[Any]:
    return Box(low, high, shape=(dims,), dtype=np.float32)


@settings(max_examples=40, deadline=None)
@given(dims=_DIMS, data=st.data(), multidiscrete=st.booleans())
def test_observation_cells_match_gymnasium(dims: int, data: st.DataObject, multidiscrete: bool) -> None:
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    bins = data.draw(_bins(dims))
    values = data.draw(st.lists(st.floats(-4.0, 6.0, width=32), min_size=dims, max_size=dims))
    obs = np.array(values, dtype=np.float32)
    ours = DiscretizeObservation(TransformObservation(BoxEnv(), lambda o: o, _box(dims)), bins, multidiscrete)
    theirs_env = gym_env("PendulumEnv")
    theirs_env.observation_space = gym_spaces.Box(-3.0, 5.0, shape=(dims,), dtype=np.float32)
    theirs = gym_wrapper("DiscretizeObservation")(theirs_env, bins, multidiscrete)
    assert repr(ours.observation_space) == repr(theirs.observation_space)
    mine, gyms = ours.observation(obs), theirs.observation(obs)
    np.testing.assert_array_equal(mine, gyms)
    assert mine in ours.observation_space
    for a, b in zip(ours.revert_observation(mine), theirs.revert_observation(gyms)):
        np.testing.assert_array_equal(a, b)


@settings(max_examples=40, deadline=None)
@given(dims=_DIMS, data=st.data(), multidiscrete=st.booleans())
def test_action_centres_match_gymnasium(dims: int, data: st.DataObject, multidiscrete: bool) -> None:
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    bins = data.draw(_bins(dims))
    ours = DiscretizeAction(TransformAction(BoxEnv(), lambda a: a, _box(dims)), bins, multidiscrete)
    theirs_env = gym_env("PendulumEnv")
    theirs_env.action_space = gym_spaces.Box(-3.0, 5.0, shape=(dims,), dtype=np.float32)
    theirs = gym_wrapper("DiscretizeAction")(theirs_env, bins, multidiscrete)
    assert repr(ours.action_space) == repr(theirs.action_space)
    ours.action_space.seed(data.draw(st.integers(0, 2**31)))
    action = ours.action_space.sample()
    centre = ours.action(action)
    np.testing.assert_array_equal(centre, theirs.action(action))
    assert centre.dtype == np.float32 and centre in _box(dims)
    np.testing.assert_array_equal(ours.revert_action(centre), action)
    np.testing.assert_array_equal(ours.revert_action(centre), theirs.revert_action(centre))


def test_discretize_rollouts_match_gymnasium() -> None:
    compare_rollouts(
        DiscretizeObservation(MountainCarEnv(), bins=(7, 5)),
        gym_wrapper("DiscretizeObservation")(gym_env("MountainCarEnv"), bins=(7, 5)),
        [0, 2, 1, 2, 2, 0] * 5,
    )
    compare_rollouts(
        DiscretizeAction(PendulumEnv(), bins=9, multidiscrete=True),
        gym_wrapper("DiscretizeAction")(gym_env("PendulumEnv"), bins=9, multidiscrete=True),
        [np.array([i % 9]) for i in range(30)],
    )


def test_spaces_and_edges() -> None:
    env = DiscretizeObservation(MountainCarEnv(), bins=10)
    assert env.observation_space == Discrete(100)
    assert DiscretizeObservation(MountainCarEnv(), bins=(3, 4), multidiscrete=True).observation_space == MultiDiscrete(
        [3, 4]
    )
    space = MountainCarEnv().observation_space
    assert isinstance(space, Box)
    low, high = space.low, space.high
    assert env.observation(high) == 99 and env.observation(low) == 0
    assert env.observation(high + 1) == 99 and env.observation(low - 1) == 0  # outside: the edge cells


@pytest.mark.parametrize(
    ("space", "bins", "error", "match"),
    [
        (Discrete(3), 3, TypeError, "must be a Box"),
        (Box(-np.inf, 1.0, shape=(1,)), 3, ValueError, "must be bounded"),
        (Box(0.0, 1.0, shape=(2,)), (3,), ValueError, "one count per dimension"),
        (Box(0.0, 1.0, shape=(1,)), 0, ValueError, "at least 1"),
        (Box(0.0, 1.0, shape=(1,)), 2.5, TypeError, "int or a tuple of ints"),
    ],
)
def test_invalid_arguments(space: Any, bins: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        DiscretizeObservation(TransformObservation(BoxEnv(), lambda o: o, space), bins)
    with pytest.raises(error, match=match):
        DiscretizeAction(TransformAction(BoxEnv(), lambda a: a, space), bins)
