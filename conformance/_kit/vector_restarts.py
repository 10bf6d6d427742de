"""Where a vector rollout's sub-envs start anew, for a check that needs no model: an autoreset that restarts the
sub-env's generator (VEC-021).

A vector env written directly may re-create sub-env ``i``'s generator from the seed of its last reset whenever it
autoresets it: every episode of that sub-env then starts where its first did. Its own ``num_envs=1`` copies do the
same, so no model exposes it; the starts do, when the start is random: :func:`restarts` collects, per sub-env, the
first start and each start after an autoreset (or, under ``"Disabled"``, after a partial reset), and says whether
every later start repeats its sub-env's first often enough to rule out chance.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance._kit.batching import SplitError, split
from conformance._kit.vector_rollout import VecRecord, ended_flags
from conformance.equality import value_difference
from gymspec import AutoresetMode

__all__ = ["MATCHES", "Restarts"]

MATCHES = 16
"""Later starts, over all sub-envs, that must each repeat their sub-env's first start for a restart to be concluded.
A correct env whose likeliest start has probability ``p`` repeats so with probability at most ``p**16``; the start
counts as random only when no start holds half of the seeded resets' (SEED-004's test), which bounds the pair of
events below ``1e-5`` for every ``p`` (the SEED-004 derivation in gymspec.env, with 16 for 19)."""


class Restarts:
    """The starts of one vector rollout, collected record by record (:meth:`add`).

    Args:
        n: ``num_envs``.
        mode: The declared autoreset mode.
        single: The single observation space (to cut batches into rows).

    Attributes:
        first: Each sub-env's first start (after the seeded reset).
        later: ``(record position, sub-env)`` of each later start.
        repeated: Whether every later start so far repeats its sub-env's first.
    """

    def __init__(self, n: int, mode: AutoresetMode, single: Any) -> None:
        self.n, self.mode, self.single = n, mode, single
        self.first: list[Any] = []
        self.later: list[tuple[int, int]] = []
        self.repeated = True
        self._previous: Any = None

    def add(self, record: VecRecord) -> None:
        """Follow one record: note the starts it holds (``"NextStep"``: the step after a sub-env's end;
        ``"SameStep"``: its ending step's observation; ``"Disabled"``: a partial reset's masked rows)."""
        rows = _rows(self.single, record.obs_copy, self.n)
        if record.kind == "reset":
            self.first, self._previous = (list(rows) if rows is not None else []), None
            return
        starting = [False] * self.n
        if record.kind == "partial":
            starting = [bool(flag) for flag in np.asarray(record.arg).reshape(-1)][: self.n]
            self._previous = None
        else:
            ended = [bool(flag) for flag in ended_flags(record.terminations, record.truncations, self.n)]
            if self.mode is AutoresetMode.SAME_STEP:
                starting = ended
            elif self.mode is AutoresetMode.NEXT_STEP and self._previous is not None:
                starting = self._previous
            self._previous = ended
        if rows is None or not self.first:
            return
        for i, flag in enumerate(starting):
            if flag:
                self.later.append((record.index, i))
                self.repeated = self.repeated and value_difference(rows[i], self.first[i]) is None

    @property
    def decided(self) -> bool:
        """Whether more records cannot change the verdict: a later start that differs, or enough that repeat."""
        return not self.repeated or len(self.later) >= MATCHES

    def restarted(self) -> bool:
        """Whether every later start repeats its sub-env's first, :data:`MATCHES` of them or more."""
        return self.repeated and len(self.later) >= MATCHES


def _rows(single: Any, obs: Any, n: int) -> list[Any] | None:
    try:
        return split(single, obs, n, "observations")
    except SplitError:
        return None  # VEC-011 reports observations outside the batched space
