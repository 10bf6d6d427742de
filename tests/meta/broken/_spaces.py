"""Small duck-typed spaces (no base class, no Gymnasium) for the broken-env library.

They implement exactly what the ``Space`` protocol and the SPACE rules ask for, so each broken variant can change
one behaviour of a space that is otherwise correct.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

__all__ = ["Box", "Discrete", "MultiBinary", "MultiDiscrete", "TupleSpace"]


class _Seeded:
    """A lazily created, per-instance generator, reseeded by ``seed``."""

    def __init__(self) -> None:
        self._rng: np.random.Generator | None = None

    @property
    def np_random(self) -> np.random.Generator:
        return self._rng if self._rng is not None else self._reseed(None)[1]

    def _reseed(self, seed: int | None) -> tuple[int, np.random.Generator]:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._rng = np.random.default_rng(seed)
        return seed, self._rng

    def seed(self, seed: int | None = None) -> int:
        return self._reseed(seed)[0]

    def __contains__(self, x: object) -> bool:
        return bool(self.contains(x))

    def contains(self, x: object) -> bool:
        raise NotImplementedError


class Discrete(_Seeded):
    """``start .. start + n - 1``."""

    def __init__(self, n: int, start: int = 0) -> None:
        super().__init__()
        self.n = n
        self.start = start
        self.shape: tuple[int, ...] = ()
        self.dtype = np.dtype(np.int64)

    def sample(self) -> np.int64:
        value: np.int64 = np.int64(self.start + int(self.np_random.integers(self.n)))
        return value

    def contains(self, x: object) -> bool:
        if isinstance(x, np.ndarray) and x.shape == () and x.dtype.kind in "iu":
            x = x.item()
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            return False
        return bool(self.start <= int(x) < self.start + self.n)

    def to_jsonable(self, samples: Sequence[Any]) -> list[Any]:
        return [int(x) for x in samples]

    def from_jsonable(self, values: list[Any]) -> list[Any]:
        return [np.int64(v) for v in values]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Discrete) and (self.n, self.start) == (other.n, other.start)

    __hash__ = None  # type: ignore[assignment]  # mutable generator state; equality is by value

    def __repr__(self) -> str:
        return f"Discrete({self.n}, start={self.start})"


class Box(_Seeded):
    """A bounded box of ``shape`` and ``dtype``."""

    def __init__(self, low: float, high: float, shape: tuple[int, ...], dtype: type = np.float32) -> None:
        super().__init__()
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.low: NDArray[Any] = np.full(self.shape, low, dtype=self.dtype)
        self.high: NDArray[Any] = np.full(self.shape, high, dtype=self.dtype)

    def sample(self) -> NDArray[Any]:
        return self.np_random.uniform(self.low, self.high, size=self.shape).astype(self.dtype)

    def contains(self, x: object) -> bool:
        if not isinstance(x, np.ndarray) or x.shape != self.shape or not np.can_cast(x.dtype, self.dtype):
            return False
        return bool(np.all((x >= self.low) & (x <= self.high)))

    def to_jsonable(self, samples: Sequence[Any]) -> list[Any]:
        return [np.asarray(x).tolist() for x in samples]

    def from_jsonable(self, values: list[Any]) -> list[Any]:
        return [np.asarray(v, dtype=self.dtype) for v in values]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Box)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and bool(np.array_equal(self.low, other.low) and np.array_equal(self.high, other.high))
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class MultiDiscrete(_Seeded):
    """Arrays whose component ``i`` lies in ``0 .. nvec[i] - 1``."""

    def __init__(self, nvec: Sequence[int]) -> None:
        super().__init__()
        self.nvec: NDArray[Any] = np.asarray(nvec, dtype=np.int64)
        self.start: NDArray[Any] = np.zeros_like(self.nvec)
        self.shape: tuple[int, ...] = self.nvec.shape
        self.dtype = np.dtype(np.int64)

    def sample(self) -> NDArray[Any]:
        values: NDArray[Any] = (self.np_random.random(self.nvec.shape) * self.nvec).astype(np.int64)
        return values

    def contains(self, x: object) -> bool:
        if not isinstance(x, np.ndarray) or x.shape != self.nvec.shape or x.dtype.kind not in "iu":
            return False
        return bool(np.all((x >= 0) & (x < self.nvec)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultiDiscrete) and bool(np.array_equal(self.nvec, other.nvec))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"MultiDiscrete({self.nvec.tolist()})"


class MultiBinary(_Seeded):
    """0/1 arrays of shape ``n``."""

    def __init__(self, n: Sequence[int]) -> None:
        super().__init__()
        self.n = tuple(n)
        self.shape: tuple[int, ...] = tuple(n)
        self.dtype = np.dtype(np.int8)

    def sample(self) -> NDArray[Any]:
        return self.np_random.integers(0, 2, self.shape).astype(np.int8)

    def contains(self, x: object) -> bool:
        if not isinstance(x, np.ndarray) or x.shape != self.shape or x.dtype.kind not in "iu":
            return False
        return bool(np.all((x == 0) | (x == 1)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultiBinary) and self.n == other.n

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"MultiBinary({list(self.n)})"


class TupleSpace(_Seeded):
    """Tuples with one element per subspace."""

    def __init__(self, spaces: Sequence[Any]) -> None:
        super().__init__()
        self.spaces = tuple(spaces)
        self.shape = None
        self.dtype = None

    def seed(self, seed: int | None = None) -> int:
        seed = super().seed(seed)
        for offset, sub in enumerate(self.spaces):
            sub.seed(seed + offset + 1)
        return seed

    def sample(self) -> tuple[Any, ...]:
        return tuple(sub.sample() for sub in self.spaces)

    def contains(self, x: object) -> bool:
        if not isinstance(x, tuple) or len(x) != len(self.spaces):
            return False
        return all(sub.contains(item) for sub, item in zip(self.spaces, x))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TupleSpace) and self.spaces == other.spaces

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TupleSpace({list(self.spaces)})"
