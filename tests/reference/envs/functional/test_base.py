"""The plumbing both functional environments take from ``reference.envs.functional._base``."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from typing_extensions import TypeAlias

from reference.envs.functional.cartpole import (
    CartPoleFunctional,
    CartPoleFunctionalEnv,
    CartPoleFunctionalVectorEnv,
)
from reference.envs.functional.pendulum import (
    PendulumFunctional,
    PendulumFunctionalEnv,
    PendulumFunctionalVectorEnv,
)
_Kwargs: TypeAlias = dict[str, Any]


@pytest.mark.parametrize("cls", [CartPoleFunctional, PendulumFunctional])
def test_params_come_from_options_and_are_type_checked(cls: type[CartPoleFunctional | PendulumFunctional]) -> None:
    field = "tau" if cls is CartPoleFunctional else "dt"
    env = cls({field: 0.5})
    assert isinstance(env.default_params, cls.params_cls)
    assert getattr(env.default_params, field) == 0.5
    assert getattr(env.get_default_params(**{field: 0.25}), field) == 0.25
    with pytest.raises(TypeError, match=f"{cls.__name__} params must be a {cls.params_cls.__name__}"):
        env.initial(np.random.default_rng(0), params=object())  # type: ignore[arg-type]


def test_render_sizes_must_be_ints() -> None:
    with pytest.raises(TypeError, match="CartPoleFunctional render_init screen_height must be an int, got '1'"):
        CartPoleFunctional().render_init(screen_height="1")
    with pytest.raises(TypeError, match="PendulumFunctional render_init screen_dim must be an int, got 2.0"):
        PendulumFunctional().render_init(screen_dim=2.0)


def test_render_image_rejects_a_batch_and_render_close_is_reusable() -> None:
    env = PendulumFunctional()
    canvas = env.render_init(screen_dim=32)
    with pytest.raises(ValueError, match=r"PendulumFunctional render_image state must have shape \(2,\)"):
        env.render_image(np.zeros((3, 2)), canvas)
    env.render_close(canvas)
    env.render_close(canvas)


@pytest.mark.parametrize(
    ("env_cls", "vector_cls", "field", "value"),
    [
        (CartPoleFunctionalEnv, CartPoleFunctionalVectorEnv, "sutton_barto_reward", True),
        (PendulumFunctionalEnv, PendulumFunctionalVectorEnv, "g", 9.81),
    ],
)
def test_adapters_build_their_func_env_from_kwargs_and_pickle(
    env_cls: type[CartPoleFunctionalEnv | PendulumFunctionalEnv],
    vector_cls: type[CartPoleFunctionalVectorEnv | PendulumFunctionalVectorEnv],
    field: str,
    value: object,
) -> None:
    params: _Kwargs = {field: value}
    env = env_cls(render_mode="rgb_array", **params)
    vec = vector_cls(3, max_episode_steps=7, **params)
    for adapter in (env, vec):
        assert type(adapter.func_env) is env_cls.func_env_cls
        assert getattr(adapter.params, field) == value
    clone = pickle.loads(pickle.dumps(env))
    assert type(clone) is env_cls and clone.render_mode == "rgb_array" and getattr(clone.params, field) == value
    vec_clone = pickle.loads(pickle.dumps(vec))
    assert vec_clone.num_envs == 3 and vec_clone.max_episode_steps == 7
