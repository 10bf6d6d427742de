"""Functional CartPole: bit-identical to the class-based CartPoleEnv, batch == rows, FUNC rules, errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.envs.functional.cartpole import (
    CartPoleFunctional,
    CartPoleFunctionalEnv,
    CartPoleFunctionalVectorEnv,
    CartPoleParams,
)
from reference.functional import FunctionalEnv
from reference.spaces import Box
from tests.reference.envs._differential import discrete_actions, run_lockstep
from tests.reference.envs.functional._func_rules import check_batch_matches_rows, check_batched_initial, check_rollout
from tests.reference.functional._vector_model import SingleModel

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, actions=discrete_actions(2), sutton_barto=st.booleans())
def test_matches_class_based_cartpole(seed: int, actions: list[int], sutton_barto: bool) -> None:
    ours = CartPoleFunctionalEnv(sutton_barto_reward=sutton_barto)
    theirs = CartPoleEnv(sutton_barto_reward=sutton_barto)
    assert ours.observation_space == theirs.observation_space and ours.action_space == theirs.action_space
    run_lockstep(ours, theirs, seed, actions)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, actions=discrete_actions(2, max_size=100))
def test_matches_class_based_cartpole_with_semi_implicit_euler(seed: int, actions: list[int]) -> None:
    ours = CartPoleFunctionalEnv(kinematics_integrator="semi-implicit")
    theirs = CartPoleEnv()
    theirs.kinematics_integrator = "semi-implicit euler"
    run_lockstep(ours, theirs, seed, actions)


@settings(max_examples=6, deadline=None)
@given(seed=seeds, actions=discrete_actions(2, min_size=20, max_size=40))
def test_rendering_does_not_change_the_trajectory(seed: int, actions: list[int]) -> None:  # RENDER-014
    rendered = CartPoleFunctionalEnv(render_mode="rgb_array")
    plain = CartPoleFunctionalEnv()

    class Rendering(CartPoleFunctionalEnv):
        def step(self, action: Any) -> Any:
            rendered.render()
            return rendered.step(action)

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            result = rendered.reset(seed=seed, options=options)
            rendered.render()
            return result

    run_lockstep(Rendering(), plain, seed, actions)
    rendered.close()


@settings(max_examples=15, deadline=None)
@given(num_envs=st.integers(1, 6), seed=seeds, limit=st.integers(0, 30), data=st.data())
def test_vector_env_equals_independent_envs(num_envs: int, seed: int, limit: int, data: st.DataObject) -> None:
    batch = st.lists(st.integers(0, 1), min_size=num_envs, max_size=num_envs).map(np.array)
    vec = CartPoleFunctionalVectorEnv(num_envs, max_episode_steps=limit)
    model = SingleModel(CartPoleFunctionalEnv, num_envs, limit)
    model.compare_reset(vec, seed)
    for t, actions in enumerate(data.draw(st.lists(batch, min_size=20, max_size=80))):
        model.compare_step(vec, actions, f"step {t}")


@settings(max_examples=25, deadline=None)
@given(
    states=st.integers(1, 8).flatmap(
        lambda n: st.lists(st.lists(st.floats(-3, 3), min_size=4, max_size=4), min_size=n, max_size=n)
    ),
    data=st.data(),
    sutton_barto=st.booleans(),
)
def test_batched_calls_equal_row_calls(states: list[list[float]], data: st.DataObject, sutton_barto: bool) -> None:
    actions = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(states), max_size=len(states))))
    check_batch_matches_rows(CartPoleFunctional({"sutton_barto_reward": sutton_barto}), np.array(states), actions)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, actions=st.lists(st.integers(0, 1), min_size=10, max_size=60))
def test_func_rules(seed: int, actions: list[int]) -> None:  # FUNC-002..004, 006..010
    check_rollout(CartPoleFunctional(), seed, actions)
    check_batched_initial(CartPoleFunctional(), [seed, seed + 1, 7])


def test_render_image_frame() -> None:  # FUNC-012
    env = CartPoleFunctional()
    canvas = env.render_init()
    state = env.initial(np.random.default_rng(0))
    canvas, frame = env.render_image(state, canvas)
    assert frame.dtype == np.uint8 and frame.shape == (400, 600, 3)
    small = env.render_init(screen_width=300, screen_height=200)
    assert env.render_image(state, small)[1].shape == (200, 300, 3)
    with pytest.raises(ValueError, match=r"render_image state must have shape \(4,\)"):
        env.render_image(np.stack([state, state]), canvas)
    with pytest.raises(TypeError, match="screen_width/screen_height"):
        env.render_init(colour="red")
    env.render_close(canvas)
    env.render_close(small)


def test_pygame_audio_is_never_started() -> None:
    pygame = pytest.importorskip("pygame")
    env = CartPoleFunctionalEnv(render_mode="rgb_array")
    env.reset(seed=0)
    env.render()
    env.close()
    assert pygame.mixer.get_init() is None


@pytest.mark.parametrize(
    ("action", "match"),
    [(2, "must be 0 or 1"), (-1, "must be 0 or 1"), (0.5, "integer 0 or 1"), (np.array([0, 1]), "integer 0 or 1")],
)
def test_invalid_actions(action: Any, match: str) -> None:
    env = CartPoleFunctionalEnv()
    env.reset(seed=0)
    with pytest.raises(InvalidAction, match=match):
        env.step(action)
    with pytest.raises(ValueError, match=match):
        env.step(action)


def test_batch_action_shape_must_match() -> None:
    vec = CartPoleFunctionalVectorEnv(3)
    vec.reset(seed=0)
    with pytest.raises(InvalidAction, match=r"shape \(3,\)"):
        vec.step(np.array([0, 1]))


def test_params_and_options() -> None:
    env = CartPoleFunctional({"gravity": 1.0, "x_threshold": 1.0})
    assert env.default_params == CartPoleParams(gravity=1.0, x_threshold=1.0)
    assert isinstance(env.observation_space, Box) and env.observation_space.high[0] == 2.0
    assert env.get_default_params(tau=0.01).tau == 0.01 and env.get_default_params().gravity == 1.0
    assert CartPoleParams(masspole=0.2).total_mass == 1.2
    assert FunctionalEnv(env).params is env.default_params
    with pytest.raises(TypeError, match="options must name CartPoleParams fields"):
        CartPoleFunctional({"gravty": 1.0})
    with pytest.raises(TypeError, match="kwargs must be CartPoleParams fields"):
        env.get_default_params(gravty=1.0)
    with pytest.raises(TypeError, match="options must name CartPoleParams fields"):
        CartPoleFunctionalEnv(gravty=1.0)
    with pytest.raises(ValueError, match="kinematics_integrator must be one of"):
        CartPoleParams(kinematics_integrator="rk4")
    with pytest.raises(ValueError, match="screen_width must be a positive int"):
        CartPoleParams(screen_width=0)
    with pytest.raises(TypeError, match="params must be a CartPoleParams"):
        env.terminal(np.zeros(4), None, params="fast")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"state must be a float array of shape \(\.\.\., 4\)"):
        env.observation(np.zeros(3))


@pytest.mark.gymnasium
@settings(max_examples=15, deadline=None)
@given(seed=seeds, actions=discrete_actions(2, max_size=100))
def test_matches_gymnasium_cartpole(seed: int, actions: list[int]) -> None:
    gym_cartpole = pytest.importorskip("gymnasium.envs.classic_control.cartpole")
    run_lockstep(CartPoleFunctionalEnv(), gym_cartpole.CartPoleEnv(), seed, actions)


def test_envs_pickle_through_their_constructor_arguments() -> None:
    import pickle

    env = CartPoleFunctionalEnv(sutton_barto_reward=True)
    clone = pickle.loads(pickle.dumps(env))
    assert isinstance(clone, CartPoleFunctionalEnv) and clone.params == env.params
    vec = pickle.loads(pickle.dumps(CartPoleFunctionalVectorEnv(2, max_episode_steps=9)))
    assert isinstance(vec, CartPoleFunctionalVectorEnv) and vec.num_envs == 2 and vec.max_episode_steps == 9
