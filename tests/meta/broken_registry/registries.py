"""One broken registry per REG rule, as classes; the modules ``reg_NNN`` expose an instance's methods.

A "registry" for the suite is a module with ``make`` and ``make_vec``, so each ``reg_NNN`` module is two lines
over the class here that breaks rule ``REG-NNN``.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np

from reference import registration
from reference.core import Wrapper
from reference.error import Error
from reference.registration import EnvSpec
from tests.meta.broken_registry import _base

__all__ = [
    "Correct",
    "NumpyFlagsFromSpec",
    "Reg001MalformedId",
    "Reg002SpecKwargsDropped",
    "Reg003UnversionedId",
    "Reg004KeywordLimitIgnored",
    "Reg005NoOrderEnforcing",
    "Reg006KeyErrorForUnknownIds",
    "Reg007AnyRenderMode",
    "Reg008OneSubEnv",
]


class Correct:
    """The reference registry, unchanged."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002 - the registry API's parameter name
        return _base.make(id, **kwargs)

    def make_vec(self, id: Any, num_envs: int = 1, **kwargs: Any) -> Any:  # noqa: A002
        return _base.make_vec(id, num_envs=num_envs, **kwargs)


def _respec(env: Any, **changes: Any) -> Any:
    env.unwrapped.spec = dataclasses.replace(env.unwrapped.spec, **changes)
    return env


class Reg001MalformedId(Correct):
    """The recorded spec id has a space in it (so it matches no id pattern)."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002
        env = super().make(id, **kwargs)
        spec = copy.copy(env.unwrapped.spec)
        spec.id = str(spec.id).replace("-v", " v")  # bypasses EnvSpec's own validation, as a hand-made spec would
        env.unwrapped.spec = spec
        return env


class Reg002SpecKwargsDropped(Correct):
    """Making from an ``EnvSpec`` ignores the spec's constructor kwargs."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002
        if isinstance(id, EnvSpec):
            id = dataclasses.replace(id, kwargs={})  # noqa: A001
        return super().make(id, **kwargs)


class Reg003UnversionedId(Correct):
    """The recorded spec id drops the version."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002
        env = super().make(id, **kwargs)
        return _respec(env, id=str(env.unwrapped.spec.id).rsplit("-v", 1)[0])


class Reg004KeywordLimitIgnored(Correct):
    """The ``max_episode_steps`` keyword is ignored by ``make`` and ``make_vec`` (the spec's limit still applies)."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002
        kwargs.pop("max_episode_steps", None)
        return super().make(id, **kwargs)

    def make_vec(self, id: Any, num_envs: int = 1, **kwargs: Any) -> Any:  # noqa: A002
        kwargs.pop("max_episode_steps", None)
        return super().make_vec(id, num_envs=num_envs, **kwargs)


class _UncheckedTimeLimit(Wrapper[Any, Any, Any, Any]):
    """A time limit that does not check the call order (the reference ``TimeLimit`` does)."""

    def __init__(self, env: Any, max_episode_steps: int) -> None:
        super().__init__(env)
        self._limit, self._elapsed = max_episode_steps, 0

    def reset(self, **kwargs: Any) -> Any:
        self._elapsed = 0
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> Any:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._elapsed += 1
        return obs, reward, terminated, truncated or self._elapsed >= self._limit, info


class Reg005NoOrderEnforcing(Correct):
    """Nothing enforces the call order although the recorded spec says ``order_enforce=True``."""

    def make(self, id: Any, max_episode_steps: int | None = None, **kwargs: Any) -> Any:  # noqa: A002
        spec = registration.spec(id) if isinstance(id, str) else id
        env = super().make(dataclasses.replace(spec, order_enforce=False), max_episode_steps=-1, **kwargs)
        limit = max_episode_steps or spec.max_episode_steps
        return _respec(env if limit is None else _UncheckedTimeLimit(env, limit), order_enforce=True)


class Reg006KeyErrorForUnknownIds(Correct):
    """An unregistered id raises ``KeyError`` instead of an ``UnregisteredEnv`` error."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002
        try:
            return super().make(id, **kwargs)
        except Error as exc:
            raise KeyError(str(id)) from exc

    def make_vec(self, id: Any, num_envs: int = 1, **kwargs: Any) -> Any:  # noqa: A002
        try:
            return super().make_vec(id, num_envs=num_envs, **kwargs)
        except Error as exc:
            raise KeyError(str(id)) from exc


class Reg007AnyRenderMode(Correct):
    """A ``render_mode`` the env does not declare is dropped silently instead of rejected."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002
        spec = registration.spec(id) if isinstance(id, str) else id
        declared = getattr(registration.load_env_creator(str(spec.entry_point)), "metadata", {}).get("render_modes", [])
        if kwargs.get("render_mode") not in (None, *declared):
            kwargs.pop("render_mode")
        return super().make(id, **kwargs)


class Reg008OneSubEnv(Correct):
    """``make_vec`` always makes a single sub-env."""

    def make_vec(self, id: Any, num_envs: int = 1, **kwargs: Any) -> Any:  # noqa: A002
        return super().make_vec(id, num_envs=1, **kwargs)


class _NumpyFlags(Wrapper[Any, Any, Any, Any]):
    """Returns the flags as ``numpy.bool_`` (which ENV-013/ENV-014 accept as flags)."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, np.bool_(terminated), np.bool_(truncated), info


class NumpyFlagsFromSpec(Correct):
    """Correct, unusually: an env made from an ``EnvSpec`` returns its flags as ``numpy.bool_``, one made from an id
    as ``bool``. REG-002 once compared the types and failed it, "truncated: type bool != bool" (issue 37 item 6)."""

    def make(self, id: Any, **kwargs: Any) -> Any:  # noqa: A002
        env = super().make(id, **kwargs)
        return _NumpyFlags(env) if isinstance(id, EnvSpec) else env
