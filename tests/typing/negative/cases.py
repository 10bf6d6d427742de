"""Envs that must NOT satisfy ``gymspec.Env``: each marked assignment must be rejected by mypy.

This file is excluded from the repo-wide mypy run (see mypy.ini); ``test_negative_cases.py`` type-checks it on its
own and asserts that every line tagged ``# rejects: <member>`` fails, with mypy naming ``<member>`` as the reason.
"""

from __future__ import annotations

from typing import SupportsFloat

import gymspec
from gymspec._typing import InfoDict, Options
from tests.typing._duck import DuckEnv


class FourTupleStep(DuckEnv):
    def step(self, action: int) -> tuple[int, float, bool, InfoDict]:  # type: ignore[override]
        return action, 1.0, False, {}


class ResetWithoutSeed(DuckEnv):
    def reset(self, *, options: Options | None = None) -> tuple[int, InfoDict]:  # type: ignore[override]
        return 0, {}


class ResetWithoutOptions(DuckEnv):
    def reset(self, *, seed: int | None = None) -> tuple[int, InfoDict]:  # type: ignore[override]
        return 0, {}


class ResetReturnsOnlyObservation(DuckEnv):
    def reset(self, *, seed: int | None = None, options: Options | None = None) -> int:  # type: ignore[override]
        return 0


class IntTerminated(DuckEnv):
    def step(self, action: int) -> tuple[int, SupportsFloat, int, bool, InfoDict]:  # type: ignore[override]
        return action, 1.0, 0, False, {}


class StringReward(DuckEnv):
    def step(self, action: int) -> tuple[int, str, bool, bool, InfoDict]:  # type: ignore[override]
        return action, "1.0", False, False, {}


class ListInfo(DuckEnv):
    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, list[str]]:  # type: ignore[override]
        return action, 1.0, False, False, []


class _NoRenderNoClose:
    metadata: InfoDict = {}
    render_mode: str | None = None

    def __init__(self) -> None:
        inner = DuckEnv()
        self.action_space = inner.action_space
        self.observation_space = inner.observation_space

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}

    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:
        return action, 1.0, False, False, {}


class NoRender(_NoRenderNoClose):
    def close(self) -> None:
        return None


class NoClose(_NoRenderNoClose):
    def render(self) -> None:
        return None


class NoObservationSpace:
    metadata: InfoDict = {}
    render_mode: str | None = None

    def __init__(self) -> None:
        self.action_space = DuckEnv().action_space

    def reset(self, *, seed: int | None = None, options: Options | None = None) -> tuple[int, InfoDict]:
        return 0, {}

    def step(self, action: int) -> tuple[int, SupportsFloat, bool, bool, InfoDict]:
        return action, 1.0, False, False, {}

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


four_tuple: gymspec.Env[int, int] = FourTupleStep()  # rejects: step
no_seed: gymspec.Env[int, int] = ResetWithoutSeed()  # rejects: reset
no_options: gymspec.Env[int, int] = ResetWithoutOptions()  # rejects: reset
only_obs: gymspec.Env[int, int] = ResetReturnsOnlyObservation()  # rejects: reset
int_terminated: gymspec.Env[int, int] = IntTerminated()  # rejects: step
str_reward: gymspec.Env[int, int] = StringReward()  # rejects: step
list_info: gymspec.Env[int, int] = ListInfo()  # rejects: step
no_render: gymspec.Env[int, int] = NoRender()  # rejects: render
no_close: gymspec.Env[int, int] = NoClose()  # rejects: close
no_obs_space: gymspec.Env[int, int] = NoObservationSpace()  # rejects: observation_space
