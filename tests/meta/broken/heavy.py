"""Broken targets behind a heavy import (:mod:`tests.meta.broken._heavy_import`: seconds, and two threads left
running, as importing torch or JAX does): the suite runs them spawned, budgets them as costly to construct and gives
each rule one example, so each must still fail its rule on the evidence its floor asks for, never pass on a rollout
of no steps (issue 36).

Each factory imports the heavy package when it is first called, as a factory that imports its simulator does, and
then builds a broken target of the catalog (or, for ENV-011, the issue's own: a reward that is a list on every step).
:data:`HEAVY` pairs each with the rule it must fail.
"""

from __future__ import annotations

import importlib
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
    "Env011ListReward",
    "autoreset_003",
    "env_009",
    "env_011",
    "env_017",
    "env_023",
    "func_008",
    "render_013",
    "seed_003",
    "vec_014",
    "wrap_001",
]

_PACKAGE = "tests.meta.broken.heavy"


def _heavy() -> None:
    importlib.import_module("tests.meta.broken._heavy_import")


class Env011ListReward(Walk):
    """ENV-011: the reward is a list on every step."""

    def step(self, action: Any) -> tuple[Any, Any, Any, Any, Any]:
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, [reward], terminated, truncated, info


def env_011(render_mode: str | None = None) -> Any:
    _heavy()
    return Env011ListReward(render_mode)


def env_009(render_mode: str | None = None) -> Any:
    _heavy()
    return Env009StepOutside(render_mode)


def env_017(render_mode: str | None = None) -> Any:
    _heavy()
    return Env017AliasedObservation(render_mode)


def env_023(render_mode: str | None = None) -> Any:
    _heavy()
    return HopsBothFlagsAtTerminal(render_mode)


def seed_003(render_mode: str | None = None) -> Any:
    _heavy()
    return Seed003EntropyOnUnseededReset(render_mode)


def render_013(render_mode: str | None = None) -> Any:
    _heavy()
    return Render013AliasedFrame(render_mode)


def wrap_001(render_mode: str | None = None) -> Any:
    _heavy()
    return wrap_001_space_not_updated(render_mode=render_mode)


def vec_014(num_envs: int) -> Any:
    _heavy()
    return Vec014MaskMissing(num_envs)


def autoreset_003(num_envs: int) -> Any:
    _heavy()
    return Autoreset003RewardOnResetStep(num_envs)


def func_008() -> Any:
    _heavy()
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
