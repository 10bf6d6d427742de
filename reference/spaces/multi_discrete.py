"""The Cartesian product of Discrete spaces: integer arrays with per-entry ranges ``[start, start + nvec)``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray
from typing_extensions import TypeVar  # takes ``default`` before Python 3.13, unlike typing's

from reference import logger
from reference._narrowing import is_tuple
from reference.spaces._array_space import ArraySpace
from reference.spaces._limits import MAX_DIMS
from reference.spaces._validation import (
    MaskError,
    MaskTypeError,
    both_given_error,
    check_binary_mask,
    check_probability,
    describe,
    require_mask_array,
)
from reference.spaces.discrete import Discrete
from reference.spaces.space import SpaceArg, SpaceState

__all__ = ["MultiDiscrete"]

_IntegerT_co = TypeVar("_IntegerT_co", bound=np.integer[Any], covariant=True, default=np.int64)
_IntegerT = TypeVar("_IntegerT", bound=np.integer[Any])
_IntArrayLike: TypeAlias = ArrayLike  # an int sequence or integer ndarray, possibly nested (whole floats pass)
_Seed: TypeAlias = int | np.random.Generator | None
_Array: TypeAlias = NDArray[Any]


def _as_int_array(owner: str, param: str, value: _IntArrayLike, dtype: np.dtype[Any]) -> _Array:
    """Convert ``value`` to an owned integer array of ``dtype``, rejecting ragged, non-numeric or fractional input."""
    try:
        raw = np.asarray(value)
    except OverflowError:  # a Python int past 2**64 - 1
        raise ValueError(f"{owner} {param} must fit dtype {dtype}, got {describe(value)}") from None
    except (ValueError, TypeError):
        # NumPy refuses nesting past its dimension limit with a ValueError of its own
        raise ValueError(
            f"{owner} {param} must be a (nested) sequence of ints of at most {MAX_DIMS} dimensions, "
            f"got {describe(value)}"
        ) from None
    if raw.ndim > MAX_DIMS:
        raise ValueError(f"{owner} {param} must have at most {MAX_DIMS} dimensions (NumPy's limit), got {raw.ndim}")
    if raw.dtype.kind == "O" and all(isinstance(item, int) for item in raw.flat):
        raise ValueError(f"{owner} {param} must fit dtype {dtype}, got {describe(value)}")
    if raw.dtype.kind == "f":
        if not np.all(np.isfinite(raw)) or not np.all(raw == np.round(raw)):
            raise ValueError(f"{owner} {param} must contain whole numbers, got {describe(raw)}")
    elif raw.dtype.kind not in "iu":
        raise ValueError(f"{owner} {param} must be a (nested) sequence of ints, got {describe(value)}")
    info = np.iinfo(dtype)
    if raw.size and (raw.min() < info.min or raw.max() > info.max):
        raise ValueError(f"{owner} {param} must fit dtype {dtype} [{info.min}, {info.max}], got {describe(raw)}")
    return np.array(raw, dtype=dtype, copy=True)


class MultiDiscrete(ArraySpace[NDArray[_IntegerT_co]]):
    """Integer arrays whose entry ``i`` lies in ``[start[i], start[i] + nvec[i])``, e.g. a game controller.

    Example::

        >>> MultiDiscrete([5, 2, 2], seed=42).sample()
        array([3, 0, 1])

    Args:
        nvec: The number of values of each entry (positive); a nested sequence gives a multi-axis space.
        dtype: An integer dtype.
        seed: Seed or generator for :meth:`sample`.
        start: The smallest value of each entry (default all zeros), of ``nvec``'s shape.

    Raises:
        TypeError: ``dtype`` is not a dtype.
        ValueError: ``dtype`` is not an integer dtype; ``nvec``/``start`` are not whole numbers, differ in
            shape, do not fit ``dtype`` or have more than 32 dimensions; ``nvec`` is empty or some entry is not
            positive.
    """

    dtype: np.dtype[_IntegerT_co]
    nvec: NDArray[_IntegerT_co]
    start: NDArray[_IntegerT_co]
    # Precomputed for the hot paths by ``_init_cache``; rebuilt after unpickling, never pickled.
    _derived_attrs = ("_nvec_f64", "_upper", "_has_start", "_cache_key")
    _copy_from_jsonable = True

    @overload
    def __init__(
        self: MultiDiscrete[np.int64],
        nvec: _IntArrayLike,
        dtype: type[np.int64] = np.int64,
        seed: _Seed = None,
        start: _IntArrayLike | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: MultiDiscrete[_IntegerT],
        nvec: _IntArrayLike,
        dtype: type[_IntegerT] | np.dtype[_IntegerT],
        seed: _Seed = None,
        start: _IntArrayLike | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: MultiDiscrete[Any],
        nvec: _IntArrayLike,
        dtype: str,
        seed: _Seed = None,
        start: _IntArrayLike | None = None,
    ) -> None: ...
    def __init__(
        self,
        nvec: _IntArrayLike,
        dtype: Any = np.int64,
        seed: _Seed = None,
        start: _IntArrayLike | None = None,
    ) -> None:
        if dtype is None:
            raise ValueError("MultiDiscrete dtype must be an integer dtype, got None")
        try:
            resolved = np.dtype(dtype)
        except (TypeError, ValueError):  # ValueError: a dict or list NumPy reads as a malformed structured dtype
            raise TypeError(f"MultiDiscrete dtype must be a numpy dtype, got {describe(dtype)}") from None
        if resolved.kind not in "iu":
            raise ValueError(f"MultiDiscrete dtype must be an integer dtype, got {resolved}")
        self.dtype = resolved
        self.nvec = _as_int_array("MultiDiscrete", "nvec", nvec, resolved)
        if self.nvec.size == 0:
            raise ValueError(
                f"MultiDiscrete nvec must hold at least one entry, got {describe(nvec)} of shape {self.nvec.shape}; "
                "an empty space has no elements to sample"
            )
        if start is None:
            self.start = np.zeros(self.nvec.shape, dtype=resolved)
        else:
            self.start = _as_int_array("MultiDiscrete", "start", start, resolved)
        if self.start.shape != self.nvec.shape:
            raise ValueError(
                f"MultiDiscrete start must have the shape of nvec {self.nvec.shape}, got {describe(self.start)}"
            )
        if not (self.nvec > 0).all():
            raise ValueError(f"MultiDiscrete nvec must be positive everywhere, got {self.nvec.tolist()!r}")
        top = self.start.astype(object) + self.nvec.astype(object) - 1
        if self.nvec.size and int(np.max(top)) > int(np.iinfo(resolved).max):
            raise ValueError(
                f"MultiDiscrete start + nvec - 1 must fit dtype {resolved}, got a maximum of {int(np.max(top))}"
            )
        super().__init__(self.nvec.shape, resolved, seed)
        self._init_cache()

    def _init_cache(self) -> None:
        self._nvec_f64 = self.nvec.astype(np.float64)
        self._upper = self.start + (self.nvec - 1)
        self._has_start = bool(np.any(self.start != 0))
        # Rebuilt when ``nvec`` or ``start`` is reassigned (in-place modification is not supported).
        self._cache_key = (self.nvec, self.start)

    def _fresh(self) -> None:
        if self._cache_key[0] is not self.nvec or self._cache_key[1] is not self.start:
            self._init_cache()

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> NDArray[_IntegerT_co]:
        """Draw an element, each entry uniformly, or restricted by ``mask``, or weighted by ``probability``.

        Args:
            mask: A tuple (nested like ``nvec``) of ``int8`` arrays, one of length ``nvec[i]`` per entry; an
                all-zero mask yields ``start[i]``.
            probability: Like ``mask`` with ``float64`` arrays in ``[0, 1]`` summing to one.

        Returns:
            A new array of shape ``nvec.shape``.

        Raises:
            ValueError: Both arguments were given or one is malformed (also Gymnasium's ``Error``).
            TypeError: A mask is not a tuple/ndarray where one is expected (also Gymnasium's ``Error``).
        """
        if mask is not None and probability is not None:
            raise both_given_error("MultiDiscrete.sample", mask, probability)
        if mask is not None:
            return np.array(self._apply_mask(mask, self.nvec, self.start, "mask"), dtype=self.dtype)
        if probability is not None:
            return np.array(self._apply_mask(probability, self.nvec, self.start, "probability"), dtype=self.dtype)
        rng = self._np_random
        if rng is None:
            rng = self.np_random
        u = rng.random(self.nvec.shape)
        self._fresh()
        out = (u * self._nvec_f64).astype(self.dtype)
        if self._has_start:
            out += self.start
        return out

    def _apply_mask(self, sub_mask: SpaceArg, sub_nvec: _Array, sub_start: _Array, mask_type: str) -> Any:
        """Sample one (nested) entry; recursion mirrors the axes of ``nvec``."""
        owner = "MultiDiscrete.sample"
        if sub_nvec.ndim > 0:
            if not is_tuple(sub_mask):
                raise MaskTypeError(
                    f"{owner} {mask_type} must be a tuple with one entry per element of nvec {sub_nvec.tolist()}, "
                    f"got {describe(sub_mask)}"
                )
            if len(sub_mask) != len(sub_nvec):
                raise MaskError(
                    f"{owner} {mask_type} must have length {len(sub_nvec)} (one per element of nvec), "
                    f"got length {len(sub_mask)}"
                )
            return [
                self._apply_mask(m, n, s, mask_type) for m, n, s in zip(sub_mask, sub_nvec, sub_start, strict=True)
            ]
        n = int(sub_nvec)
        rng = self.np_random
        if mask_type == "mask":
            arr = require_mask_array(owner, "mask", sub_mask, (n,), np.int8)
            check_binary_mask(owner, arr)
            valid = arr == 1
            if valid.any():
                return rng.choice(np.where(valid)[0]) + sub_start
            return sub_start
        arr = require_mask_array(owner, "probability", sub_mask, (n,), np.float64)
        check_probability(owner, arr)
        valid = (arr > 0) & (arr <= 1)
        normalised = arr / np.sum(arr)
        return rng.choice(np.where(valid)[0], p=normalised[valid]) + sub_start

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is an integer array of the right shape with every entry in range.

        Lists are converted to arrays first.

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        arr: _Array  # declared: isinstance on an object leaves pyright with unknown type arguments
        if isinstance(x, Sequence):
            try:
                arr = np.array(x)  # pyright: ignore[reportUnknownArgumentType]
            except (ValueError, TypeError):
                return False
        elif isinstance(x, np.ndarray):
            arr = x  # pyright: ignore[reportUnknownVariableType]
        else:
            return False
        self._fresh()
        return bool(
            arr.shape == self._shape
            and np.can_cast(arr.dtype, self.dtype)
            and (self.start <= arr).all()
            and (arr <= self._upper).all()
        )

    def __repr__(self) -> str:
        if np.any(self.start != 0):
            return f"MultiDiscrete({self.nvec}, start={self.start})"
        return f"MultiDiscrete({self.nvec})"

    def __getitem__(self, index: int | tuple[int, ...]) -> Discrete[Any] | MultiDiscrete[Any]:
        """Extract the subspace at ``index``; it starts from a copy of this space's generator state.

        Args:
            index: An index into ``nvec``.

        Returns:
            A :class:`Discrete` for a single entry, else a :class:`MultiDiscrete`.
        """
        nvec = self.nvec[index]
        start = self.start[index]
        subspace: Discrete[Any] | MultiDiscrete[Any]
        if nvec.ndim == 0:
            subspace = Discrete(int(nvec), start=int(start), dtype=self.dtype)
        else:
            subspace = MultiDiscrete(nvec, start=start, dtype=self.dtype)
        subspace.np_random.bit_generator.state = self.np_random.bit_generator.state
        return subspace

    def __len__(self) -> int:
        if self.nvec.ndim >= 2:
            logger.warn("Getting the length of a multi-dimensional MultiDiscrete space.", stacklevel=2)
        return len(self.nvec)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MultiDiscrete):
            return False
        # Declared: pyright reads the isinstance as MultiDiscrete[Unknown].
        space: MultiDiscrete[Any] = other  # pyright: ignore[reportUnknownVariableType]
        return bool(
            self.dtype == space.dtype
            and self._shape == space.shape
            and np.all(self.nvec == space.nvec)
            and np.all(self.start == space.start)
        )

    def __setstate__(self, state: SpaceState) -> None:
        """Restore a pickled MultiDiscrete, defaulting ``start`` for pickles that predate it.

        Args:
            state: The pickled attributes.
        """
        state = dict(state)
        if "start" not in state:
            state["start"] = np.zeros(state["_shape"], dtype=state["dtype"])
        super().__setstate__(state)
        self._init_cache()
