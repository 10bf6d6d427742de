"""The Cartesian product of spaces: tuples with one element per subspace."""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any, TypeAlias, TypeVar, overload

import numpy as np

from reference._narrowing import is_list_or_tuple
from reference.spaces._validation import describe, pick_sample_arg, require_arg_tuple
from reference.spaces.space import Jsonable, Space, SpaceArg

__all__ = ["Tuple", "check_subspaces"]

_T_co = TypeVar("_T_co", covariant=True)
_Seed: TypeAlias = int | np.random.Generator | None
_SubSeeds: TypeAlias = int | typing.Sequence[Any] | None

# Children of composite spaces are seeded from ``integers(INT32_MAX, size=k)`` of the parent's generator.
INT32_MAX = int(np.iinfo(np.int32).max)


def check_subspaces(owner: str, spaces: object, *, allow_empty: bool = False) -> tuple[Space[Any], ...]:
    """Validate the subspaces of a composite space.

    Args:
        owner: The composite's name for messages.
        spaces: The candidate subspaces.
        allow_empty: Accept no subspaces (a Tuple may be empty, as in Gymnasium; a OneOf may not).

    Returns:
        The subspaces as a tuple.

    Raises:
        TypeError: ``spaces`` is not iterable or holds a non-space.
        ValueError: ``spaces`` is empty and ``allow_empty`` is false.
    """
    not_iterable = TypeError(f"{owner} spaces must be an iterable of spaces, got {describe(spaces)}")
    if isinstance(spaces, (str, bytes, Space)) or not isinstance(spaces, Iterable):
        raise not_iterable
    try:
        result = tuple(spaces)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    except TypeError:  # iterable in name only (a 0-d array)
        raise not_iterable from None
    if not result and not allow_empty:
        raise ValueError(f"{owner} spaces must not be empty, got {describe(spaces)}")  # pyright: ignore[reportUnknownArgumentType]
    for index, space in enumerate(result):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
        if not isinstance(space, Space):
            raise TypeError(f"{owner} spaces[{index}] must be a reference Space, got {describe(space)}")  # pyright: ignore[reportUnknownArgumentType]
    return result  # pyright: ignore[reportUnknownVariableType]


class Tuple(Space[tuple[_T_co, ...]], typing.Sequence[Any]):
    """The Cartesian product of ``spaces``: elements are tuples ``(x_0, ..., x_k)`` with ``x_i`` in ``spaces[i]``.

    The space is a read-only sequence of its subspaces (indexing, ``len``, iteration, ``index``, ``count``).

    Args:
        spaces: The subspaces (at least one).
        seed: Seed or generator; an int seeds every subspace deterministically (see :meth:`seed`).

    Raises:
        TypeError: ``spaces`` is not an iterable of spaces.
        ValueError: ``spaces`` is empty and ``allow_empty`` is false.
    """

    spaces: tuple[Space[Any], ...]
    # The flattening layout utils caches on the space (see ``_flat_plan``) is rebuilt on demand.
    _derived_attrs = ("_flat_plan",)

    def __init__(self, spaces: Iterable[Space[_T_co]], seed: _Seed | typing.Sequence[Any] = None) -> None:
        self.spaces = check_subspaces("Tuple", spaces, allow_empty=True)
        # Space.__init__ hands per-subspace seeds on to ``seed``, which needs the subspaces set first.
        super().__init__(None, None, seed)

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every subspace is."""
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: _SubSeeds = None) -> tuple[Any, ...]:
        """Seed every subspace.

        Args:
            seed: ``None`` seeds each subspace from fresh entropy; an int seeds this space, whose generator then
                draws one seed per subspace (``integers(2**31 - 1, size=k)``, as Gymnasium); a list or tuple
                gives each subspace its own seed.

        Returns:
            The seeds the subspaces report, one per subspace.

        Raises:
            TypeError: ``seed`` is of another type.
            ValueError: A seed list has the wrong length.
        """
        if seed is None:
            return tuple(space.seed(None) for space in self.spaces)
        if isinstance(seed, int):
            super().seed(seed)
            subseeds = self.np_random.integers(INT32_MAX, size=len(self.spaces))
            return tuple(space.seed(int(sub)) for space, sub in zip(self.spaces, subseeds, strict=True))
        if is_list_or_tuple(seed):
            if len(seed) != len(self.spaces):
                raise ValueError(
                    f"Tuple seed must have one entry per subspace ({len(self.spaces)}), got {len(seed)} entries"
                )
            return tuple(space.seed(sub) for sub, space in zip(seed, self.spaces, strict=True))
        raise TypeError(f"Tuple seed must be an int, a list/tuple of seeds or None, got {describe(seed)}")

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> tuple[_T_co, ...]:
        """Draw one element from every subspace.

        Args:
            mask: A tuple with one mask (or ``None``) per subspace.
            probability: A tuple with one probability (or ``None``) per subspace.

        Returns:
            The tuple of samples.

        Raises:
            ValueError: Both arguments were given, or the tuple has the wrong length (also Gymnasium's ``Error``).
            TypeError: ``mask``/``probability`` is not a tuple (also Gymnasium's ``Error``).
        """
        if mask is None and probability is None:
            return tuple(space.sample() for space in self.spaces)
        name, value = pick_sample_arg("Tuple.sample", mask, probability)
        value = require_arg_tuple("Tuple.sample", name, value, len(self.spaces))
        return tuple(space.sample(**{name: sub}) for space, sub in zip(self.spaces, value, strict=True))

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is a tuple (or list/array) whose items belong to the matching subspaces.

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        if isinstance(x, np.ndarray) and x.ndim == 0:
            return False  # a 0-d array has no items (and cannot be iterated)
        if isinstance(x, (list, np.ndarray)):
            x = tuple(x)  # pyright: ignore[reportUnknownArgumentType]
        return (
            isinstance(x, tuple)
            and len(x) == len(self.spaces)  # pyright: ignore[reportUnknownArgumentType]
            and all(space.contains(part) for space, part in zip(self.spaces, x, strict=True))  # pyright: ignore[reportUnknownArgumentType]
        )

    def __repr__(self) -> str:
        return "Tuple(" + ", ".join(str(s) for s in self.spaces) + ")"

    def to_jsonable(self, sample_n: typing.Sequence[Any]) -> Jsonable:
        """Convert a batch to one JSON batch per subspace.

        Args:
            sample_n: Elements of the space.

        Returns:
            A list with, per subspace, that subspace's JSON form of its parts.
        """
        return [space.to_jsonable([sample[i] for sample in sample_n]) for i, space in enumerate(self.spaces)]

    def from_jsonable(self, sample_n: Jsonable) -> list[tuple[Any, ...]]:
        """Invert :meth:`to_jsonable`.

        Args:
            sample_n: One JSON batch per subspace.

        Returns:
            The elements.
        """
        parts = [space.from_jsonable(sample_n[i]) for i, space in enumerate(self.spaces)]
        return list(zip(*parts, strict=True))

    @overload
    def __getitem__(self, index: int) -> Space[Any]: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Space[Any], ...]: ...
    def __getitem__(self, index: int | slice) -> Space[Any] | tuple[Space[Any], ...]:
        return self.spaces[index]

    def __len__(self) -> int:
        return len(self.spaces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tuple) and self.spaces == other.spaces
