"""Tests for make: lookup, kwargs, wrapper order, render-mode handling, spec round trips."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import reference.envs  # noqa: F401 - registers the built-in ids
from reference import error
from reference.core import Env
from reference.registration import EnvSpec, WrapperSpec, make, register, spec
from reference.wrappers import (
    HumanRendering,
    OrderEnforcing,
    PassiveEnvChecker,
    RenderCollection,
    TimeLimit,
    TransformReward,
)
from tests.reference.wrappers._envs import BoxEnv

_BOX = "tests.reference.wrappers._envs:BoxEnv"


def _layers(env: Any) -> list[str]:
    names = []
    while hasattr(env, "env"):
        names.append(type(env).__name__)
        env = env.env
    return [*names, type(env).__name__]


def test_make_applies_gymnasiums_wrapper_order() -> None:
    env = make("CartPole-v1")
    assert str(env) == "<TimeLimit<OrderEnforcing<PassiveEnvChecker<CartPoleEnv<CartPole-v1>>>>>"
    assert env.spec is not None and env.spec.max_episode_steps == 500
    unwrapped_spec = env.unwrapped.spec
    assert unwrapped_spec is not None
    assert (unwrapped_spec.max_episode_steps, unwrapped_spec.order_enforce, unwrapped_spec.disable_env_checker) == (
        None,
        False,
        True,
    )


@pytest.mark.gymnasium
def test_make_stack_matches_gymnasium() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    cases: list[dict[str, Any]] = [{}, {"disable_env_checker": True}, {"max_episode_steps": -1},
                                   {"max_episode_steps": 3}]
    for kwargs in cases:
        assert str(make("CartPole-v1", **kwargs)) == str(gymnasium.make("CartPole-v1", **kwargs))
        assert make("CartPole-v1", **kwargs).spec == _as_ours(gymnasium.make("CartPole-v1", **kwargs).spec)


def _as_ours(gym_spec: Any) -> EnvSpec:
    ours = EnvSpec(
        id=gym_spec.id,
        entry_point=gym_spec.entry_point.replace("gymnasium.envs", "reference.envs"),
        reward_threshold=gym_spec.reward_threshold,
        nondeterministic=gym_spec.nondeterministic,
        max_episode_steps=gym_spec.max_episode_steps,
        order_enforce=gym_spec.order_enforce,
        disable_env_checker=gym_spec.disable_env_checker,
        kwargs=dict(gym_spec.kwargs),
    )
    # Both point CartPole at a CartPoleVectorEnv at the same module path (ours runs the functional CartPole).
    ours.vector_entry_point = (
        gym_spec.vector_entry_point.replace("gymnasium.envs", "reference.envs") if gym_spec.vector_entry_point else None
    )
    return ours


def test_make_max_episode_steps_and_checker_overrides() -> None:
    assert make("CartPole-v1", max_episode_steps=3).spec.max_episode_steps == 3  # type: ignore[union-attr]
    assert "TimeLimit" not in _layers(make("CartPole-v1", max_episode_steps=-1))
    assert "PassiveEnvChecker" not in _layers(make("CartPole-v1", disable_env_checker=True))
    register("MkNoChecks-v0", entry_point=_BOX, disable_env_checker=True, order_enforce=False)
    assert _layers(make("MkNoChecks-v0")) == ["BoxEnv"]
    assert _layers(make("MkNoChecks-v0", disable_env_checker=False)) == ["PassiveEnvChecker", "BoxEnv"]
    bad_values: list[tuple[Any, type[Exception]]] = [(0, ValueError), (-5, ValueError), (2.5, TypeError)]
    for bad, exc in bad_values:
        with pytest.raises(exc, match="make max_episode_steps must be"):
            make("CartPole-v1", max_episode_steps=bad)


def test_make_records_kwargs_without_touching_the_spec() -> None:
    register("MkKwargs-v0", entry_point=_BOX, kwargs={"length": 3})
    env = make("MkKwargs-v0", render_mode="rgb_array")
    assert env.unwrapped.spec is not None
    assert env.unwrapped.spec.kwargs == {"length": 3, "render_mode": "rgb_array"}
    assert spec("MkKwargs-v0").kwargs == {"length": 3}
    with pytest.raises(TypeError, match="was raised from the environment creator for MkKwargs-v0"):
        make("MkKwargs-v0", bogus=1)


def test_make_lookup_errors_and_warnings() -> None:
    with pytest.raises(TypeError, match="make id must be a str or an EnvSpec"):
        make(42)  # type: ignore[arg-type]
    with pytest.raises(error.NameNotFound, match="Did you mean: `CartPole`"):
        make("CartPol-v1")
    with pytest.raises(error.VersionNotFound):
        make("CartPole-v9")
    with pytest.warns(DeprecationWarning, match="is out of date"):
        make("CartPole-v0")
    with pytest.warns(UserWarning, match="Using the latest versioned environment `CartPole-v1`"):
        assert make("CartPole").spec.id == "CartPole-v1"  # type: ignore[union-attr]
    with pytest.raises(ModuleNotFoundError, match="Environment registration via importing a module failed"):
        make("no_such_module_abc:CartPole-v1")
    register("MkNoEntry-v0", vector_entry_point="pkg:Vec")
    with pytest.raises(error.Error, match="entry_point is not specified"):
        make("MkNoEntry-v0")


def test_make_module_prefix_imports_then_makes() -> None:
    env = make("tests.reference.registration._module_env:MkModuleEnv-v0")
    assert isinstance(env.unwrapped, BoxEnv)


def test_make_rejects_non_env_creators() -> None:
    register("MkNotEnv-v0", entry_point=lambda **kw: object())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="make entry_point must create a reference.core.Env"):
        make("MkNotEnv-v0")


def test_unsupported_render_mode_is_rejected_at_make() -> None:
    with pytest.raises(error.UnsupportedMode) as info:
        make("CartPole-v1", render_mode="ansi")
    message = str(info.value)
    assert "['human', 'rgb_array']" in message and "'ansi'" in message and "'rgb_array_list'" in message
    with pytest.raises(ValueError):  # also catchable as ValueError
        make("CartPole-v1", render_mode="depth_array_list")


def test_unsupported_render_mode_is_rejected_for_function_entry_points() -> None:
    register("MkFunc-v0", entry_point=lambda **kw: BoxEnv(**kw))
    with pytest.raises(error.UnsupportedMode, match="got 'human'"):
        make("MkFunc-v0", render_mode="human")
    assert make("MkFunc-v0", render_mode="rgb_array").render_mode == "rgb_array"


def test_render_mode_conversions() -> None:
    register("MkRender-v0", entry_point=_BOX)
    collected = make("MkRender-v0", render_mode="rgb_array_list")
    assert isinstance(collected, RenderCollection) and collected.render_mode == "rgb_array_list"
    collected.reset(seed=0)
    collected.step(np.zeros(2, np.float32))
    assert len(collected.render()) == 2
    with pytest.warns(UserWarning, match="HumanRendering wrapper is being applied"):
        human = make("MkRender-v0", render_mode="human")
    assert isinstance(human, HumanRendering) and human.render_mode == "human"
    assert human.unwrapped.render_mode == "rgb_array"
    human.reset(seed=0)
    human.close()


def test_make_from_spec_rebuilds_additional_wrappers() -> None:
    env = TransformReward(make("CartPole-v1", max_episode_steps=20), lambda r: 2 * float(r))
    assert env.spec is not None
    assert [w.name for w in env.spec.additional_wrappers] == ["TransformReward"]
    rebuilt = make(env.spec)
    assert _layers(rebuilt) == ["TransformReward", "TimeLimit", "OrderEnforcing", "PassiveEnvChecker", "CartPoleEnv"]
    rebuilt.reset(seed=0)
    assert rebuilt.step(0)[1] == 2.0
    with pytest.raises(ValueError, match="cannot be recreated"):
        make(EnvSpec("CartPole-v1", entry_point="reference.envs.classic_control.cartpole:CartPoleEnv",
                     additional_wrappers=(WrapperSpec("X", "pkg:X", None),)))


def test_spec_make_and_seeded_rollouts_match_the_raw_env() -> None:
    made = spec("CartPole-v1").make(max_episode_steps=50)
    raw = make("CartPole-v1", disable_env_checker=True, max_episode_steps=-1).unwrapped
    assert isinstance(raw, Env)
    np.testing.assert_array_equal(made.reset(seed=7)[0], raw.reset(seed=7)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for action in np.random.default_rng(0).integers(0, 2, 30).tolist():
            a, b = made.step(action), raw.step(action)
            np.testing.assert_array_equal(a[0], b[0])
            if a[2]:
                break


def test_layers_helper_sanity() -> None:
    assert _layers(TimeLimit(OrderEnforcing(PassiveEnvChecker(BoxEnv())), 2)) == [
        "TimeLimit",
        "OrderEnforcing",
        "PassiveEnvChecker",
        "BoxEnv",
    ]
