"""Tests for reference.wrappers.common: TimeLimit, OrderEnforcing, PassiveEnvChecker, Autoreset, episode stats."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import error
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.registration import EnvSpec
from reference.spaces import Box, Dict, Discrete, Tuple
from reference.wrappers import Autoreset, OrderEnforcing, PassiveEnvChecker, RecordEpisodeStatistics, TimeLimit
from tests.reference.wrappers._envs import BoxEnv, DiscreteEnv, ScriptedEnv, good_step


def _messages(caught: list[warnings.WarningMessage]) -> str:
    return "\n".join(str(w.message) for w in caught)


# --- TimeLimit -----------------------------------------------------------------------------------------------------


@given(limit=st.integers(1, 8), length=st.integers(1, 8), steps=st.integers(1, 12))
@settings(max_examples=40, deadline=None)
def test_time_limit_truncates_exactly_at_the_limit(limit: int, length: int, steps: int) -> None:
    env = TimeLimit(BoxEnv(length=length), max_episode_steps=limit)
    env.reset(seed=0)
    action = np.zeros(2, np.float32)
    for step in range(1, steps + 1):
        _, _, terminated, truncated, _ = env.step(action)
        assert truncated == (step >= limit)
        assert terminated == (step >= length)
    env.reset()
    assert env.step(action)[3] == (limit == 1)


@pytest.mark.parametrize(("value", "exc"), [(0, ValueError), (-2, ValueError), (1.5, TypeError), (True, TypeError)])
def test_time_limit_validates(value: Any, exc: type[Exception]) -> None:
    with pytest.raises(exc, match="TimeLimit max_episode_steps must be"):
        TimeLimit(BoxEnv(), max_episode_steps=value)


def test_time_limit_step_before_reset_is_reset_needed() -> None:
    with pytest.raises(error.ResetNeeded, match="before reset"):
        TimeLimit(BoxEnv(), 3).step(np.zeros(2, np.float32))


def test_make_applied_wrappers_record_themselves_as_spec_fields() -> None:
    base = BoxEnv()
    base.spec = EnvSpec("Box-v0", entry_point="tests.reference.wrappers._envs:BoxEnv", order_enforce=False,
                        disable_env_checker=True)
    env = TimeLimit(OrderEnforcing(PassiveEnvChecker(base)), 7)
    assert env.spec is not None
    assert (env.spec.max_episode_steps, env.spec.order_enforce, env.spec.disable_env_checker) == (7, True, False)
    assert env.spec.additional_wrappers == ()
    assert base.spec.max_episode_steps is None  # the inner spec is copied, never modified
    assert env.spec is env.spec  # cached
    with pytest.raises(AttributeError, match="set it on env.unwrapped"):
        env.spec = None


# --- OrderEnforcing ------------------------------------------------------------------------------------------------


def test_order_enforcing() -> None:
    env = OrderEnforcing(BoxEnv(render_mode="rgb_array"))
    before = env.has_reset
    assert not before
    with pytest.raises(error.ResetNeeded, match="env.step"):
        env.step(np.zeros(2, np.float32))
    with pytest.raises(error.ResetNeeded, match="env.render"):
        env.render()
    env.reset()
    assert env.has_reset
    env.step(np.zeros(2, np.float32))
    assert isinstance(env.render(), np.ndarray)
    lenient = OrderEnforcing(BoxEnv(render_mode="rgb_array"), disable_render_order_enforcing=True)
    assert isinstance(lenient.render(), np.ndarray)
    assert lenient.spec is None


# --- PassiveEnvChecker ---------------------------------------------------------------------------------------------


def _checked(results: list[Any], **kwargs: Any) -> PassiveEnvChecker[Any, Any]:
    env = PassiveEnvChecker(ScriptedEnv(results, **kwargs))
    env.reset(seed=0)
    return env


@pytest.mark.parametrize(
    ("bad_step", "fragment"),
    [
        ((np.zeros(2, np.float32), float("nan"), False, False, {}), "The reward is a NaN value"),
        ((np.zeros(2, np.float32), float("inf"), False, False, {}), "The reward is an inf value"),
        ((np.zeros(2, np.float32), np.float32("nan"), False, False, {}), "The reward is a NaN value"),
        ((np.zeros(2, np.float32), "1", False, False, {}), "The reward returned by `step()` must be a float"),
        ((np.zeros(2, np.float32), 0.0, 1, False, {}), "Expects `terminated` signal to be a boolean"),
        ((np.zeros(2, np.float32), 0.0, False, "no", {}), "Expects `truncated` signal to be a boolean"),
        ((np.full(2, 3.0, np.float32), 0.0, False, False, {}), "is not within the observation space"),
        ((np.full(2, np.nan, np.float32), 0.0, False, False, {}), "is not within the observation space"),
        ((np.zeros(2, np.float64), 0.0, False, False, {}), "expecting numpy array dtype to be float32"),
        (([0.0, 0.0], 0.0, False, False, {}), "was expecting a numpy array"),
        ((np.zeros(3, np.float32), 0.0, False, False, {}), "is not within the observation space"),
    ],
)
def test_checker_warns_on_every_step_not_only_the_first(bad_step: tuple[Any, ...], fragment: str) -> None:
    env = _checked([good_step(), good_step(), bad_step])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.step(0)
        env.step(0)
        assert not caught
        env.step(0)  # the third step is the bad one: Gymnasium's checker would no longer look
    assert fragment in _messages(caught)


def test_checker_accepts_numpy_flags_and_rewards() -> None:
    env = _checked([(np.zeros(2, np.float32), np.float64(1.0), np.bool_(False), np.bool_(True), {}),
                    (np.zeros(2, np.float32), 3, False, False, {}), good_step()])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(6):
            env.step(0)


@pytest.mark.parametrize(
    ("bad_step", "exc", "fragment"),
    [
        ((np.zeros(2, np.float32), 0.0, False, False, []), TypeError, "info must be a dict"),
        ((np.zeros(2, np.float32), 0.0, False, {}), error.Error, "got 4; the 4-tuple"),
        ([np.zeros(2, np.float32), 0.0, False, False, {}], TypeError, "result must be a tuple"),
        ((np.zeros(2, np.float32),), error.Error, "must have 5 elements"),
    ],
)
def test_checker_errors_where_gymnasium_asserts(bad_step: Any, exc: type[Exception], fragment: str) -> None:
    env = _checked([good_step(), bad_step])
    env.step(0)
    with pytest.raises(exc, match=fragment):
        env.step(0)


def test_checker_reset_checks() -> None:
    with pytest.raises(TypeError, match="reset\\(\\) info must be a dict"):
        _checked([good_step()], reset_result=(np.zeros(2, np.float32), None))
    with pytest.warns(UserWarning, match="was not a tuple"):
        _checked([good_step()], reset_result=np.zeros(2, np.float32))
    env = _checked([good_step()])
    env.env.reset_result = (np.full(2, 9.0, np.float32), {})  # type: ignore[attr-defined]
    with pytest.warns(UserWarning, match="obs returned by the `reset\\(\\)` method is not within"):
        env.reset()


def test_checker_warns_on_buffer_reuse_in_the_first_steps() -> None:
    shared = np.zeros(2, np.float32)
    env = _checked([(shared, 0.0, False, False, {})], reset_result=(shared, {}))
    with pytest.warns(UserWarning, match="share an object"):
        env.step(0)


@pytest.mark.parametrize(
    ("space", "good", "bad"),
    [
        (Discrete(3, start=1), 1, 0),
        (Dict({"a": Discrete(2), "b": Box(0, 1, (1,), np.float32)}),
         {"a": 1, "b": np.zeros(1, np.float32)}, {"a": 2, "b": np.zeros(1, np.float32)}),
        (Tuple((Discrete(2), Discrete(3))), (1, 2), (1, 3)),
        (Box(0, 255, (4, 4, 3), np.uint8), np.zeros((4, 4, 3), np.uint8), np.zeros((4, 4, 3), np.int16)),
        (Box(-1, 1, (5, 5), np.float32), np.zeros((5, 5), np.float32), np.full((5, 5), 2, np.float32)),
    ],
)
def test_checker_observation_spaces(space: Any, good: Any, bad: Any) -> None:
    env = _checked([(good, 0.0, False, False, {}), (good, 0.0, False, False, {}), (bad, 0.0, False, False, {})],
                   observation_space=space, reset_result=(good, {}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.step(0)
        env.step(0)
        assert "not within the observation space" not in _messages(caught)
        env.step(0)
    assert "not within the observation space" in _messages(caught)


def test_checker_structural_observation_errors() -> None:
    dict_space = Dict({"a": Discrete(2)})
    with pytest.raises(TypeError, match="must be a dict"):
        _checked([good_step()], observation_space=dict_space, reset_result=(5, {}))
    with pytest.raises(ValueError, match="keys must be"):
        _checked([good_step()], observation_space=dict_space, reset_result=({"b": 1}, {}))
    with pytest.raises(ValueError, match="must have 2 elements"):
        _checked([good_step()], observation_space=Tuple((Discrete(2), Discrete(2))), reset_result=((1,), {}))


def test_checker_space_checks_at_construction() -> None:
    env = ScriptedEnv([good_step()])
    env.observation_space = "not a space"  # type: ignore[assignment]
    with pytest.raises(TypeError, match="observation_space must be a reference.spaces.Space"):
        PassiveEnvChecker(env)
    # Reference spaces reject broken shapes themselves; a foreign space is accepted and checked per call.
    foreign = ScriptedEnv([good_step()], observation_space=pytest.importorskip("gymnasium.spaces").Discrete(2))
    PassiveEnvChecker(foreign)
    env = ScriptedEnv([good_step()], observation_space=Box(1.0, 1.0, (2,), np.float32))
    with pytest.warns(UserWarning, match="maximum and minimum values are equal"):
        PassiveEnvChecker(env)


def test_checker_render_checks() -> None:
    frame = np.zeros((4, 4, 3), np.uint8)
    env = _checked([good_step()], render_mode="rgb_array", frames=[frame, np.zeros((4, 4), np.uint8)])
    assert env.render() is frame
    with pytest.warns(UserWarning, match="three axes"):
        env.render()
    bad_mode = ScriptedEnv([good_step()], render_mode="human")
    with pytest.raises(error.UnsupportedMode, match="render_mode must be None or one of"):
        PassiveEnvChecker(bad_mode).render()
    bad_fps = ScriptedEnv([good_step()], render_mode="ansi", frames=["x"])
    bad_fps.metadata = {"render_modes": ["ansi"], "render_fps": 0}
    with pytest.raises(ValueError, match="render_fps'\\] must be > 0"):
        PassiveEnvChecker(bad_fps).render()


def test_checker_close_twice_is_allowed() -> None:
    inner = BoxEnv()
    env = PassiveEnvChecker(inner)
    env.close()
    env.close()
    assert inner.closed == 2


def test_checker_with_gymnasium_matches_first_step_warnings() -> None:
    gym_checker = pytest.importorskip("gymnasium.wrappers").PassiveEnvChecker
    gym_box = pytest.importorskip("gymnasium.spaces").Box
    gymnasium = pytest.importorskip("gymnasium")

    class GymScripted(gymnasium.Env):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            self.observation_space = gym_box(-1.0, 1.0, (2,), np.float32)
            self.action_space = gymnasium.spaces.Discrete(2)

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            return np.zeros(2, np.float32), {}

        def step(self, action: Any) -> Any:
            return np.full(2, 3.0, np.float32), float("nan"), 1, False, {}

    def warned(env: Any) -> list[str]:
        env.reset()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            env.step(0)
        return sorted(str(w.message).split(":")[1].split("[")[0].strip()[:30] for w in caught)

    ours = warned(PassiveEnvChecker(ScriptedEnv([(np.full(2, 3.0, np.float32), float("nan"), 1, False, {})])))
    assert ours == warned(gym_checker(GymScripted()))


# --- Autoreset -----------------------------------------------------------------------------------------------------


def test_autoreset_next_step_semantics() -> None:
    env = Autoreset(DiscreteEnv(length=2))
    assert env.reset(seed=0)[0] == 0
    assert env.step(1) == (1, 1.0, False, False, {})
    assert env.step(1) == (2, 1.0, True, False, {})
    assert env.step(2) == (0, 0.0, False, False, {})
    assert env.step(2) == (1, 2.0, False, False, {})


@pytest.mark.gymnasium
def test_autoreset_matches_gymnasium_on_cartpole() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.envs.classic_control import CartPoleEnv as GymCartPole

    ours = Autoreset(TimeLimit(CartPoleEnv(), 15))
    theirs = gymnasium.wrappers.Autoreset(gymnasium.wrappers.TimeLimit(GymCartPole(), 15))
    np.testing.assert_array_equal(ours.reset(seed=3)[0], theirs.reset(seed=3)[0])
    actions = np.random.default_rng(1).integers(0, 2, 80).tolist()
    for action in actions:
        a, b = ours.step(action), theirs.step(action)
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:4] == b[1:4]


# --- RecordEpisodeStatistics ---------------------------------------------------------------------------------------


@given(lengths=st.lists(st.integers(1, 6), min_size=1, max_size=5), buffer_length=st.integers(1, 3))
@settings(max_examples=25, deadline=None)
def test_record_episode_statistics(lengths: list[int], buffer_length: int) -> None:
    env = RecordEpisodeStatistics(DiscreteEnv(), buffer_length=buffer_length)
    for length in lengths:
        env.unwrapped.length = length  # type: ignore[attr-defined]
        _, info = env.reset()
        for step in range(length):
            _, _, terminated, _, info = env.step(2)
            assert ("episode" in info) == (step == length - 1)
        assert info["episode"]["r"] == 2.0 * length and info["episode"]["l"] == length
        assert info["episode"]["t"] >= 0
    assert list(env.length_queue) == lengths[-buffer_length:]
    assert list(env.return_queue) == [2.0 * n for n in lengths[-buffer_length:]]
    assert env.episode_count == len(lengths)


def test_record_episode_statistics_validates() -> None:
    with pytest.raises(ValueError, match="buffer_length must be a positive int"):
        RecordEpisodeStatistics(DiscreteEnv(), buffer_length=0)
    env = RecordEpisodeStatistics(ScriptedEnv([(np.zeros(2, np.float32), 0.0, True, False, {"episode": 1})]))
    env.reset()
    with pytest.raises(ValueError, match="stats_key must not already be in the step info"):
        env.step(0)
