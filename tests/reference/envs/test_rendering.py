"""Rendering of every built-in environment: declared modes, frame shapes against Gymnasium, ansi text, human mode."""

from __future__ import annotations

import importlib
import warnings
from typing import Any, TypeAlias

import numpy as np
import pytest

import reference.envs  # noqa: F401 - registers the ids
from gymspec.errors import ResetNeeded, UnsupportedMode
from reference._framework import UnsupportedRenderMode, validate_render_mode
from reference.envs._rendering import Canvas
from reference.registration import registry

gym = pytest.importorskip("gymnasium")
pytestmark = pytest.mark.gymnasium

_Env: TypeAlias = Any

ENV_IDS = [
    "CartPole-v1",
    "MountainCar-v0",
    "MountainCarContinuous-v0",
    "Pendulum-v1",
    "Acrobot-v1",
    "Blackjack-v1",
    "FrozenLake-v1",
    "FrozenLake8x8-v1",
    "CliffWalking-v1",
    "CliffWalkingSlippery-v1",
    "Taxi-v4",
]


def _ours(env_id: str, **kwargs: Any) -> _Env:
    """Construct the raw reference class of a registered id (no wrappers)."""
    spec = registry[env_id]
    assert isinstance(spec.entry_point, str)
    module, attr = spec.entry_point.split(":")
    return getattr(importlib.import_module(module), attr)(**{**spec.kwargs, **kwargs})


def _theirs(env_id: str, **kwargs: Any) -> _Env:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return gym.make(env_id, disable_env_checker=True, **kwargs).unwrapped


def _advance(env: _Env, seed: int, steps: int = 3) -> None:
    env.reset(seed=seed)
    env.action_space.seed(seed)
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_metadata_matches_gymnasium(env_id: str) -> None:
    ours, theirs = _ours(env_id), _theirs(env_id)
    assert ours.metadata == theirs.metadata
    assert ours.render_mode is None


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_rgb_array_frames_match_gymnasium_in_shape_and_dtype(env_id: str) -> None:
    ours, theirs = _ours(env_id, render_mode="rgb_array"), _theirs(env_id, render_mode="rgb_array")
    _advance(ours, 1)
    theirs.reset(seed=1)
    frame, expected = ours.render(), theirs.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
    assert frame.shape == expected.shape
    assert frame.flags.c_contiguous
    again = ours.render()
    assert again is not frame and not np.shares_memory(again, frame)
    assert np.array_equal(again, frame)  # rendering has no side effects on the state
    assert frame.std() > 0  # something was drawn
    ours.close()
    ours.close()
    theirs.close()


@pytest.mark.parametrize("env_id", [i for i in ENV_IDS if i.startswith(("FrozenLake", "CliffWalking", "Taxi"))])
def test_ansi_matches_gymnasium(env_id: str) -> None:
    ours, theirs = _ours(env_id, render_mode="ansi"), _theirs(env_id, render_mode="ansi")
    for seed in range(3):
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        assert ours.render() == theirs.render()
        theirs.action_space.seed(seed)
        for _ in range(5):
            action = theirs.action_space.sample()
            _, _, terminated, _, _ = ours.step(action)
            theirs.step(action)
            text = ours.render()
            assert isinstance(text, str) and text == theirs.render()
            if terminated:
                break


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_human_mode_renders_during_reset_and_step_and_returns_none(env_id: str) -> None:
    env = _ours(env_id, render_mode="human")
    env.metadata = {**env.metadata, "render_fps": 0}  # do not sleep between frames in the test
    _advance(env, 0, steps=2)
    assert env.render() is None
    env.close()
    env.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_undeclared_mode_is_rejected_at_construction(env_id: str) -> None:
    with pytest.raises(UnsupportedMode, match=r"render_mode must be None or one of \[") as info:
        _ours(env_id, render_mode="rgb_array_list")
    assert isinstance(info.value, ValueError)
    for mode in _ours(env_id).metadata["render_modes"]:
        assert repr(mode) in str(info.value)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_render_without_mode_warns_and_render_before_reset_raises(env_id: str) -> None:
    env = _ours(env_id)
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert env.render() is None
    with pytest.raises(ResetNeeded):
        _ours(env_id, render_mode="rgb_array").render()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_render_messages_name_the_environment_and_blame_the_caller(env_id: str) -> None:
    # The shared CanvasRenderer mixin builds these messages; they must read as if each env wrote its own.
    env = _ours(env_id)
    owner = type(env).__name__
    others = sorted(m for m in env.metadata["render_modes"] if m != "rgb_array")
    env.reset(seed=0)
    with pytest.warns(UserWarning) as record:
        env.render()
    (warning,) = record
    assert f"{owner} render() was called without a render_mode" in str(warning.message)
    assert f"render_mode='rgb_array' (or {', '.join(map(repr, others))}) to render" in str(warning.message)
    assert warning.filename == __file__
    with pytest.raises(ResetNeeded, match=rf"^{owner} render\(\) must be preceded by reset\(\)"):
        _ours(env_id, render_mode="rgb_array").render()


def test_rendering_never_starts_the_mixer() -> None:
    import pygame

    for mode in ("rgb_array", "human"):
        env = _ours("CartPole-v1", render_mode=mode)
        env.metadata = {**env.metadata, "render_fps": 0}
        env.reset(seed=0)
        env.render()
        assert pygame.mixer.get_init() is None
        env.close()


def test_canvas_and_mode_validation_errors() -> None:
    with pytest.raises(ValueError, match="Canvas mode must be"):
        Canvas(mode="ansi", size=(10, 10), fps=4, caption="x")
    with pytest.raises(ValueError, match="Canvas size must be positive"):
        Canvas(mode="rgb_array", size=(0, 10), fps=4, caption="x")
    with pytest.raises(UnsupportedRenderMode):
        validate_render_mode("Toy", "rgb_array", {"render_modes": []})
    assert validate_render_mode("Toy", None, {}) is None
