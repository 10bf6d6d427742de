"""Targets whose factory imports a package that takes seconds to import and leaves threads running (as torch and
JAX do): the suite runs their items under spawn isolation, so each process that runs them imports the package anew,
and budgets them as costly to construct (one example an item under the default profile).

:func:`behind_a_slow_import` makes such a factory of any env class (a broken env's too: the defect must still be
found when every process pays seconds to start); :func:`walk` is the correct ``Walk`` behind it. :data:`HEAVY` pairs
broken targets of every family behind the import with the rule each must still fail: its single example is a full
rollout, never Hypothesis' empty one (issue 36). The runtime is
:mod:`tests.meta.broken._slow_runtime` (its import sleeps ``$CONFORMANCE_SLOW_IMPORT_SECONDS``, default 4, and logs
each importing process in ``$CONFORMANCE_SLOW_IMPORT_LOG``): ``benchmarks/bench_suite.py --only "slow import"``
counts how many processes paid for the import and times the run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tests.meta.broken._base import Walk
from tests.meta.broken.env import Env009StepOutside, Env017AliasedObservation
from tests.meta.broken.render import Render013AliasedFrame
from tests.meta.broken.seeding import Seed003EntropyOnUnseededReset
from tests.meta.broken.semantics import HopsBothFlagsAtTerminal
from tests.meta.broken.wrapper import wrap_001_space_not_updated
from tests.meta.broken_func.func import Func008ArrayReward
from tests.meta.broken_vector.autoreset import Autoreset003RewardOnResetStep
from tests.meta.broken_vector.vector import Vec014MaskMissing

__all__ = [
    "HEAVY",
    "RUNTIME",
    "Env011ListReward",
    "autoreset_003",
    "behind_a_slow_import",
    "env_009",
    "env_011",
    "env_017",
    "env_023",
    "func_008",
    "render_013",
    "seed_003",
    "vec_014",
    "walk",
    "wrap_001",
]

RUNTIME = "tests.meta.broken._slow_runtime"
"""The module the factories import (on their first call in a process)."""


def _import_runtime() -> None:
    importlib.import_module(RUNTIME)


def behind_a_slow_import(env: Callable[..., Any]) -> Callable[..., Any]:
    """A factory that imports the slow runtime, then builds ``env(render_mode=...)``."""

    def factory(render_mode: str | None = None) -> Any:
        _import_runtime()
        return env(render_mode=render_mode)

    factory.__name__ = factory.__qualname__ = f"slow_{getattr(env, '__name__', 'env')}"
    return factory


walk = behind_a_slow_import(Walk)
"""The correct ``Walk``, behind the slow import: it passes every rule, under spawn isolation."""


_PACKAGE = "tests.meta.broken.slow_import"


class Env011ListReward(Walk):
    """ENV-011: the reward is a list on every step."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, [reward], terminated, truncated, info


def env_011(render_mode: str | None = None) -> Any:
    _import_runtime()
    return Env011ListReward(render_mode)


def env_009(render_mode: str | None = None) -> Any:
    _import_runtime()
    return Env009StepOutside(render_mode)


def env_017(render_mode: str | None = None) -> Any:
    _import_runtime()
    return Env017AliasedObservation(render_mode)


def env_023(render_mode: str | None = None) -> Any:
    _import_runtime()
    return HopsBothFlagsAtTerminal(render_mode)


def seed_003(render_mode: str | None = None) -> Any:
    _import_runtime()
    return Seed003EntropyOnUnseededReset(render_mode)


def render_013(render_mode: str | None = None) -> Any:
    _import_runtime()
    return Render013AliasedFrame(render_mode)


def wrap_001(render_mode: str | None = None) -> Any:
    _import_runtime()
    return wrap_001_space_not_updated(render_mode=render_mode)


def vec_014(num_envs: int) -> Any:
    _import_runtime()
    return Vec014MaskMissing(num_envs)


def autoreset_003(num_envs: int) -> Any:
    _import_runtime()
    return Autoreset003RewardOnResetStep(num_envs)


def func_008() -> Any:
    _import_runtime()
    return Func008ArrayReward()


HEAVY: tuple[tuple[str, str, str], ...] = (
    ("ENV-011", "--env", f"{_PACKAGE}:env_011"),
    ("ENV-009", "--env", f"{_PACKAGE}:env_009"),
    ("ENV-017", "--env", f"{_PACKAGE}:env_017"),
    ("ENV-023", "--env", f"{_PACKAGE}:env_023"),
    ("SEED-003", "--env", f"{_PACKAGE}:seed_003"),
    ("RENDER-013", "--env", f"{_PACKAGE}:render_013"),
    ("WRAP-001", "--env", f"{_PACKAGE}:wrap_001"),
    ("VEC-014", "--vector-env", f"{_PACKAGE}:vec_014"),
    ("AUTORESET-003", "--vector-env", f"{_PACKAGE}:autoreset_003"),
    ("FUNC-008", "--func-env", f"{_PACKAGE}:func_008"),
)
"""(rule, option, target): each target must fail its rule."""
