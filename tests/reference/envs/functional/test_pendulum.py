"""Functional Pendulum: bit-identical to the class-based PendulumEnv, batch == rows, FUNC rules, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction
from reference.envs.classic_control.pendulum import PendulumEnv
from reference.envs.functional.pendulum import (
    PendulumFunctional,
    PendulumFunctionalEnv,
    PendulumFunctionalVectorEnv,
    PendulumParams,
)
from tests.reference.envs._differential import box_actions, run_lockstep
from tests.reference.envs.functional._func_rules import check_batch_matches_rows, check_batched_initial, check_rollout
from tests.reference.functional._vector_model import SingleModel

seeds = st.integers(0, 2**32 - 1)
float64_actions = st.lists(
    st.floats(-3, 3).map(lambda v: np.array([v], dtype=np.float64)), min_size=20, max_size=100
)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, actions=st.one_of(box_actions(-2.0, 2.0), float64_actions))
def test_matches_class_based_pendulum(seed: int, actions: list[Any]) -> None:
    ours, theirs = PendulumFunctionalEnv(), PendulumEnv()
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    run_lockstep(ours, theirs, seed, actions)


def test_matches_class_based_pendulum_on_many_steps() -> None:
    # Long rollouts reach the rare squares where libm's pow rounds differently from x * x.
    rng = np.random.default_rng(0)
    actions = list(rng.uniform(-2.5, 2.5, size=(3000, 1)).astype(np.float32))
    run_lockstep(PendulumFunctionalEnv(g=9.81), PendulumEnv(g=9.81), 17, actions)


@settings(max_examples=10, deadline=None)
@given(num_envs=st.integers(1, 5), seed=seeds, data=st.data())
def test_vector_env_equals_independent_envs(num_envs: int, seed: int, data: st.DataObject) -> None:
    torque = st.floats(-2.5, 2.5, width=32)
    batch = st.lists(torque, min_size=num_envs, max_size=num_envs).map(
        lambda v: np.array(v, dtype=np.float32).reshape(-1, 1)
    )
    vec = PendulumFunctionalVectorEnv(num_envs, max_episode_steps=7)
    model = SingleModel(PendulumFunctionalEnv, num_envs, 7)
    model.compare_reset(vec, seed)
    for t, actions in enumerate(data.draw(st.lists(batch, min_size=10, max_size=40))):
        model.compare_step(vec, actions, f"step {t}")


@settings(max_examples=25, deadline=None)
@given(
    rows=st.integers(1, 8).flatmap(
        lambda n: st.lists(
            st.tuples(st.floats(-10, 10), st.floats(-8, 8), st.floats(-3, 3, width=32)), min_size=n, max_size=n
        )
    ),
    float32=st.booleans(),
)
def test_batched_calls_equal_row_calls(rows: list[tuple[float, float, float]], float32: bool) -> None:
    states = np.array([[th, thdot] for th, thdot, _ in rows])
    actions = np.array([[u] for _, _, u in rows], dtype=np.float32 if float32 else np.float64)
    check_batch_matches_rows(PendulumFunctional(), states, actions)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, actions=box_actions(-2.0, 2.0, min_size=10, max_size=40))
def test_func_rules(seed: int, actions: list[Any]) -> None:  # FUNC-002..004, 006..010
    check_rollout(PendulumFunctional(), seed, actions)
    check_batched_initial(PendulumFunctional(), [seed, 3])


def test_render_image_frame() -> None:  # FUNC-012
    env = PendulumFunctional()
    canvas = env.render_init()
    canvas, frame = env.render_image(np.array([0.3, 0.0]), canvas)
    assert frame.dtype == np.uint8 and frame.shape == (500, 500, 3)
    assert env.render_image(np.array([0.3, 0.0]), env.render_init(screen_dim=64))[1].shape == (64, 64, 3)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        env.render_image(np.zeros((2, 2)), canvas)
    with pytest.raises(TypeError, match="screen_dim"):
        env.render_init(size=3)
    env.render_close(canvas)
    rendered = PendulumFunctionalEnv(render_mode="rgb_array")
    rendered.reset(seed=0)
    shown = rendered.render()
    assert isinstance(shown, np.ndarray) and shown.shape == (500, 500, 3)
    rendered.close()


@pytest.mark.parametrize("action", [np.float32(1.0), np.zeros(0, dtype=np.float32), np.array(["a"])])
def test_invalid_actions(action: Any) -> None:
    env = PendulumFunctionalEnv()
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match="PendulumFunctional action must"):
        env.step(action)


def test_never_terminates_and_params() -> None:
    env = PendulumFunctional({"g": 9.81})
    assert env.default_params == PendulumParams(g=9.81)
    assert env.terminal(np.zeros(2)) is np.False_
    assert env.terminal(np.zeros((3, 2))).tolist() == [False] * 3
    with pytest.raises(ValueError, match="max_torque must be >= 0"):
        PendulumParams(max_torque=-1.0)
    with pytest.raises(ValueError, match="screen_dim must be a positive int"):
        PendulumParams(screen_dim=0)
    with pytest.raises(TypeError, match="options must name PendulumParams fields"):
        PendulumFunctionalEnv(gravity=9.81)
