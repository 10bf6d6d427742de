"""Sampling shared by the tabular toy-text environments (Gymnasium's ``toy_text.utils``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["categorical_sample", "sample_transition_index"]


def categorical_sample(prob_n: ArrayLike, np_random: np.random.Generator) -> int:
    """Draw an index from a categorical distribution with one uniform draw.

    The draw is ``u = np_random.random()``; the result is the first index whose cumulative probability exceeds
    ``u``, or 0 when none does (probabilities summing to slightly less than one).

    Args:
        prob_n: The class probabilities.
        np_random: The generator to draw from.

    Returns:
        The sampled index.
    """
    cumulative = np.cumsum(np.asarray(prob_n, dtype=np.float64))
    return int(np.argmax(cumulative > np_random.random()))


def sample_transition_index(probabilities: Sequence[float], np_random: np.random.Generator) -> int:
    """Like :func:`categorical_sample` for a short list of Python floats, without NumPy array overhead.

    A running float64 sum reproduces ``np.cumsum`` exactly (accumulation is sequential), so both functions
    return the same index for the same generator state.

    Args:
        probabilities: The class probabilities (typically 1 or 3 of them).
        np_random: The generator to draw from.

    Returns:
        The sampled index.
    """
    u = np_random.random()
    total = 0.0
    for index, p in enumerate(probabilities):
        total += p
        if total > u:
            return index
    return 0
