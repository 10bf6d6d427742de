"""Strings of bounded length over a fixed character set."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_tuple
from reference.spaces._limits import check_fits_memory
from reference.spaces._validation import (
    MaskError,
    MaskTypeError,
    both_given_error,
    check_binary_mask,
    check_probability,
    describe,
    require_mask_array,
)
from reference.spaces.space import Jsonable, Space, SpaceArg, SpaceState

__all__ = ["Text", "alphanumeric"]

_Seed: TypeAlias = int | np.random.Generator | None

#: The default character set: ASCII letters and digits.
alphanumeric: frozenset[str] = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


def _is_integer(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


class Text(Space[str]):
    r"""Strings of ``min_length`` to ``max_length`` characters (both inclusive) drawn from ``charset``.

    Example::

        >>> Text(5)
        Text(1, 5, charset=0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz)

    Args:
        max_length: The maximum length.
        min_length: The minimum length (default 1, so no empty strings).
        charset: The allowed characters: a set (ordered by sorting) or a string (ordered as written,
            duplicates dropped).
        seed: Seed or generator for :meth:`sample`.

    Raises:
        TypeError: A length is not an integer, or ``charset`` is not an iterable of strings.
        ValueError: ``min_length < 0``, ``min_length > max_length``, an element of ``charset`` is not a single
            character, ``charset`` is empty while non-empty strings are required, or ``max_length`` characters
            could never be sampled in this machine's memory.
    """

    # Built by ``_init_cache``; rebuilt after unpickling, never pickled.
    _derived_attrs = ("_uniform_p", "_char_array")

    def __init__(
        self,
        max_length: int,
        *,
        min_length: int = 1,
        charset: frozenset[str] | str = alphanumeric,
        seed: _Seed = None,
    ) -> None:
        if not _is_integer(min_length):
            raise TypeError(f"Text min_length must be an integer, got {describe(min_length)}")
        if not _is_integer(max_length):
            raise TypeError(f"Text max_length must be an integer, got {describe(max_length)}")
        if min_length < 0:
            raise ValueError(f"Text min_length must be non-negative, got {min_length!r}")
        if min_length > max_length:
            raise ValueError(f"Text min_length must be <= max_length, got min_length={min_length} max_length={max_length}")
        # A sample draws one float64 per character: a length whose draws cannot fit in memory can never be sampled.
        check_fits_memory("Text", "max_length", int(max_length), 8, "characters")
        self.min_length: int = int(min_length)
        self.max_length: int = int(max_length)

        if isinstance(charset, (set, frozenset)):
            try:
                char_list = sorted(charset)
            except TypeError:
                raise TypeError(f"Text charset must contain only strings, got {describe(charset)}") from None
        elif isinstance(charset, Iterable):
            try:
                char_list = list(dict.fromkeys(charset))
            except TypeError:  # iterable in name only (a 0-d array), or holding unhashable items
                raise TypeError(f"Text charset must be a string or a set of characters, got {describe(charset)}") from None
        else:
            raise TypeError(f"Text charset must be a string or a set of characters, got {describe(charset)}")
        invalid = [c for c in char_list if not isinstance(c, str) or len(c) != 1]
        if invalid:
            raise ValueError(f"Text charset must contain single characters only, got {invalid[:5]!r}")
        if not char_list and self.max_length > 0:
            raise ValueError("Text charset must not be empty when max_length > 0, got an empty charset")

        self._char_set: frozenset[str] = frozenset(char_list)
        self._char_list: tuple[str, ...] = tuple(char_list)
        self._char_index: dict[str, np.int32] = {c: np.int32(i) for i, c in enumerate(char_list)}
        self._char_str: str = "".join(sorted(char_list))
        super().__init__(dtype=str, seed=seed)
        self._init_cache()

    def _init_cache(self) -> None:
        # The uniform distribution Gymnasium passes to choice (same float values, so the same draws).
        n = len(self._char_list)
        self._uniform_p = np.ones(n) / n if n else np.ones(0)
        self._char_array = np.array(self._char_list) if n else np.array([], dtype=str)

    def sample(
        self,
        mask: SpaceArg | None = None,
        probability: SpaceArg | None = None,
    ) -> str:
        """Draw a string: a uniform length in ``[min_length, max_length]``, then uniform characters.

        Args:
            mask: ``(length, char_mask)``: a fixed length (or ``None``) and an ``int8`` array with one ``0``/``1``
                per character of :attr:`character_list` (or ``None``). An all-zero mask gives ``""`` when
                ``min_length == 0``.
            probability: ``(length, char_probability)`` with ``float64`` weights summing to one.

        Returns:
            The string.

        Raises:
            ValueError: Both arguments were given, one is malformed, or the mask allows no character although
                ``min_length > 0`` (mask errors are also Gymnasium's ``Error``).
            TypeError: ``mask``/``probability`` is not a 2-tuple of the documented types (also Gymnasium's
                ``Error``).
        """
        if mask is not None and probability is not None:
            raise both_given_error("Text.sample", mask, probability)
        length: int | None
        char_p: NDArray[np.float64] | None
        if mask is not None:
            length, char_mask = self._validate_mask(mask, np.int8, "mask")
            char_p = None
            if char_mask is not None:
                check_binary_mask("Text.sample", char_mask)
                total = np.sum(char_mask)
                char_p = char_mask / total if total > 0 else char_mask.astype(np.float64)
        elif probability is not None:
            length, char_p = self._validate_mask(probability, np.float64, "probability")
            if char_p is not None:
                check_probability("Text.sample", char_p)
        else:
            length, char_p = None, None

        rng = self._np_random
        if rng is None:
            rng = self.np_random
        if length is None:
            length = int(rng.integers(self.min_length, self.max_length + 1))
        if char_p is None:
            char_p = self._uniform_p
        if not char_p.any():
            if self.min_length == 0:
                return ""
            raise ValueError(
                f"Text.sample mask must allow at least one character when min_length > 0, "
                f"got an all-zero mask with min_length={self.min_length}"
            )
        return "".join(rng.choice(self._char_array, size=length, p=char_p))

    def _validate_mask(
        self, mask: SpaceArg, expected: type[np.generic], mask_type: str
    ) -> tuple[int | None, NDArray[Any] | None]:
        if not is_tuple(mask):
            raise MaskTypeError(f"Text.sample {mask_type} must be a (length, array) tuple, got {describe(mask)}")
        if len(mask) != 2:
            raise MaskError(f"Text.sample {mask_type} must be a (length, array) tuple of 2, got length {len(mask)}")
        length, char_mask = mask
        if length is not None:
            if not _is_integer(length):
                raise MaskTypeError(f"Text.sample {mask_type} length must be an integer or None, got {describe(length)}")
            if not self.min_length <= length <= self.max_length:
                raise MaskError(
                    f"Text.sample {mask_type} length must be in [{self.min_length}, {self.max_length}], got {describe(length)}"
                )
            length = int(length)
        if char_mask is not None:
            char_mask = require_mask_array(
                "Text.sample", mask_type, char_mask, (len(self._char_list),), expected
            )
        return length, char_mask

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is a string of allowed length made of allowed characters.

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        if isinstance(x, str) and self.min_length <= len(x) <= self.max_length:
            return all(c in self._char_set for c in x)
        return False

    def __repr__(self) -> str:
        return f"Text({self.min_length}, {self.max_length}, charset={self.characters})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Text)
            and self.min_length == other.min_length
            and self.max_length == other.max_length
            and self.character_set == other.character_set
        )

    @property
    def character_set(self) -> frozenset[str]:
        """The allowed characters."""
        return self._char_set

    @property
    def character_list(self) -> tuple[str, ...]:
        """The allowed characters in index order (the order flattening uses)."""
        return self._char_list

    def character_index(self, char: str) -> np.int32:
        """Return the index of ``char`` in :attr:`character_list`.

        Args:
            char: An allowed character.

        Returns:
            Its index.

        Raises:
            KeyError: ``char`` is not in the character set.
        """
        return self._char_index[char]

    @property
    def characters(self) -> str:
        """The allowed characters as one sorted string."""
        return self._char_str

    @property
    def is_np_flattenable(self) -> bool:
        """``True``: a string flattens to ``max_length`` character indices, padded with ``len(charset)``."""
        return True

    def to_jsonable(self, sample_n: Sequence[Any]) -> Jsonable:
        """Strings are already JSON values.

        Args:
            sample_n: Elements of the space.

        Returns:
            The strings as a list.
        """
        return list(sample_n)

    def from_jsonable(self, sample_n: Jsonable) -> list[str]:
        """Strings are already elements.

        Args:
            sample_n: The output of :meth:`to_jsonable`.

        Returns:
            The strings as a list.
        """
        return [str(s) for s in sample_n]

    def __setstate__(self, state: SpaceState) -> None:
        """Restore a pickled Text.

        Args:
            state: The pickled attributes.
        """
        super().__setstate__(state)
        self._init_cache()
