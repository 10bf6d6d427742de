"""How a Box turns generator draws into elements, reproducing Gymnasium's sampler draw for draw.

A plan is chosen once from the bounds: :class:`UniformPlan` when every coordinate is bounded (``low + range * U``
on precomputed float64 arrays, which is exactly what ``Generator.uniform`` computes), else :class:`MixedPlan`
(Gymnasium's normal / exponential / uniform split with the masks precomputed).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

__all__ = ["MixedPlan", "SamplePlan", "UniformPlan", "plan_sampling"]

_Array: TypeAlias = NDArray[Any]


def plan_sampling(low: _Array, high: _Array, below: NDArray[np.bool_], above: NDArray[np.bool_]) -> SamplePlan:
    """Choose the sampler for a Box with these bounds.

    Args:
        low: The Box's lower bounds.
        high: The Box's upper bounds.
        below: Where the Box is bounded below.
        above: Where the Box is bounded above.

    Returns:
        The plan.
    """
    # Integer boxes draw floor(uniform(low, high + 1)).
    sample_high = high if low.dtype.kind == "f" else high.astype(np.int64) + 1
    if bool(below.all() and above.all()):
        low64 = low.astype(np.float64).ravel()
        range64 = sample_high.astype(np.float64).ravel() - low64
        # Infinite ranges keep the generic path so they fail exactly as Gymnasium does.
        if bool(np.isfinite(range64).all()):
            return UniformPlan(low64, range64, low, high)
    return MixedPlan(low, high, sample_high, below, above)


class SamplePlan:
    """How a Box turns generator draws into an element; chosen once from the bounds."""

    def __init__(self, low: _Array, high: _Array) -> None:
        self.low = low
        self.high = high
        self.shape: tuple[int, ...] = low.shape
        self.dtype: np.dtype[Any] = low.dtype

    def draw(self, rng: np.random.Generator) -> _Array:
        raise NotImplementedError

    def finish(self, sample: _Array) -> _Array:
        """Convert a float64 draw to the box dtype exactly as Gymnasium does (floor, clip, cast, clip)."""
        dtype = self.dtype
        kind = dtype.kind
        if kind == "f":
            return sample.astype(dtype)
        sample = np.floor(sample)
        if kind in "iu":
            iinfo = np.iinfo(dtype)
            dtype_min, dtype_max = int(iinfo.min), int(iinfo.max)
            if dtype == np.int64:
                # float64 cannot represent the int64 limits exactly; stay inside them after the cast.
                dtype_min += 2
                dtype_max -= 2
            sample = sample.clip(min=dtype_min, max=dtype_max)
        out = sample.astype(dtype)
        if dtype == np.int64:
            # float64 rounding near the int64 limits can still land outside the bounds.
            out = out.clip(min=self.low, max=self.high)
        return out


class UniformPlan(SamplePlan):
    """All coordinates bounded with a finite range: ``low + range * U`` on precomputed float64 arrays."""

    def __init__(self, low64: _Array, range64: _Array, low: _Array, high: _Array) -> None:
        super().__init__(low, high)
        self.low64 = low64
        self.range64 = range64
        self.size = int(low64.size)
        self.is_float = self.dtype.kind == "f"

    def draw(self, rng: np.random.Generator) -> _Array:
        u = rng.random(self.size)
        u *= self.range64
        u += self.low64
        if self.is_float:
            return u.astype(self.dtype).reshape(self.shape)
        return self.finish(u.reshape(self.shape))


class MixedPlan(SamplePlan):
    """Some coordinate unbounded: Gymnasium's four-way split, with the masks and indexed bounds precomputed."""

    def __init__(
        self,
        low: _Array,
        high: _Array,
        sample_high: _Array,
        below: NDArray[np.bool_],
        above: NDArray[np.bool_],
    ) -> None:
        super().__init__(low, high)
        self.unbounded = ~below & ~above
        self.upp_bounded = ~below & above
        self.low_bounded = below & ~above
        self.bounded = below & above
        self.n_unbounded = int(self.unbounded.sum())
        self.n_upp = int(self.upp_bounded.sum())
        self.n_low = int(self.low_bounded.sum())
        self.n_bounded = int(self.bounded.sum())
        self.low_of_low_bounded = low[self.low_bounded]
        self.high_of_upp_bounded = sample_high[self.upp_bounded]
        self.low_of_bounded = low[self.bounded]
        self.high_of_bounded = sample_high[self.bounded]

    def draw(self, rng: np.random.Generator) -> _Array:
        sample = np.empty(self.shape)
        # Same draw order as Gymnasium; empty draws consume nothing, so they are skipped.
        if self.n_unbounded:
            sample[self.unbounded] = rng.normal(size=(self.n_unbounded,))
        if self.n_low:
            sample[self.low_bounded] = rng.exponential(size=(self.n_low,)) + self.low_of_low_bounded
        if self.n_upp:
            sample[self.upp_bounded] = -rng.exponential(size=(self.n_upp,)) + self.high_of_upp_bounded
        if self.n_bounded:
            sample[self.bounded] = rng.uniform(
                low=self.low_of_bounded, high=self.high_of_bounded, size=(self.n_bounded,)
            )
        return self.finish(sample)
