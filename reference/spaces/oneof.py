"""The direct sum of spaces: an element is ``(index, x)`` with ``x`` from ``spaces[index]``."""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Any, Generic, TypeAlias, TypeVar

import numpy as np

from reference._narrowing import is_list_or_tuple
from reference.spaces._validation import describe, pick_sample_arg, require_arg_tuple
from reference.spaces.space import Jsonable, Space, SpaceArg
from reference.spaces.tuple import INT32_MAX, check_subspaces

__all__ = ["OneOf"]

_T_co = TypeVar("_T_co", covariant=True)
_Seed: TypeAlias = int | np.random.Generator | None


def _column_oriented(space: Space[Any]) -> bool:
    # Imported here: tuple.py/dict.py do not depend on this module, but keep the import graph obvious.
    from reference.spaces.dict import Dict
    from reference.spaces.tuple import Tuple

    return isinstance(space, (Tuple, Dict))


class OneOf(Space[tuple[int, _T_co]], Generic[_T_co]):
    """Exactly one of several spaces: elements are ``(index, x)`` where ``x`` belongs to ``spaces[index]``.

    Example::

        >>> OneOf((Discrete(2), Box(-1, 1, shape=(2,))), seed=123).sample()  # doctest: +SKIP
        (np.int64(0), np.int64(0))

    Args:
        spaces: The alternatives (at least one).
        seed: Seed or generator; an int seeds this space and every subspace deterministically.

    Raises:
        TypeError: ``spaces`` is not an iterable of spaces.
        ValueError: ``spaces`` is empty.
    """

    spaces: tuple[Space[_T_co], ...]

    def __init__(self, spaces: Iterable[Space[_T_co]], seed: _Seed | typing.Sequence[Any] = None) -> None:
        self.spaces = check_subspaces("OneOf", spaces)
        # Space.__init__ hands per-subspace seeds on to ``seed``, which needs the subspaces set first.
        super().__init__(None, None, seed)

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every subspace is."""
        return all(space.is_np_flattenable for space in self.spaces)

    def seed(self, seed: int | typing.Sequence[Any] | None = None) -> tuple[Any, ...]:
        """Seed this space (which picks the alternative) and every subspace.

        Args:
            seed: ``None`` for fresh entropy everywhere; an int seeds this space, draws one seed per subspace
                from it, then re-seeds this space with the int (as Gymnasium); a list/tuple of ``1 + k`` seeds
                gives this space and each subspace its own.

        Returns:
            This space's seed followed by each subspace's.

        Raises:
            TypeError: ``seed`` is of another type.
            ValueError: A seed list has the wrong length.
        """
        if seed is None:
            own = super().seed(None)
            return (own, *(space.seed(None) for space in self.spaces))
        if isinstance(seed, int):
            own = super().seed(seed)
            subseeds = self.np_random.integers(INT32_MAX, size=len(self.spaces))
            super().seed(seed)
            return (own, *(space.seed(int(sub)) for space, sub in zip(self.spaces, subseeds, strict=True)))
        if is_list_or_tuple(seed):
            if len(seed) != len(self.spaces) + 1:
                raise ValueError(
                    f"OneOf seed must have 1 + {len(self.spaces)} entries (this space, then each subspace), "
                    f"got {len(seed)} entries"
                )
            own = super().seed(seed[0])
            return (own, *(space.seed(sub) for space, sub in zip(self.spaces, seed[1:], strict=True)))
        raise TypeError(f"OneOf seed must be an int, a list/tuple of seeds or None, got {describe(seed)}")

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> tuple[int, _T_co]:
        """Pick an alternative uniformly, then draw from it.

        Args:
            mask: A tuple with one mask (or ``None``) per subspace; only the chosen one is used.
            probability: A tuple with one probability (or ``None``) per subspace; only the chosen one is used.

        Returns:
            ``(index, sample)`` with ``index`` an ``np.int64``.

        Raises:
            ValueError: Both arguments were given, or the tuple has the wrong length (also Gymnasium's ``Error``).
            TypeError: ``mask``/``probability`` is not a tuple (also Gymnasium's ``Error``).
        """
        # The index is drawn first, before any argument check, to keep Gymnasium's draw order.
        index = self.np_random.integers(0, len(self.spaces), dtype=np.int64)
        subspace = self.spaces[index]
        if mask is None and probability is None:
            return index, subspace.sample()  # type: ignore[return-value]
        name, value = pick_sample_arg("OneOf.sample", mask, probability)
        value = require_arg_tuple("OneOf.sample", name, value, len(self.spaces))
        return index, subspace.sample(**{name: value[index]})  # type: ignore[return-value]

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is ``(index, value)`` with a valid index and ``value`` in that subspace.

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        return bool(
            isinstance(x, tuple)
            and len(x) == 2  # pyright: ignore[reportUnknownArgumentType]
            and isinstance(x[0], (np.int64, int))  # pyright: ignore[reportArgumentType]
            and 0 <= x[0] < len(self.spaces)
            and self.spaces[x[0]].contains(x[1])  # pyright: ignore[reportUnknownArgumentType]
        )

    def __repr__(self) -> str:
        return "OneOf(" + ", ".join(str(s) for s in self.spaces) + ")"

    def to_jsonable(self, sample_n: typing.Sequence[Any]) -> Jsonable:
        """Convert a batch to ``[index, json_value]`` pairs.

        Args:
            sample_n: Elements of the space.

        Returns:
            One pair per element.
        """
        pairs: list[list[Any]] = []
        for i, sub in sample_n:
            space = self.spaces[i]  # pyright: ignore[reportUnknownVariableType]
            batch = space.to_jsonable([sub])  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
            # Row-oriented batches (a list with one entry per element) store that entry, as Gymnasium does;
            # Tuple and Dict batches are column-oriented, so the whole batch of one is kept (Gymnasium's
            # ``[0]`` would lose or fail on them).
            pairs.append([int(i), batch if _column_oriented(space) else batch[0]])  # pyright: ignore[reportUnknownArgumentType]
        return pairs

    def from_jsonable(self, sample_n: Jsonable) -> list[tuple[Any, ...]]:
        """Invert :meth:`to_jsonable`.

        Args:
            sample_n: ``[index, json_value]`` pairs.

        Returns:
            The elements, with ``np.int64`` indices.
        """
        return [
            (np.int64(i), self.spaces[i].from_jsonable(value if _column_oriented(self.spaces[i]) else [value])[0])  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType]
            for i, value in sample_n
        ]

    def __getitem__(self, index: int) -> Space[_T_co]:
        """Return the alternative at ``index``.

        Args:
            index: The position.

        Returns:
            The subspace.
        """
        return self.spaces[index]

    def __len__(self) -> int:
        return len(self.spaces)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, OneOf) and self.spaces == other.spaces  # pyright: ignore[reportUnknownMemberType]
