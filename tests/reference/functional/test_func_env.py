"""The ``FuncEnv`` base class: constructor options, defaults, ``transform`` (FUNC-011) and the protocol."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

import gymspec
from reference.envs._rendering import Canvas
from reference.envs.functional.cartpole import CartPoleFunctional, CartPoleParams
from reference.envs.functional.pendulum import PendulumFunctional, PendulumParams
from reference.functional import FUNCTION_NAMES, FuncEnv
from tests.reference.functional._toy import NoisyWalk, WalkParams

_Fn = Callable[..., Any]
_Rewards = np.float64 | NDArray[np.float64]
_Flags = np.bool_ | NDArray[np.bool_]


def test_reference_func_envs_satisfy_the_gymspec_protocol() -> None:
    # Typed assignments: mypy checks the structural match (variance included), isinstance the members.
    cartpole: gymspec.FuncEnv[
        NDArray[np.float64], NDArray[np.float32], int, _Rewards, _Flags, Canvas, CartPoleParams
    ] = CartPoleFunctional()
    pendulum: gymspec.FuncEnv[
        NDArray[np.float64], NDArray[np.float32], NDArray[np.float32], _Rewards, _Flags, Canvas, PendulumParams
    ] = PendulumFunctional()
    walk: gymspec.FuncEnv[NDArray[np.float64], NDArray[np.float32], int, float, bool, None, WalkParams] = NoisyWalk()
    for env in (cartpole, pendulum, walk):
        assert isinstance(env, gymspec.FuncEnv)
        assert isinstance(env.observation_space, gymspec.Space)  # FUNC-001
        assert isinstance(env.action_space, gymspec.Space)


def test_options_become_attributes_before_default_params() -> None:
    class WithOptions(FuncEnv[int, int, int, float, bool, None, dict[str, int]]):
        def get_default_params(self, **kwargs: Any) -> dict[str, int]:
            return {"size": getattr(self, "size", 1), **kwargs}

    options = {"size": 7}
    env = WithOptions(options)
    assert env.size == 7  # type: ignore[attr-defined]
    assert env.default_params == {"size": 7}
    assert options == {"size": 7}  # the caller's dict is neither kept nor changed
    assert WithOptions().default_params == {"size": 1}


@pytest.mark.parametrize("options", [["size"], {1: 2}])
def test_options_must_be_a_dict_of_str(options: Any) -> None:
    with pytest.raises(TypeError, match="FuncEnv options must be a dict with str keys"):
        FuncEnv(options)


def test_base_defaults() -> None:
    env: FuncEnv[int, int, int, float, bool, None, None] = FuncEnv()
    assert env.default_params is None
    assert env.state_info(0) == {} and env.transition_info(0, 0, 1) == {}
    assert env.state_info(0) is not env.state_info(0)  # a new dict each call
    with pytest.raises(TypeError, match="get_default_params kwargs must be empty"):
        env.get_default_params(size=1)
    for call in (
        lambda: env.initial(np.random.default_rng()),
        lambda: env.transition(0, 0, None),
        lambda: env.observation(0, None),
        lambda: env.reward(0, 0, 1, None),
        lambda: env.terminal(0, None),
        lambda: env.render_init(),
        lambda: env.render_image(0, None),
        lambda: env.render_close(None),
    ):
        with pytest.raises(NotImplementedError, match="FuncEnv"):
            call()


def test_transform_wraps_every_function_including_transition_info() -> None:  # FUNC-011
    env = NoisyWalk()
    wrapped: list[str] = []

    def tracing(fn: _Fn) -> _Fn:
        def inner(*args: Any, **kwargs: Any) -> Any:
            wrapped.append(fn.__name__)
            return fn(*args, **kwargs)

        return inner

    env.transform(tracing)
    rng = np.random.default_rng(0)
    state = env.initial(rng)
    next_state = env.transition(state, 2, rng)
    env.observation(next_state, rng)
    env.reward(state, 2, next_state, rng)
    env.terminal(next_state, rng)
    env.state_info(state)
    env.transition_info(state, 2, next_state)
    assert sorted(wrapped) == sorted(FUNCTION_NAMES)
    assert "transition_info" in FUNCTION_NAMES and not hasattr(env, "step_info")


def test_transform_with_numpy_vectorize_keeps_results() -> None:
    env = CartPoleFunctional()
    state = env.initial(np.random.default_rng(3))
    before = env.transition(state, 1)
    env.transform(lambda fn: fn)  # an identity transform changes nothing
    np.testing.assert_array_equal(env.transition(state, 1), before)


def test_a_mismatched_protocol_assignment_is_rejected_by_mypy() -> None:
    # Observations are float32 arrays, not strings: mypy must flag this (warn_unused_ignores proves it does).
    wrong: gymspec.FuncEnv[NDArray[np.float64], str, int, _Rewards, _Flags, Canvas, CartPoleParams]
    wrong = CartPoleFunctional()  # type: ignore[assignment]
    assert isinstance(wrong, gymspec.FuncEnv)  # structurally fine at runtime: only the types differ
