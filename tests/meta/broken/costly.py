"""Broken envs made costly to construct: the same defect behind a constructor slow enough that the suite serves its
rules from the shelf and the bin (conformance/_engine/shelf.py) and cuts constructions, so the meta-test can check
that no such saving hides the defect (``tests/meta/test_hostile.py``).

Each twin sleeps :data:`SECONDS` (just over ``shelf.COSTLY_SECONDS``) before its broken base's constructor.
:data:`COSTLY` pairs each with the rule it must fail (or, a SHOULD, warn): rules whose constructions the budget
changed (ENV-021's second instance, ENV-030's two, SEED-006's fresh instances, human mode from the shelf).
"""

from __future__ import annotations

import time

from tests.meta.broken.deep import GridCloseDropsSharedTable
from tests.meta.broken.render import Render008HumanReturnsFrame, Render015CloseFailsAfterRender
from tests.meta.broken.seeding import Seed006FixedEntropy
from tests.meta.broken.unchecked import SingleInstance

__all__ = [
    "COSTLY",
    "SECONDS",
    "CostlyGridCloseDropsSharedTable",
    "CostlyRender008HumanReturnsFrame",
    "CostlyRender015CloseFailsAfterRender",
    "CostlySeed006FixedEntropy",
    "CostlySingleInstance",
]

SECONDS = 0.15
"""How long each construction takes (the shelf applies from 0.1 s)."""

_PACKAGE = "tests.meta.broken.costly"


class CostlyGridCloseDropsSharedTable(GridCloseDropsSharedTable):
    def __init__(self, render_mode: str | None = None) -> None:
        time.sleep(SECONDS)
        super().__init__(render_mode)


class CostlySeed006FixedEntropy(Seed006FixedEntropy):
    def __init__(self, render_mode: str | None = None) -> None:
        time.sleep(SECONDS)
        super().__init__(render_mode)


class CostlyRender008HumanReturnsFrame(Render008HumanReturnsFrame):
    def __init__(self, render_mode: str | None = None) -> None:
        time.sleep(SECONDS)
        super().__init__(render_mode)


class CostlyRender015CloseFailsAfterRender(Render015CloseFailsAfterRender):
    def __init__(self, render_mode: str | None = None) -> None:
        time.sleep(SECONDS)
        super().__init__(render_mode)


class CostlySingleInstance(SingleInstance):
    def __init__(self, render_mode: str | None = None) -> None:
        time.sleep(SECONDS)
        super().__init__(render_mode)


COSTLY: tuple[tuple[str, str], ...] = (
    ("ENV-030", f"{_PACKAGE}:CostlyGridCloseDropsSharedTable"),
    ("SEED-006", f"{_PACKAGE}:CostlySeed006FixedEntropy"),
    ("RENDER-008", f"{_PACKAGE}:CostlyRender008HumanReturnsFrame"),
    ("RENDER-015", f"{_PACKAGE}:CostlyRender015CloseFailsAfterRender"),
    ("ENV-021", f"{_PACKAGE}:CostlySingleInstance"),
)
"""(rule, target) pairs: each target must fail, or warn on, its rule."""
