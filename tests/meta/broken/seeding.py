"""Envs that break one SEED rule each, by changing how ``Walk`` seeds or draws randomness."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from tests.meta.broken._base import Walk


class Seed001PerInstance(Walk):
    """The seed is mixed with the instance's identity: each instance replays itself, but no two agree."""

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng([seed, id(self) % 100_000])  # SEED-001
            self.np_random_seed = seed


class Seed001OsEntropy(Walk):
    """reset(seed=s) ignores ``s`` and draws from OS entropy (tetris-gymnasium's defect): not reproducible at all.

    Only the SEED rules that establish reproducibility may fail on it; every rule that compares a baseline with an
    intervention (global generators, space sampling, rendering, wrapping) is not checkable, never failed."""

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng()  # SEED-001: the seed is dropped
            self.np_random_seed = seed


class Seed002EpisodeCounter(Walk):
    """Non-random state (an episode counter) leaks into the initial state."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._episodes = 0

    def _initial_state(self) -> NDArray[np.float64]:
        self._episodes += 1
        return super()._initial_state() + 0.01 * (self._episodes - 1)  # SEED-002


class Seed003EntropyOnUnseededReset(Walk):
    def _seed(self, seed: int | None) -> None:
        if seed is None:
            self._np_random = np.random.default_rng()  # SEED-003: a fresh generator instead of continuing
        else:
            super()._seed(seed)


class Seed004ReplayOnUnseededReset(Walk):
    def _seed(self, seed: int | None) -> None:
        super()._seed(self.np_random_seed if seed is None else seed)  # SEED-004: reseed with the last seed


class Seed004ConstantOnUnseededReset(Walk):
    """Once seeded, every unseeded reset starts a generator seeded with a constant: reproducible, and every episode
    alike. A fresh instance still draws from entropy (a constant there too would also break SEED-006, a second
    defect), and SEED-013, whose equal streams for two seeds are this restart again, is not checkable."""

    def _seed(self, seed: int | None) -> None:
        if seed is None and self.np_random_seed is not None:
            self._np_random = np.random.default_rng(0)  # SEED-004: the stream restarts from a constant
        else:
            super()._seed(seed)


class Seed004RewindsOnUnseededReset(Walk):
    """The generator's state is saved at each seeded reset and restored by every unseeded one."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._saved: Mapping[str, Any] | None = None

    def _seed(self, seed: int | None) -> None:
        super()._seed(seed)
        if seed is not None:
            self._saved = self.np_random.bit_generator.state
        elif self._saved is not None:
            self.np_random.bit_generator.state = self._saved  # SEED-004: rewinds instead of continuing


class Seed004DerivedFromSeedOnUnseededReset(Walk):
    """An unseeded reset reseeds with a value derived from the seed the env reports (``np_random_seed + 1``)."""

    def _seed(self, seed: int | None) -> None:
        if seed is None and self.np_random_seed is not None:
            self._np_random = np.random.default_rng(self.np_random_seed + 1)  # SEED-004: one fixed restart point
        else:
            super()._seed(seed)


class Seed004NoiseRewindsOnUnseededReset(Seed004RewindsOnUnseededReset):
    """:class:`Seed004RewindsOnUnseededReset` with a fixed start: only the noise of its steps replays after each
    unseeded reset. SEED-004 compared starts only and read the fixed start as "too little randomness to tell"; it
    compares episodes now (issue 37 item 10)."""

    def _initial_state(self) -> NDArray[np.float64]:
        return np.zeros(2)


class Seed005PreviousSeedLeaks(Walk):
    """``reset(seed=s2)`` after a reset with another seed is perturbed by that earlier seed."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._previous: int | None = None

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            mix = 0 if self._previous in (None, seed) else int(self._previous) % 1000 + 1
            self._np_random = np.random.default_rng([seed, mix])  # SEED-005
            self.np_random_seed = seed
            self._previous = seed


class Seed006FixedEntropy(Walk):
    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random = np.random.default_rng(0)  # SEED-006: "entropy" is a constant
        return self._np_random


class Seed007SmallSeedsOnly(Walk):
    def _seed(self, seed: int | None) -> None:
        if seed is not None and seed >= 2**32:
            raise ValueError(f"Seed007SmallSeedsOnly seed must be < 2**32, got {seed}")  # SEED-007
        super()._seed(seed)


class Seed008AdvancesGlobal(Walk):
    def _noise(self) -> float:
        np.random.random()  # SEED-008: advances (without using) the global generators
        random.random()
        return super()._noise()


class Seed008TaskFromGlobalAtConstruction(Walk):
    """Draws its task (a start offset) from NumPy's global generator when constructed, as an env that picks its
    task with ``np.random`` in ``__init__`` does. SEED-008 once ended "not checked — the target is not reproducible —
    see SEED-008" on it (itself); the draw is the cause, seen directly (issue 37 item 8)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._offset = float(np.random.uniform(-1.0, 1.0))  # SEED-008: the global generator decides the task

    def _initial_state(self) -> NDArray[np.float64]:
        return super()._initial_state() + self._offset


class Seed008LateGlobalDraws(Walk):
    """From the fourth step of an episode on, its noise comes from NumPy's global generator (mo-gymnasium's
    ``minecart-v0`` draws from it late in its episodes): short episodes, so the quick profile's rollouts reach it."""

    def _noise(self) -> float:
        if self._steps >= 3:
            return float(np.random.normal(0.0, 0.1))  # SEED-008
        return super()._noise()


class Seed013IgnoresSeedValue(Walk):
    """``reset(seed=s)`` re-creates the generator from one constant whatever ``s`` is (and reports ``s``); unseeded
    resets continue it. Seeds 0..k give one episode while unseeded episodes vary: SEED-013's precondition once read
    that as "not random" and passed (issue 37 item 10)."""

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(7)  # SEED-013: the seed's value is ignored
            self.np_random_seed = seed


class Seed013NoiseFromEpisodeCount(Walk):
    """A fixed start, and each unseeded reset re-creates the generator from the episode count: the episodes after
    ``reset(seed=s)`` are the same for every ``s`` (issue 37 item 10; SEED-013 compared starts only)."""

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._episodes = 0

    def _seed(self, seed: int | None) -> None:
        self._episodes = 0 if seed is not None else self._episodes + 1
        if seed is None and self.np_random_seed is not None:
            self._np_random = np.random.default_rng(self._episodes)  # SEED-013: a stream every seed shares
        else:
            super()._seed(seed)

    def _initial_state(self) -> NDArray[np.float64]:
        return np.zeros(2)


class Seed009SharedGenerator(Walk):
    _shared: ClassVar[np.random.Generator] = np.random.default_rng(0)

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            type(self)._shared = np.random.default_rng(seed)  # SEED-009: one generator for all instances
            self.np_random_seed = seed

    @property
    def np_random(self) -> np.random.Generator:
        return type(self)._shared


class Seed010CoupledToActionSpace(Walk):
    def _seed(self, seed: int | None) -> None:
        super()._seed(seed)
        if seed is not None:
            self.action_space.seed(seed)

    def _noise(self) -> float:
        return float(self.action_space.np_random.normal(0.0, 0.1))  # SEED-010: the space's generator


class Seed011WrongSeedReported(Walk):
    def _seed(self, seed: int | None) -> None:
        super()._seed(seed)
        if seed is not None:
            self.np_random_seed = seed + 1  # SEED-011
