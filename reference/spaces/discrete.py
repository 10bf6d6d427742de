"""A finite set of consecutive integers ``{start, ..., start + n - 1}``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, TypeAlias, overload

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeVar  # takes ``default`` before Python 3.13, unlike typing's

from reference.spaces._draws import DrawBuffer, supports_batching
from reference.spaces._validation import (
    both_given_error,
    check_binary_mask,
    check_probability,
    describe,
    require_mask_array,
)
from reference.spaces.space import Jsonable, MaskNDArray, Space, SpaceState

__all__ = ["Discrete"]

_IntegerT_co = TypeVar("_IntegerT_co", bound=np.integer[Any], covariant=True, default=np.int64)
_IntegerT = TypeVar("_IntegerT", bound=np.integer[Any])
_Int: TypeAlias = int | np.integer[Any]
_Seed: TypeAlias = int | np.random.Generator | None


def _is_integer(value: object) -> bool:
    return isinstance(value, (int, np.integer))


class Discrete(Space[_IntegerT_co]):
    r"""The integers ``{start, start + 1, ..., start + n - 1}``; elements are NumPy integer scalars.

    Example::

        >>> Discrete(3, start=-1, seed=42).sample()
        np.int64(-1)

    Args:
        n: The number of elements (positive).
        seed: Seed or generator for :meth:`sample`.
        start: The smallest element.
        dtype: An integer dtype for the elements.

    Raises:
        TypeError: ``n`` or ``start`` is not an integer, or ``dtype`` is not an integer dtype.
        ValueError: ``n <= 0``, or ``n``, ``start`` or ``start + n - 1`` does not fit ``dtype``.
    """

    dtype: np.dtype[_IntegerT_co]
    # Caches from ``_init_cache`` and the generator machinery; ``__getstate__`` stores Gymnasium's layout instead.
    _derived_attrs = ("_scalar_type", "_lo", "_hi", "_dtype_min", "_dtype_max", "_rng", "_draws", "_n", "_start")

    @overload
    def __init__(
        self: Discrete[np.int64],
        n: _Int,
        seed: _Seed = None,
        start: _Int = 0,
        dtype: type[np.int64] = np.int64,
    ) -> None: ...
    @overload
    def __init__(
        self: Discrete[_IntegerT],
        n: _Int,
        seed: _Seed = None,
        start: _Int = 0,
        *,
        dtype: type[_IntegerT] | np.dtype[_IntegerT],
    ) -> None: ...
    @overload
    def __init__(
        self: Discrete[Any],
        n: _Int,
        seed: _Seed = None,
        start: _Int = 0,
        *,
        dtype: str,
    ) -> None: ...
    def __init__(
        self,
        n: _Int,
        seed: _Seed = None,
        start: _Int = 0,
        dtype: Any = np.int64,
    ) -> None:
        if not _is_integer(n) or isinstance(n, bool):
            raise TypeError(f"Discrete n must be an integer, got {describe(n)}")
        if n <= 0:
            raise ValueError(f"Discrete n must be positive, got {n!r}")
        if not _is_integer(start) or isinstance(start, bool):
            raise TypeError(f"Discrete start must be an integer, got {describe(start)}")
        if dtype is None:
            raise TypeError("Discrete dtype must be an integer dtype, got None")
        try:
            resolved = np.dtype(dtype)
        except (TypeError, ValueError):  # ValueError: a dict or list NumPy reads as a malformed structured dtype
            raise TypeError(f"Discrete dtype must be an integer dtype, got {describe(dtype)}") from None
        if resolved.kind not in "iu":
            raise TypeError(f"Discrete dtype must be an integer dtype, got {resolved}")
        iinfo = np.iinfo(resolved)
        if int(n) > iinfo.max:  # n is stored in the dtype too, so it must fit whatever the start
            raise ValueError(f"Discrete n must fit dtype {resolved} (at most {iinfo.max}), got {int(n)}")
        if not iinfo.min <= int(start) or not int(start) + int(n) - 1 <= iinfo.max:
            raise ValueError(
                f"Discrete start and start + n - 1 must fit dtype {resolved} [{iinfo.min}, {iinfo.max}], "
                f"got start={int(start)} n={int(n)}"
            )
        self.dtype = resolved  # pyright: ignore[reportIncompatibleVariableOverride]
        self._n: Any = resolved.type(n)
        self._start: Any = resolved.type(start)
        self._init_cache()
        super().__init__((), resolved, seed)

    @property
    def n(self) -> _IntegerT_co:
        """The number of elements."""
        return self._n  # type: ignore[no-any-return]

    @n.setter
    def n(self, value: _Int) -> None:
        self._n = self.dtype.type(value)
        self._refresh()

    @property
    def start(self) -> _IntegerT_co:
        """The smallest element."""
        return self._start  # type: ignore[no-any-return]

    @start.setter
    def start(self, value: _Int) -> None:
        self._start = self.dtype.type(value)
        self._refresh()

    def _refresh(self) -> None:
        """Recompute the caches after ``n`` or ``start`` changed, keeping the generator's exact state."""
        draws = self._draws
        if draws is not None:
            draws.rewind()
        self._init_cache()
        if draws is not None and self._rng is not None:
            self._draws = DrawBuffer(self._rng, self._lo, self._hi, self._scalar_type)

    def _init_cache(self) -> None:
        # Plain-Python copies of the hot attributes: sample/contains then avoid NumPy scalar arithmetic.
        self._scalar_type: type[np.integer[Any]] = self.dtype.type
        self._lo = int(self.start)
        self._hi = int(self.start) + int(self.n)
        iinfo = np.iinfo(self.dtype)
        self._dtype_min, self._dtype_max = int(iinfo.min), int(iinfo.max)

    # The generator lives in ``_rng``. While it is private (created by ``seed``), ``_draws`` hands out values
    # drawn ahead in batches; any outside access to the generator first rewinds it to the exact state
    # one-at-a-time draws would have left, and stops the batching until the next ``seed``.
    _rng: np.random.Generator | None = None
    _draws: DrawBuffer | None = None

    @property
    def _np_random(self) -> np.random.Generator | None:
        draws = self._draws
        if draws is not None:
            draws.rewind()
            self._draws = None
        return self._rng

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self._draws = None
        self._rng = value

    def seed(self, seed: int | None = None) -> int:
        """Re-create the generator from ``seed``.

        Args:
            seed: A non-negative ``int``, or ``None`` for fresh entropy.

        Returns:
            The seed used.
        """
        used: int = super().seed(seed)
        if self._rng is not None and supports_batching(self.dtype):
            self._draws = DrawBuffer(self._rng, self._lo, self._hi, self._scalar_type)
        return used

    def _own_rng(self) -> np.random.Generator:
        """The generator at its logical state, without ending the batching (for this class's own draws)."""
        if self._rng is None:
            self.seed()
        draws = self._draws
        if draws is not None:
            draws.rewind()
        return self._rng  # type: ignore[return-value]

    @property
    def shape(self) -> tuple[int, ...]:
        """Always ``()``."""
        return ()

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Always ``True`` (one-hot encoding)."""
        return True

    def sample(
        self, mask: MaskNDArray | None = None, probability: MaskNDArray | None = None
    ) -> _IntegerT_co:
        """Draw an element uniformly, or restricted by ``mask``, or weighted by ``probability``.

        Args:
            mask: An ``int8`` array of shape ``(n,)``; ``1`` marks allowed values. When nothing is allowed,
                ``start`` is returned.
            probability: A ``float64`` array of shape ``(n,)`` in ``[0, 1]`` summing to one.

        Returns:
            A NumPy integer of the space's dtype.

        Raises:
            ValueError: Both arguments were given, or one has the wrong dtype/shape/values
                (also Gymnasium's ``Error``).
            TypeError: ``mask``/``probability`` is not an ndarray (also Gymnasium's ``Error``).
        """
        if mask is None and probability is None:
            draws = self._draws
            if draws is None:
                if self._rng is None:
                    self.seed()
                draws = self._draws
            if draws is not None:
                return draws.next()  # type: ignore[no-any-return]
            # integers(start, start + n) draws exactly what start + integers(n) draws: only the range matters.
            return self._rng.integers(self._lo, self._hi, dtype=self._scalar_type)  # type: ignore[union-attr,no-any-return]
        rng = self._own_rng()
        if mask is not None and probability is not None:
            raise both_given_error("Discrete.sample", mask, probability)
        n = self._hi - self._lo
        if mask is not None:
            mask = require_mask_array("Discrete.sample", "mask", mask, (n,), np.int8)
            check_binary_mask("Discrete.sample", mask)
            valid = mask == 1
            if valid.any():
                return self.start + self._scalar_type(rng.choice(np.where(valid)[0]))  # type: ignore[no-any-return]
            return self.start
        probability = require_mask_array("Discrete.sample", "probability", probability, (n,), np.float64)
        check_probability("Discrete.sample", probability)
        return self.start + rng.choice(np.arange(self.n, dtype=self.dtype), p=probability)  # type: ignore[no-any-return]

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is an integer in the range that can be cast to the space's dtype.

        Python ints, NumPy integer scalars and 0-d integer arrays are accepted; floats never are.

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        if isinstance(x, int):
            return self._lo <= x < self._hi and self._dtype_min <= x <= self._dtype_max
        if isinstance(x, (np.integer, np.ndarray)):
            # Declared: isinstance on an object leaves pyright with unknown type arguments.
            value: np.integer[Any] | NDArray[Any] = x  # pyright: ignore[reportUnknownVariableType]
            if value.dtype.kind not in "iu" or value.shape != ():
                return False
            return self._lo <= int(value) < self._hi and bool(np.can_cast(value.dtype, self.dtype))
        return False

    def __repr__(self) -> str:
        info = [str(self.n)]
        if int(self.start) != 0:
            info.append(f"start={self.start}")
        if self.dtype != np.int64:
            info.append(f"dtype={self.dtype}")
        return f"Discrete({', '.join(info)})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Discrete):
            return False
        # Declared: pyright reads the isinstance as Discrete[Unknown].
        space: Discrete[Any] = other  # pyright: ignore[reportUnknownVariableType]
        return self.n == space.n and self.start == space.start and self.dtype == space.dtype

    def __getstate__(self) -> dict[str, Any]:
        """Return the attributes to pickle (Gymnasium's layout), without the derived caches.

        The generator is stored as ``_np_random`` at its exact logical state; since a shallow copy shares it,
        this counts as exposing it.
        """
        rng = self._np_random
        state = super().__getstate__()
        state["n"] = self._n
        state["start"] = self._start
        state["_np_random"] = rng
        return state

    def __setstate__(self, state: SpaceState) -> None:
        """Restore a pickled Discrete, defaulting ``start`` for pickles that predate it.

        Args:
            state: The pickled attributes.
        """
        state = dict(state)
        n = state.pop("n")
        start = state.pop("start", np.int64(0))
        rng = state.pop("_np_random", state.pop("np_random", None))
        super().__setstate__(state)
        self._n, self._start = n, start
        self._init_cache()
        self._np_random = rng  # pyright: ignore[reportIncompatibleVariableOverride]

    def to_jsonable(self, sample_n: Sequence[Any]) -> Jsonable:
        """Convert elements to Python ints.

        Args:
            sample_n: Elements of the space.

        Returns:
            The elements as ints.
        """
        return [int(x) for x in sample_n]

    def from_jsonable(self, sample_n: Jsonable) -> list[_IntegerT_co]:
        """Convert ints back to NumPy integers of the space's dtype.

        Args:
            sample_n: The output of :meth:`to_jsonable`.

        Returns:
            The elements.
        """
        return [self.dtype.type(x) for x in sample_n]
