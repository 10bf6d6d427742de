"""Broken envs whose one defect other rules would meet too: each must fail its own rule and nothing else.

Each is a single-defect mutant of a base of :mod:`._shapes` whose defect reaches the calls of other rules: a reset
that takes no ``options`` (ENV-031 and SEED-014 pass ``options={}``), unseeded resets that restart from a constant
(SEED-013 compares the streams after two seeds), a ``close`` that fails on an instance made with a render mode
(ENV-030 and SEED-009 close such instances while others go on). The other rules are not checkable on them, naming
the rule that reports the cause, never failed under their own headline (one root cause, one failure).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tests.meta.broken._shapes import Control, Hop

__all__ = ["ControlRendererCloseFails", "ControlRestartsFromConstant", "HopResetWithoutOptions"]


class HopResetWithoutOptions(Hop):
    """ENV-004: ``reset`` has no ``options`` parameter (the pre-1.0 shape ``reset(self, seed=None)``), so every call
    that passes ``options`` raises ``TypeError`` — ``options={}`` (ENV-031, SEED-014) only for that same cause."""

    def reset(self, seed: int | None = None) -> tuple[Any, Any]:  # type: ignore[override]  # ENV-004
        return super().reset(seed=seed)


class ControlRestartsFromConstant(Control):
    """SEED-004: once seeded, every unseeded reset reseeds the generator with one constant, so all of them start
    from one state, whatever the seed was (SEED-013's equal streams are this restart; a fresh instance still draws
    from entropy, so SEED-006 holds)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._seeded = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        self._seeded = self._seeded or seed is not None
        if seed is None and self._seeded:
            self.np_random = np.random.default_rng(2024)  # SEED-004: the stream restarts from a constant
        return super().reset(seed=seed, options=options)


class ControlRendererCloseFails(Control):
    """RENDER-015: an instance made with a render mode cannot release its renderer: its ``close`` raises, rendered or
    not (one made without a mode closes cleanly, so ENV-020 holds; ENV-030 and SEED-009, which close instances made
    in a render mode, cannot check past that close)."""

    def close(self) -> None:
        if self.render_mode is not None:
            raise RuntimeError("ControlRendererCloseFails cannot release its renderer")  # RENDER-015
        super().close()
