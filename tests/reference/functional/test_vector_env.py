"""FunctionalVectorEnv: equal to independent FunctionalEnvs (random streams included), NEXT_STEP, API errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec import AutoresetMode
from gymspec.errors import ClosedEnvironmentError, ResetNeeded, UnsupportedMode
from reference.envs.functional.cartpole import CartPoleFunctional
from reference.functional import FunctionalEnv, FunctionalVectorEnv
from reference.spaces import Box, MultiDiscrete
from tests.reference.functional._toy import NoisyWalk
from tests.reference._equality import assert_identical
from tests.reference.functional._vector_model import SingleModel

seeds = st.integers(0, 2**40)


def walk_batches(num_envs: int, count: int) -> st.SearchStrategy[list[np.ndarray[Any, Any]]]:
    batch = st.lists(st.integers(0, 2), min_size=num_envs, max_size=num_envs).map(np.array)
    return st.lists(batch, min_size=1, max_size=count)


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[int, int, int, list[np.ndarray[Any, Any]], int]:
    num_envs = draw(st.integers(1, 5))
    return num_envs, draw(seeds), draw(st.integers(0, 6)), draw(walk_batches(num_envs, 40)), draw(st.integers(1, 64))


@settings(max_examples=40, deadline=None)
@given(scenario=scenarios())
def test_equals_independent_functional_envs(scenario: tuple[int, int, int, list[Any], int]) -> None:
    num_envs, seed, limit, batches, prefetch = scenario
    vec = FunctionalVectorEnv(NoisyWalk(), num_envs, max_episode_steps=limit, prefetch=prefetch)
    model = SingleModel(lambda: FunctionalEnv(NoisyWalk()), num_envs, limit)
    model.compare_reset(vec, seed)
    for t, actions in enumerate(batches):
        model.compare_step(vec, actions, f"step {t}")
    model.compare_reset(vec, None)  # an unseeded reset continues every sub-env's generator
    model.compare_step(vec, batches[0], "after unseeded reset")


@settings(max_examples=25, deadline=None)
@given(
    num_envs=st.integers(2, 4),
    seed_list=st.lists(st.one_of(st.none(), seeds), min_size=4, max_size=4),
    masks=st.lists(st.lists(st.booleans(), min_size=4, max_size=4).filter(any), min_size=1, max_size=4),
    data=st.data(),
)
def test_seed_lists_and_partial_resets_match_single_envs(
    num_envs: int, seed_list: list[int | None], masks: list[list[bool]], data: st.DataObject
) -> None:
    vec = FunctionalVectorEnv(NoisyWalk(), num_envs, max_episode_steps=4)
    model = SingleModel(lambda: FunctionalEnv(NoisyWalk()), num_envs, 4)
    model.compare_reset(vec, 11)
    for k, mask in enumerate(masks):
        for t, actions in enumerate(data.draw(walk_batches(num_envs, 5))):
            model.compare_step(vec, actions, f"round {k} step {t}")
        mask_arr = np.array(mask[:num_envs])
        if not mask_arr.any():
            continue
        model.compare_reset(vec, seed_list[:num_envs], mask_arr)


def test_next_step_autoreset_ignores_the_action_and_zeroes_the_outputs() -> None:
    vec = FunctionalVectorEnv(CartPoleFunctional(), 3, max_episode_steps=0)
    vec.reset(seed=0)
    pushes = np.array([1, 1, 0])
    ended = np.zeros(3, dtype=bool)
    for _ in range(200):
        obs, rewards, terminations, _, _ = vec.step(pushes)
        if ended.any():
            assert (rewards[ended] == 0.0).all() and not terminations[ended].any()
            assert (np.abs(obs[ended]) <= 0.05).all()  # fresh initial states
            return
        ended = terminations
    pytest.fail("no episode ended")


def test_truncation_counts_steps_per_sub_env() -> None:
    vec = FunctionalVectorEnv(CartPoleFunctional(), 2, max_episode_steps=3)
    vec.reset(seed=5)
    flags = [vec.step(np.array([0, 1]))[3].tolist() for _ in range(5)]
    assert flags == [[False, False], [False, False], [True, True], [False, False], [False, False]]


def test_spaces_metadata_and_state() -> None:
    vec = FunctionalVectorEnv(CartPoleFunctional(), 4)
    assert vec.num_envs == 4
    assert isinstance(vec.observation_space, Box) and vec.observation_space.shape == (4, 4)
    assert isinstance(vec.action_space, MultiDiscrete) and vec.action_space.shape == (4,)
    assert vec.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    before: object = vec.state
    assert before is None
    obs, info = vec.reset(seed=1)
    assert vec.observation_space.contains(obs) and info == {}
    state: object = vec.state
    assert isinstance(state, np.ndarray) and state.shape == (4, 4)
    assert FunctionalVectorEnv(CartPoleFunctional(), 1, metadata={"autoreset_mode": "NextStep"}).metadata


def test_infos_are_batched_with_masks() -> None:
    vec = FunctionalVectorEnv(NoisyWalk(), 3)
    _, info = vec.reset(seed=2)
    assert info["norm"].shape == (3,) and info["_norm"].tolist() == [True] * 3
    _, _, _, _, info = vec.step(np.array([0, 1, 2]))
    assert info["moved"].tolist() == [True, False, True] and info["_moved"].all()
    assert info["nested"]["x"].shape == (3,) and info["_nested"].all() and info["nested"]["_x"].all()


def test_constructor_errors() -> None:
    with pytest.raises(ValueError, match="num_envs must be a positive int"):
        FunctionalVectorEnv(NoisyWalk(), 0)
    with pytest.raises(ValueError, match="max_episode_steps must be an int >= 0"):
        FunctionalVectorEnv(NoisyWalk(), 1, max_episode_steps=-1)
    with pytest.raises(ValueError, match="must be AutoresetMode.NEXT_STEP"):
        FunctionalVectorEnv(NoisyWalk(), 1, metadata={"autoreset_mode": AutoresetMode.SAME_STEP})
    with pytest.raises(UnsupportedMode):
        FunctionalVectorEnv(NoisyWalk(), 1, render_mode="rgb_array")


def test_state_errors_and_close() -> None:
    vec = FunctionalVectorEnv(CartPoleFunctional(), 2)
    with pytest.raises(ResetNeeded):
        vec.step(np.array([0, 1]))
    with pytest.raises(ResetNeeded, match="must follow a full reset"):
        vec.reset(options={"reset_mask": np.array([True, False])})
    with pytest.raises(ValueError, match="2 entries"):
        vec.reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="non-negative"):
        vec.reset(seed=[1, -2])
    assert vec.state is None  # a rejected seed list leaves the env untouched
    vec.close()
    vec.close()
    with pytest.raises(ClosedEnvironmentError):
        vec.reset()
    with pytest.raises(ClosedEnvironmentError):
        vec.step(np.array([0, 1]))


def test_render_returns_one_frame_per_sub_env() -> None:
    vec = FunctionalVectorEnv(CartPoleFunctional(), 3, render_mode="rgb_array")
    vec.reset(seed=0)
    frames = vec.render()
    assert frames is not None and len(frames) == 3
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.shape == (400, 600, 3) and frame.dtype == np.uint8
    vec.close()
    quiet = FunctionalVectorEnv(CartPoleFunctional(), 1)
    quiet.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert quiet.render() is None


def test_a_transition_returning_its_input_is_not_corrupted_by_autoreset() -> None:
    class Frozen(NoisyWalk):
        def transition(self, state: Any, action: Any, rng: Any, params: Any = None) -> Any:
            return state

        def terminal(self, state: Any, rng: Any, params: Any = None) -> Any:
            return np.ones(state.shape[:-1], dtype=bool)

    vec = FunctionalVectorEnv(Frozen(), 2)
    vec.reset(seed=0)
    vec.step(np.array([1, 1]))
    before = vec.state
    assert before is not None
    kept = before.copy()
    vec.step(np.array([1, 1]))  # autoresets both rows
    assert_identical(before, kept, "previous state")
