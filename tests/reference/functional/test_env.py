"""FunctionalEnv: the documented random-stream scheme (FUNC-005), seeding, rendering and errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import ResetNeeded, UnsupportedMode
from reference.envs.functional.cartpole import CartPoleFunctional
from reference.functional import FunctionalEnv
from reference.utils import seeding
from tests.reference._equality import assert_identical
from tests.reference.functional._toy import NoisyWalk, WalkParams

_Step = tuple[Any, ...]

actions = st.lists(st.integers(0, 2), min_size=1, max_size=60)


def direct_episodes(func_env: NoisyWalk, seed: int, acts: list[int], params: WalkParams | None = None) -> Iterator[_Step]:
    """Drive the pure functions by hand, following FunctionalEnv's documented scheme."""
    kw: dict[str, Any] = {} if params is None else {"params": params}
    np_random = seeding.np_random(seed)[0]
    state = func_env.initial(np_random, **kw)
    rng = np_random.spawn(1)[0]
    yield ("reset", func_env.observation(state, rng, **kw), func_env.state_info(state, **kw))
    for action in acts:
        next_state = func_env.transition(state, action, rng, **kw)
        reward = func_env.reward(state, action, next_state, rng, **kw)
        terminal = func_env.terminal(next_state, rng, **kw)
        obs = func_env.observation(next_state, rng, **kw)
        info = func_env.transition_info(state, action, next_state, **kw)
        yield ("step", obs, float(reward), bool(terminal), info)
        state = next_state
        if terminal:
            state = func_env.initial(np_random, **kw)
            rng = np_random.spawn(1)[0]
            yield ("reset", func_env.observation(state, rng, **kw), func_env.state_info(state, **kw))


def adapter_episodes(env: FunctionalEnv[Any, Any, Any, Any, Any], seed: int, acts: list[int]) -> Iterator[_Step]:
    obs, info = env.reset(seed=seed)
    yield ("reset", obs, info)
    for action in acts:
        obs, reward, terminated, truncated, info = env.step(action)
        assert truncated is False
        yield ("step", obs, reward, terminated, info)
        if terminated:
            yield ("reset", *env.reset())


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), acts=actions, step=st.sampled_from([None, 0.4]))
def test_adapter_equals_direct_calls(seed: int, acts: list[int], step: float | None) -> None:  # FUNC-005
    params = None if step is None else WalkParams(step)
    env = FunctionalEnv(NoisyWalk(), params=params)
    assert_identical(list(adapter_episodes(env, seed, acts)), list(direct_episodes(NoisyWalk(), seed, acts, params)))


def test_seeding_replays_and_unseeded_resets_continue() -> None:
    env = FunctionalEnv(NoisyWalk())
    first = list(adapter_episodes(env, 3, [2] * 20))
    again = list(adapter_episodes(env, 3, [2] * 20))
    assert_identical(first, again)
    other = FunctionalEnv(NoisyWalk())
    assert_identical(list(adapter_episodes(other, 3, [2] * 20)), first)
    # An unseeded reset continues np_random: a new initial state, not the seeded one.
    obs_seeded = env.reset(seed=3)[0]
    assert not np.array_equal(env.reset()[0], obs_seeded)


def test_initial_gets_np_random_itself_and_steps_an_episode_child() -> None:
    seen: dict[str, Any] = {}

    class Spy(NoisyWalk):
        def initial(self, rng: Any, params: WalkParams | None = None) -> Any:
            seen["initial"] = rng
            return super().initial(rng, params)

        def transition(self, state: Any, action: Any, rng: Any, params: WalkParams | None = None) -> Any:
            seen["transition"] = rng
            return super().transition(state, action, rng, params)

    env = FunctionalEnv(Spy())
    env.reset(seed=1)
    env.step(1)
    assert seen["initial"] is env.np_random
    child = seen["transition"]
    assert child is not env.np_random
    assert child.bit_generator.seed_seq.spawn_key == (0,)
    env.reset()
    env.step(1)
    assert seen["transition"].bit_generator.seed_seq.spawn_key == (1,)


def test_params_default_and_none() -> None:
    env = FunctionalEnv(NoisyWalk())
    assert isinstance(env.params, WalkParams) and env.params.step == 0.2
    calls: list[dict[str, Any]] = []

    def recording(fn: Any) -> Any:
        def inner(*args: Any, **kwargs: Any) -> Any:
            calls.append(kwargs)
            return fn(*args, **kwargs)

        return inner

    walk = NoisyWalk()
    walk.default_params = None
    walk.transform(recording)
    bare = FunctionalEnv(walk, params=None)
    assert bare.params is None
    bare.reset(seed=0)
    with pytest.raises(TypeError, match="params must be WalkParams"):
        bare.step(1)  # the toy's own default is an error: proves params were not passed
    assert calls and all(kwargs == {} for kwargs in calls)


def test_step_and_render_before_reset_raise_reset_needed() -> None:
    env = FunctionalEnv(CartPoleFunctional(), render_mode="rgb_array")
    with pytest.raises(ResetNeeded, match="step"):
        env.step(0)
    with pytest.raises(ResetNeeded, match="render"):
        env.render()


def test_default_metadata_follows_rendering_support() -> None:
    assert FunctionalEnv(NoisyWalk()).metadata == {"render_modes": []}
    assert FunctionalEnv(CartPoleFunctional()).metadata == {"render_modes": ["rgb_array"], "render_fps": 30}
    with pytest.raises(UnsupportedMode, match="render_mode must be None or one of"):
        FunctionalEnv(NoisyWalk(), render_mode="rgb_array")
    with pytest.raises(UnsupportedMode, match="only produces frames"):
        FunctionalEnv(CartPoleFunctional(), metadata={"render_modes": ["human"]}, render_mode="human")
    with pytest.raises(TypeError, match="metadata must be a mapping"):
        FunctionalEnv(NoisyWalk(), metadata=["rgb_array"])  # type: ignore[arg-type]


def test_render_rgb_array_and_close() -> None:
    env = FunctionalEnv(CartPoleFunctional(), render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == (400, 600, 3)
    env.step(1)
    second = env.render()
    assert isinstance(second, np.ndarray) and not np.shares_memory(frame, second)
    env.close()
    env.close()  # idempotent
    assert isinstance(env.render(), np.ndarray)  # a new render state is created on demand


def test_render_without_mode_warns_and_returns_none() -> None:
    env = FunctionalEnv(CartPoleFunctional())
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None
