"""Env and Wrapper: seeding semantics, attribute access through wrapper stacks, space overrides, spec recording."""

from __future__ import annotations

from typing import Any, SupportsFloat, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.core import ActionWrapper, Env, ObservationWrapper, RewardWrapper, Wrapper
from reference.spaces import Box, Discrete
from reference.utils import RecordConstructorArgs

_Info = dict[str, Any]


class CoinEnv(Env[np.ndarray, np.int64]):
    """A trivial env whose observations are draws from its generator."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, render_mode: str | None = None) -> None:
        self.observation_space = Box(0, 1, (2,), dtype=np.float64)
        self.action_space = Discrete(2)
        self.render_mode = render_mode
        self.closed = False
        self.custom = "inner"

    def reset(self, *, seed: int | None = None, options: _Info | None = None) -> tuple[np.ndarray, _Info]:
        super().reset(seed=seed)
        return self.np_random.random(2), {}

    def step(self, action: np.int64) -> tuple[np.ndarray, SupportsFloat, bool, bool, _Info]:
        return self.np_random.random(2), float(action), False, False, {}

    def render(self) -> str:
        return "coin"

    def close(self) -> None:
        self.closed = True


class ScaledObs(ObservationWrapper[np.ndarray, np.int64, np.ndarray], RecordConstructorArgs):
    def __init__(self, env: CoinEnv | Wrapper[Any, Any, Any, Any], factor: float = 2.0) -> None:
        RecordConstructorArgs.__init__(self, factor=factor)
        ObservationWrapper.__init__(self, env)
        self.factor = factor
        self.observation_space = Box(0, factor, (2,), dtype=np.float64)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return observation * self.factor


class NegReward(RewardWrapper[np.ndarray, np.int64]):
    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        return -float(reward)


class FlipAction(ActionWrapper[np.ndarray, np.int64, np.int64]):
    def action(self, action: np.int64) -> np.int64:
        flipped: np.int64 = np.int64(1 - int(action))
        return flipped


# --- Env seeding ---------------------------------------------------------------------------------------------------


def test_seeded_reset_replays_and_unseeded_reset_continues() -> None:
    env = CoinEnv()
    first, _ = env.reset(seed=3)
    after_first = env.step(np.int64(0))[0]
    again, _ = env.reset(seed=3)
    assert np.array_equal(first, again) and np.array_equal(after_first, env.step(np.int64(0))[0])
    assert env.np_random_seed == 3
    continued, _ = env.reset()
    assert not np.array_equal(continued, first)
    assert env.np_random_seed == 3


def test_generator_is_lazy_and_setter_forgets_the_seed() -> None:
    env = CoinEnv()
    assert env._np_random is None
    assert isinstance(env.np_random_seed, int) and env.np_random_seed >= 0
    env.np_random = np.random.default_rng(0)
    assert env.np_random_seed == -1


def test_invalid_seeds_raise() -> None:
    with pytest.raises(ValueError):
        CoinEnv().reset(seed=-1)
    with pytest.raises(TypeError):
        CoinEnv().reset(seed=1.5)  # type: ignore[arg-type]


@pytest.mark.gymnasium
@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**64))
def test_reset_seed_gives_gymnasiums_stream(seed: int) -> None:
    pytest.importorskip("gymnasium")
    import gymnasium

    class GymCoin(gymnasium.Env[Any, Any]):
        def reset(self, *, seed: int | None = None, options: _Info | None = None) -> tuple[Any, _Info]:
            super().reset(seed=seed)
            return self.np_random.random(2), {}

    ours, theirs = CoinEnv(), GymCoin()
    assert np.array_equal(ours.reset(seed=seed)[0], theirs.reset(seed=seed)[0])
    assert ours.np_random_seed == theirs.np_random_seed == seed
    assert ours.np_random.bit_generator.state == theirs.np_random.bit_generator.state


def test_str_and_context_manager() -> None:
    from reference.registration import EnvSpec

    env = CoinEnv()
    assert str(env) == "<CoinEnv instance>"
    env.spec = EnvSpec("Coin-v0", entry_point="tests.reference.test_core:CoinEnv")
    assert str(env) == "<CoinEnv<Coin-v0>>"
    assert str(Wrapper(env)) == repr(Wrapper(env)) == "<Wrapper<CoinEnv<Coin-v0>>>"
    with env as entered:
        assert entered is env
    assert env.closed


# --- Wrapper ---------------------------------------------------------------------------------------------------------


def test_wrapper_requires_an_env_like_object() -> None:
    with pytest.raises(TypeError, match="missing step"):
        Wrapper(object())  # type: ignore[arg-type]

    class Duck:
        custom = 1
        action_space = Discrete(2)
        observation_space = Discrete(3)

        def reset(self, *, seed: int | None = None, options: _Info | None = None) -> tuple[int, _Info]:
            return 0, {}

        def step(self, action: int) -> tuple[int, float, bool, bool, _Info]:
            return 1, 0.0, False, False, {}

        def render(self) -> None:
            return None

        def close(self) -> None:
            return None

    duck = Duck()
    wrapped: Wrapper[Any, Any, Any, Any] = Wrapper(cast(Any, duck))
    assert cast(object, wrapped.unwrapped) is duck and wrapped.render_mode is None and wrapped.spec is None
    assert wrapped.metadata == {"render_modes": []} and wrapped.step(0)[0] == 1
    assert wrapped.get_wrapper_attr("observation_space") == Discrete(3)
    assert wrapped.set_wrapper_attr("custom", 2, force=False) and duck.custom == 2


def test_no_implicit_forwarding_but_explicit_access() -> None:
    env = CoinEnv()
    stack = NegReward(ScaledObs(env))
    with pytest.raises(AttributeError):
        _ = stack.custom  # type: ignore[attr-defined]
    assert stack.has_wrapper_attr("custom") and stack.get_wrapper_attr("custom") == "inner"
    assert stack.get_wrapper_attr("factor") == 2.0
    assert not stack.has_wrapper_attr("nowhere")
    with pytest.raises(AttributeError, match="NegReward"):
        stack.get_wrapper_attr("nowhere")
    # Set on the outermost layer that has the attribute, else on the wrapper itself (force) or nowhere.
    assert stack.set_wrapper_attr("custom", "changed") and env.custom == "changed"
    assert stack.set_wrapper_attr("factor", 3.0) and stack.env.factor == 3.0  # type: ignore[attr-defined]
    assert not stack.set_wrapper_attr("fresh", 1, force=False) and not stack.has_wrapper_attr("fresh")
    assert stack.set_wrapper_attr("fresh", 1) and stack.__dict__["fresh"] == 1


def test_spaces_and_metadata_override_without_mutating_inner_env() -> None:
    env = CoinEnv()
    wrapper = Wrapper(env)
    assert wrapper.action_space is env.action_space and wrapper.metadata is env.metadata
    wrapper.action_space = Discrete(5)
    wrapper.observation_space = Box(-1, 1, (3,))
    wrapper.metadata = {"render_modes": [], "extra": True}
    assert env.action_space == Discrete(2) and env.observation_space == Box(0, 1, (2,), dtype=np.float64)
    assert env.metadata == {"render_modes": ["ansi"]}
    assert wrapper.action_space == Discrete(5) and wrapper.metadata["extra"] is True


def test_read_through_attributes() -> None:
    env = CoinEnv(render_mode="ansi")
    wrapper = Wrapper(Wrapper(env))
    assert wrapper.render_mode == "ansi" and wrapper.render() == "coin"
    with pytest.raises(AttributeError):
        wrapper.render_mode = None
    wrapper.reset(seed=5)
    assert wrapper.np_random is env.np_random and wrapper.np_random_seed == 5
    rng = np.random.default_rng(1)
    wrapper.np_random = rng
    assert env.np_random is rng and env.np_random_seed == -1
    with pytest.raises(AttributeError, match="_np_random"):
        _ = wrapper._np_random
    assert wrapper.unwrapped is env
    wrapper.close()
    assert env.closed


def test_transform_wrappers() -> None:
    env = CoinEnv()
    obs, _ = ScaledObs(env, factor=10.0).reset(seed=0)
    raw, _ = CoinEnv().reset(seed=0)
    assert np.allclose(obs, raw * 10)
    assert NegReward(CoinEnv()).step(np.int64(1))[1] == -1.0
    assert FlipAction(CoinEnv()).step(np.int64(0))[1] == 1.0


@pytest.mark.gymnasium
def test_reference_wrappers_wrap_gymnasium_envs() -> None:
    pytest.importorskip("gymnasium")
    import gymnasium

    env = gymnasium.make("CartPole-v1")
    wrapper = NegReward(cast(Any, env))
    obs, _ = wrapper.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert wrapper.step(np.int64(0))[1] == -1.0
    assert cast(object, wrapper.unwrapped) is env.unwrapped and wrapper.spec is not None
    assert wrapper.spec.additional_wrappers[-1].name == "NegReward"
    wrapper.close()


# --- spec recording --------------------------------------------------------------------------------------------------


def test_spec_records_the_wrapper_stack() -> None:
    from reference.registration import EnvSpec, WrapperSpec

    env = CoinEnv()
    env.spec = EnvSpec("Coin-v0", entry_point="tests.reference.test_core:CoinEnv")
    stack = NegReward(ScaledObs(env, factor=4.0))
    spec = stack.spec
    assert spec is not None and spec.id == "Coin-v0"
    assert spec.additional_wrappers == (
        WrapperSpec("ScaledObs", "tests.reference.test_core:ScaledObs", {"factor": 4.0}),
        WrapperSpec("NegReward", "tests.reference.test_core:NegReward", None),
    )
    assert env.spec.additional_wrappers == ()
    assert stack.spec is spec  # cached
    assert Wrapper(CoinEnv()).spec is None
    assert ScaledObs.wrapper_spec(factor=1.0) == WrapperSpec("ScaledObs", "tests.reference.test_core:ScaledObs", {"factor": 1.0})
    assert ScaledObs.class_name() == "ScaledObs"
    with pytest.raises(AttributeError):
        stack.spec = None
