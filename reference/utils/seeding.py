"""Random number generators for environments and spaces.

The scheme is Gymnasium's: a :class:`numpy.random.SeedSequence` built from the seed feeds a
:class:`numpy.random.PCG64`, so a seeded run here draws exactly the numbers the same run draws in Gymnasium.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from reference.error import Error
from reference.utils._format import describe

__all__ = ["RNG", "RandomNumberGenerator", "np_random"]

RandomNumberGenerator = np.random.Generator
RNG = RandomNumberGenerator


class _SeedTypeError(Error, TypeError):
    """A seed that is not a Python ``int``; catchable as Gymnasium's ``Error`` and as ``TypeError``."""


class _SeedValueError(Error, ValueError):
    """A negative seed; catchable as Gymnasium's ``Error`` and as ``ValueError``."""


def np_random(seed: int | None = None) -> tuple[np.random.Generator, int]:
    """Create a PCG64 generator from ``seed``, the way Gymnasium does.

    Args:
        seed: A non-negative Python ``int`` (``bool`` is accepted because it is an ``int``), or ``None`` to draw
            fresh entropy from the operating system.

    Returns:
        The generator and the seed it was built from; for ``seed=None`` that is the entropy that was drawn, so
        the run can be replayed.

    Raises:
        Error: ``seed`` is not an ``int`` (also a ``TypeError``) or is negative (also a ``ValueError``). NumPy
            integers and integral floats are rejected on purpose, matching Gymnasium.
    """
    if seed is not None:
        if not isinstance(seed, int):
            raise _SeedTypeError(
                f"np_random seed must be a non-negative Python int or None, got {describe(seed)} "
                f"(type {type(seed).__name__}); convert with int(seed)"
            )
        if seed < 0:
            raise _SeedValueError(f"np_random seed must be a non-negative Python int or None, got {seed!r}")
    seed_seq = np.random.SeedSequence(seed)
    # SeedSequence(None) draws a 128-bit int as its entropy; SeedSequence(int) stores the int unchanged.
    used_seed = seed if seed is not None else int(cast(int, seed_seq.entropy))
    return RandomNumberGenerator(np.random.PCG64(seed_seq)), used_seed
