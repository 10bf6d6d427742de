"""Envs whose instances share random state (SEED-009), each through another channel.

Each one is a function of its own calls when it is the only instance in use (so SEED-001, SEED-002 and SEED-005
hold, and the suite's "alone" replays agree with each other); only calls on *other* instances perturb it: through a
class attribute, a module global, the global NumPy or ``random`` generator, a space object all instances hold, a
mutable default argument, a cache of generators by seed, or a generator shared from the first unseeded reset on.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from tests.meta.broken._base import Walk
from tests.meta.broken._spaces import Box, Discrete

_MODULE_RNG = np.random.default_rng()


def _restart(rng: np.random.Generator, seed: int) -> None:
    """Put ``rng`` in the state ``default_rng(seed)`` starts in (reseeding in place, as a shared object needs)."""
    rng.bit_generator.state = np.random.default_rng(seed).bit_generator.state


class Seed009ModuleGlobalGenerator(Walk):
    """Every instance draws from one module-level generator, which a seeded reset replaces."""

    def _seed(self, seed: int | None) -> None:
        global _MODULE_RNG
        if seed is not None:
            _MODULE_RNG = np.random.default_rng(seed)  # SEED-009: one generator for the whole module
            self.np_random_seed = seed

    @property
    def np_random(self) -> np.random.Generator:
        return _MODULE_RNG


class Seed009GlobalNumpy(Walk):
    """Seeds and draws from NumPy's legacy global generator."""

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            np.random.seed(seed)  # SEED-009 (and SEED-008): the process-wide generator
            self.np_random_seed = seed

    def _initial_state(self) -> NDArray[np.float64]:
        return np.random.uniform(-1.0, 1.0, size=2)

    def _noise(self) -> float:
        return float(np.random.normal(0.0, 0.1))


class Seed009GlobalRandom(Walk):
    """Seeds and draws from the ``random`` module's global generator."""

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            random.seed(seed)  # SEED-009 (and SEED-008): the process-wide generator
            self.np_random_seed = seed

    def _initial_state(self) -> NDArray[np.float64]:
        return np.array([random.uniform(-1.0, 1.0), random.uniform(-1.0, 1.0)])

    def _noise(self) -> float:
        return random.gauss(0.0, 0.1)


class Seed009SharedSpaces(Walk):
    """The spaces are class attributes: one action space and one observation space for every instance."""

    _action_space: ClassVar[Discrete] = Discrete(3)
    _observation_space: ClassVar[Box] = Box(-10.0, 10.0, (2,))

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self.action_space = self._action_space  # SEED-009: seeding one instance's space seeds them all
        self.observation_space = self._observation_space


class Seed009DynamicsFromSharedSpace(Seed009SharedSpaces):
    """The dynamics draw from the (shared) action space's generator, which a seeded reset reseeds."""

    def _seed(self, seed: int | None) -> None:
        super()._seed(seed)
        if seed is not None:
            self.action_space.seed(seed)

    @property
    def np_random(self) -> np.random.Generator:
        rng: np.random.Generator = self.action_space.np_random  # SEED-009 (and SEED-010)
        return rng


class Seed009MutableDefault(Walk):
    """The generator is a default argument, so every instance made without one shares it."""

    def __init__(self, render_mode: str | None = None, rng: np.random.Generator = np.random.default_rng()) -> None:  # noqa: B008 - the defect under test
        super().__init__(render_mode)
        self._shared = rng  # SEED-009: the one default object

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            _restart(self._shared, seed)
            self.np_random_seed = seed

    @property
    def np_random(self) -> np.random.Generator:
        return self._shared


class Seed009GeneratorPerSeed(Walk):
    """Generators are cached by seed: instances reset with the same seed share one (restarted on each reset)."""

    _by_seed: ClassVar[dict[int, np.random.Generator]] = {}

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            self._np_random = self._by_seed.setdefault(seed, np.random.default_rng(seed))  # SEED-009
            _restart(self._np_random, seed)
            self.np_random_seed = seed


class Seed009SharedAfterUnseededReset(Walk):
    """An unseeded reset moves the instance onto a class-wide generator, which every unseeded reset replaces."""

    _pool: ClassVar[np.random.Generator] = np.random.default_rng(0)

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        self._pooled = False

    def _seed(self, seed: int | None) -> None:
        super()._seed(seed)
        if seed is None:
            # Derived from the instance's own generator, so an instance used alone stays reproducible.
            type(self)._pool = np.random.default_rng(int(super().np_random.integers(2**32)))
        self._pooled = seed is None  # SEED-009: from here on it draws from whichever instance reset last

    @property
    def np_random(self) -> np.random.Generator:
        return type(self)._pool if self._pooled else super().np_random


class Seed009FirstInstanceOwnsTheGenerator(Walk):
    """The first instance ever made owns the generator; later instances borrow it (and reseed it)."""

    _owner: ClassVar[Any] = None

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        if type(self)._owner is None:
            type(self)._owner = self
        self._own = np.random.default_rng()

    def _seed(self, seed: int | None) -> None:
        if seed is not None:
            _restart(self.np_random, seed)
            self.np_random_seed = seed

    @property
    def np_random(self) -> np.random.Generator:
        owner: Seed009FirstInstanceOwnsTheGenerator = type(self)._owner
        return owner._own  # SEED-009: whichever instance was made first


class Seed009CloseClearsSharedOffsets(Walk):
    """A class-level table of start offsets, filled at construction, which every instance's reset reads and which
    ``close`` empties: a live instance's next reset after another's close starts from the default offset instead.
    Nothing raises (ENV-030 holds); only a reset after another instance's close shows it (SEED-009; issue 37 item 12).
    """

    _offsets: ClassVar[dict[str, float]] = {}

    def __init__(self, render_mode: str | None = None) -> None:
        super().__init__(render_mode)
        Seed009CloseClearsSharedOffsets._offsets["start"] = 0.5

    def _initial_state(self) -> NDArray[np.float64]:
        return super()._initial_state() + Seed009CloseClearsSharedOffsets._offsets.get("start", 0.0)

    def close(self) -> None:
        Seed009CloseClearsSharedOffsets._offsets.clear()  # SEED-009: other live instances read it
        super().close()
