"""Finite sequences of any length over a feature space."""

from __future__ import annotations

import typing
from typing import Any, Literal, TypeAlias

import numpy as np

from reference._narrowing import is_array, is_list_or_tuple, is_tuple
from reference.spaces import _batching
from reference.spaces._limits import check_fits_memory
from reference.spaces._validation import MaskError, MaskTypeError, describe, pick_sample_arg
from reference.spaces.space import Jsonable, Space, SpaceArg
from reference.spaces.tuple import INT32_MAX

__all__ = ["Sequence"]

_ITEM_BYTES = 8
"""The fewest bytes one item of a sample takes (its slot in the tuple): a length past memory / 8 cannot be sampled."""

_Seed: TypeAlias = int | np.random.Generator | None
_SequenceSample: TypeAlias = Any  # a tuple of feature samples, or their stacked batch when ``stack=True``


class Sequence(Space[_SequenceSample]):
    r"""Tuples ``(a_0, ..., a_n)`` of any length whose items belong to ``space``.

    Lengths are drawn from a geometric distribution (mean 4). With ``stack=True`` samples are the stacked batch
    of items (e.g. an ``(n, *shape)`` array) instead of a tuple.

    Args:
        space: The feature space every item belongs to.
        seed: Seed or generator; an int seeds this space and the feature space deterministically.
        stack: Return stacked batches instead of tuples.

    Raises:
        TypeError: ``space`` is not a space, or ``stack`` is not a bool.
    """

    feature_space: Space[Any]
    stack: bool
    stacked_feature_space: Space[Any]

    def __init__(self, space: Space[Any], seed: _Seed | tuple[int, int] = None, stack: bool = False) -> None:
        if not isinstance(space, Space):
            raise TypeError(f"Sequence space must be a reference Space, got {describe(space)}")
        if not isinstance(stack, (bool, np.bool_)):
            raise TypeError(f"Sequence stack must be a bool, got {describe(stack)}")
        self.feature_space = space
        self.stack = bool(stack)
        if self.stack:
            self.stacked_feature_space = _batching.batch_space(space, 1)
        # Space.__init__ hands per-subspace seeds on to ``seed``, which needs the subspaces set first.
        super().__init__(None, None, seed)

    def seed(self, seed: int | typing.Sequence[Any] | None = None) -> tuple[Any, Any]:
        """Seed this space (which draws lengths) and the feature space.

        Args:
            seed: ``None`` for fresh entropy; an int seeds this space, draws the feature seed from it, then
                re-seeds this space with the int (as Gymnasium); a pair gives both seeds explicitly.

        Returns:
            ``(own_seed, feature_seed)``.

        Raises:
            TypeError: ``seed`` is of another type.
            ValueError: A seed pair does not have two entries.
        """
        if seed is None:
            return super().seed(None), self.feature_space.seed(None)
        if isinstance(seed, int):
            own = super().seed(seed)
            feature_seed = int(self.np_random.integers(INT32_MAX))
            super().seed(seed)
            return own, self.feature_space.seed(feature_seed)
        if is_list_or_tuple(seed):
            if len(seed) != 2:
                raise ValueError(f"Sequence seed must be a pair (own seed, feature seed), got {len(seed)} entries")
            return super().seed(seed[0]), self.feature_space.seed(seed[1])
        raise TypeError(f"Sequence seed must be an int, a pair of seeds or None, got {describe(seed)}")

    @property
    def is_np_flattenable(self) -> Literal[False]:
        """Always ``False`` (the length varies)."""
        return False

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> _SequenceSample:
        """Draw a length, then that many feature samples.

        Args:
            mask: ``(length_mask, feature_mask)``: ``length_mask`` is ``None`` (geometric length), an int (fixed
                length) or a 1-D int array (a length drawn from it); ``feature_mask`` is passed to every
                feature sample.
            probability: Like ``mask`` with a feature probability instead of a feature mask.

        Returns:
            A tuple of feature samples, or their stacked batch when ``stack=True``.

        Raises:
            ValueError: Both arguments were given, or a length mask is negative, malformed or too long for this
                machine's memory (also Gymnasium's ``Error``).
            TypeError: A mask is not a pair, or the length mask has the wrong type (also Gymnasium's ``Error``).
        """
        if mask is None and probability is None:
            length = int(self.np_random.geometric(0.25))
            items = tuple(self.feature_space.sample() for _ in range(length))
        else:
            name, value = pick_sample_arg("Sequence.sample", mask, probability)
            if not is_tuple(value) or len(value) != 2:
                raise MaskTypeError(
                    f"Sequence.sample {name} must be a (length_mask, feature_{name}) pair, got {describe(value)}"
                )
            length = int(self.generate_sample_length(value[0], name))
            items = tuple(self.feature_space.sample(**{name: value[1]}) for _ in range(length))
        if self.stack:
            out = _batching.create_empty_array(self.feature_space, len(items))
            return _batching.concatenate(self.feature_space, items, out)
        return items

    def generate_sample_length(self, length_mask: SpaceArg, mask_type: str | None) -> int:
        """Return the length of the next sample.

        Args:
            length_mask: ``None`` (geometric), a non-negative int (that length) or a 1-D array of non-negative
                ints (one of them, uniformly).
            mask_type: ``"mask"`` or ``"probability"``, for messages.

        Returns:
            The length.

        Raises:
            ValueError: The length mask is negative, not 1-D integers, or a length too long for this machine's
                memory (also Gymnasium's ``Error``).
            TypeError: The length mask has another type (also Gymnasium's ``Error``).
        """
        owner = "Sequence.sample"
        if length_mask is None:
            return int(self.np_random.geometric(0.25))
        if isinstance(length_mask, (int, np.integer)) and not isinstance(length_mask, bool):
            if length_mask < 0:
                raise MaskError(f"{owner} {mask_type} length must be >= 0, got {describe(length_mask)}")  # pyright: ignore[reportUnknownArgumentType]
            check_fits_memory(owner, f"{mask_type} length", int(length_mask), _ITEM_BYTES, "items", MaskError)  # pyright: ignore[reportUnknownArgumentType]
            return int(length_mask)  # pyright: ignore[reportUnknownArgumentType]
        if is_array(length_mask):
            if length_mask.ndim != 1 or length_mask.dtype.kind not in "iu":
                raise MaskError(f"{owner} {mask_type} lengths must be a 1-D integer array, got {describe(length_mask)}")
            if not (length_mask >= 0).all():
                raise MaskError(f"{owner} {mask_type} lengths must all be >= 0, got {length_mask.tolist()!r}")
            if length_mask.size:
                check_fits_memory(owner, f"{mask_type} lengths", int(length_mask.max()), _ITEM_BYTES, "items", MaskError)
            return int(self.np_random.choice(length_mask))
        raise MaskTypeError(f"{owner} {mask_type} length must be None, an int or an int array, got {describe(length_mask)}")

    def contains(self, x: object) -> bool:
        """Tell whether every item of ``x`` belongs to the feature space (``x`` a tuple, or a batch if stacked).

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        if self.stack:
            try:
                return all(self.feature_space.contains(item) for item in _batching.iterate(self.stacked_feature_space, x))
            except (TypeError, ValueError):
                return False
        return isinstance(x, tuple) and all(self.feature_space.contains(item) for item in x)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]

    def __repr__(self) -> str:
        return f"Sequence({self.feature_space}, stack={self.stack})"

    def to_jsonable(self, sample_n: typing.Sequence[Any]) -> Jsonable:
        """Convert a batch of sequences to JSON values.

        Args:
            sample_n: Elements of the space.

        Returns:
            One JSON list per sequence.
        """
        if self.stack:
            return self.stacked_feature_space.to_jsonable(sample_n)
        return [self.feature_space.to_jsonable(sample) for sample in sample_n]

    def from_jsonable(self, sample_n: Jsonable) -> list[_SequenceSample]:
        """Invert :meth:`to_jsonable`.

        Args:
            sample_n: One JSON list per sequence.

        Returns:
            The elements.
        """
        if self.stack:
            return self.stacked_feature_space.from_jsonable(sample_n)
        return [tuple(self.feature_space.from_jsonable(sample)) for sample in sample_n]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self.feature_space == other.feature_space and self.stack == other.stack
