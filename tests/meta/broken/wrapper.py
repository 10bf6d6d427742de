"""Wrapped targets (factories) whose wrapper breaks one WRAP rule each; the inner env is always a correct ``Walk``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.meta.broken._base import Walk, WalkWrapper
from tests.meta.broken._spaces import Box, Discrete

_SHIFT = np.float32(100.0)


class _ScaleWithoutSpace(WalkWrapper):
    """Scales observations by 10 but keeps the inner observation_space (WRAP-001)."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        obs, info = super().reset(seed=seed, options=options)
        return obs * np.float32(10.0), info

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs * np.float32(10.0), reward, terminated, truncated, info


class _WideActions(WalkWrapper):
    """Declares Discrete(5) but forwards actions unchanged to a Discrete(3) env (WRAP-002)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._actions = Discrete(5)

    @property
    def action_space(self) -> Any:
        return self._actions


class _ShiftMutatingInner(WalkWrapper):
    """Shifts observations by 100 and 'updates' the space by overwriting the inner env's (WRAP-003)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        shifted = Box(-10.0 + float(_SHIFT), 10.0 + float(_SHIFT), (2,))
        env.observation_space = shifted  # the violation: the inner env's attribute changes

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        obs, info = super().reset(seed=seed, options=options)
        return obs + _SHIFT, info

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs + _SHIFT, reward, terminated, truncated, info


class _HidesRenderMode(WalkWrapper):
    @property
    def render_mode(self) -> str | None:
        return None  # WRAP-004: not passed through, and not declared by the wrapper


class _EnvIsADecoy(WalkWrapper):
    """``.env`` is another (fresh) Walk, not the env every call is forwarded to (WRAP-005)."""

    def __init__(self, env: Any) -> None:
        super().__init__(Walk(render_mode=env.render_mode))
        self._real = env

    @property
    def _inner(self) -> Any:
        return self._real


class _UnwrappedIsSelf(WalkWrapper):
    @property
    def unwrapped(self) -> Any:
        return self  # WRAP-006: the wrapper, not the innermost env


class _ShallowWrapperAttr(WalkWrapper):
    def get_wrapper_attr(self, name: str) -> Any:
        return getattr(self, name)  # WRAP-007: inner layers are never searched


class _OwnGenerator(WalkWrapper):
    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._rng = np.random.default_rng(0)

    @property
    def np_random(self) -> np.random.Generator:
        return self._rng  # WRAP-008: a generator of its own


def wrap_001_space_not_updated(**kwargs: Any) -> Any:
    return _ScaleWithoutSpace(Walk(**kwargs))


def wrap_002_wider_action_space(**kwargs: Any) -> Any:
    return _WideActions(Walk(**kwargs))


def wrap_003_mutates_inner_space(**kwargs: Any) -> Any:
    return _ShiftMutatingInner(Walk(**kwargs))


def wrap_004_render_mode_hidden(**kwargs: Any) -> Any:
    return _HidesRenderMode(Walk(**kwargs))


def wrap_005_env_chain_decoy(**kwargs: Any) -> Any:
    return _EnvIsADecoy(Walk(**kwargs))


def wrap_006_unwrapped_is_wrapper(**kwargs: Any) -> Any:
    return _UnwrappedIsSelf(Walk(**kwargs))


def wrap_007_wrapper_attr_shallow(**kwargs: Any) -> Any:
    return _ShallowWrapperAttr(Walk(**kwargs))


def wrap_008_own_generator(**kwargs: Any) -> Any:
    return _OwnGenerator(Walk(**kwargs))
