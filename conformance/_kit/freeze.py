"""Keeping what a target returned, as it was when returned, in bounded memory.

Rollouts keep every result they compare later (SEED rules replay an episode and compare it position by position).
Copies are the cheapest exact record — copying 4 MiB takes a fraction of a millisecond, hashing it several — so a
:class:`Freezer` copies while the copies it made stay under a byte budget, and past the budget keeps large arrays
as an :class:`ArrayDigest` (dtype, shape and a hash of the bytes) instead. Memory per rollout is then bounded by the
budget plus a few dozen bytes a step, whatever the observation size; :func:`conformance.equality.difference`
compares digests with digests or with arrays.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance._engine.describe import is_array, is_dict, is_list, is_tuple, rebuilt_dict, rebuilt_tuple

__all__ = ["DEFAULT_BUDGET", "ArrayDigest", "Freezer", "digest_of"]

DEFAULT_BUDGET = 64 << 20
"""Bytes of copies one rollout keeps before large arrays are kept as digests."""

_SMALL = 64 << 10  # arrays up to this size are always copied: their digest would save little


@dataclass(frozen=True)
class ArrayDigest:
    """An array kept by its dtype, shape and a hash of its bytes (equal digests: equal arrays).

    Attributes:
        dtype: The array's dtype.
        shape: Its shape.
        digest: SHA-1 of its C-ordered bytes (NaN payloads included, so NaNs compare by bit pattern).
        summary: A short description for messages.
    """

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    digest: bytes
    summary: str

    def __repr__(self) -> str:
        return f"{self.summary} (kept as a digest)"


def digest_of(array: np.ndarray[Any, Any]) -> ArrayDigest:
    """The digest of an array (object arrays are not hashable by bytes: callers copy those)."""
    contiguous = np.ascontiguousarray(array)
    digest = hashlib.sha1(contiguous.data.cast("B"), usedforsecurity=False).digest()
    return ArrayDigest(array.dtype, tuple(array.shape), digest, f"ndarray(shape={array.shape}, dtype={array.dtype})")


class Freezer:
    """Copies values (arrays and containers) until ``budget`` bytes of array copies are held, then digests.

    Args:
        budget: Bytes of large-array copies to keep before switching to digests.
    """

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.held = 0

    def __call__(self, value: Any) -> Any:
        """A copy of ``value`` that the target can no longer change (large arrays past the budget digested)."""
        if is_array(value):
            if value.nbytes <= _SMALL or value.dtype.kind == "O":
                return value.copy()
            if self.held + value.nbytes <= self.budget:
                self.held += value.nbytes
                return value.copy()
            return digest_of(value)
        if is_tuple(value):
            return rebuilt_tuple(value, (self(item) for item in value))
        if is_list(value):
            return [self(item) for item in value]
        if is_dict(value):
            # Kept as its own type (rebuilt_dict): equality compares container types, and an env that returns
            # OrderedDicts (highway-env's parking-v0) or defaultdicts would otherwise read as one whose results change
            # type later.
            return rebuilt_dict(value, ((key, self(item)) for key, item in value.items()))
        return value
