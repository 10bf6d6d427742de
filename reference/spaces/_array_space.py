"""The common base of spaces whose elements are NumPy arrays of one fixed shape and dtype.

:class:`~reference.spaces.box.Box`, :class:`~reference.spaces.multi_binary.MultiBinary` and
:class:`~reference.spaces.multi_discrete.MultiDiscrete` share their shape, flattenability and JSON conversion;
keeping that here means the three cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal, TypeVar, cast

import numpy as np

from reference.spaces.space import Jsonable, Space

__all__ = ["ArraySpace"]

_ArrayT_co = TypeVar("_ArrayT_co", covariant=True)


class ArraySpace(Space[_ArrayT_co]):
    """A space of arrays with a fixed shape (``_shape``) and dtype, set by the subclass's constructor."""

    dtype: np.dtype[Any]  # pyright: ignore[reportIncompatibleVariableOverride]
    _shape: tuple[int, ...]  # pyright: ignore[reportIncompatibleVariableOverride]
    # Gymnasium's MultiDiscrete.from_jsonable copies even arrays already of its dtype (``np.array``), Box's and
    # MultiBinary's do not (``np.asarray``); the difference shows when the batch holds arrays, so it is kept.
    _copy_from_jsonable: ClassVar[bool] = False

    @property
    def shape(self) -> tuple[int, ...]:
        """The element shape (never ``None``)."""
        return self._shape

    @property
    def is_np_flattenable(self) -> Literal[True]:
        """Always ``True``: a fixed-shape array flattens to a fixed-size vector."""
        return True

    def to_jsonable(self, sample_n: Sequence[Any]) -> Jsonable:
        """Convert arrays to nested lists.

        Args:
            sample_n: Elements of the space.

        Returns:
            One nested list per element.
        """
        return [np.asarray(sample).tolist() for sample in sample_n]

    def from_jsonable(self, sample_n: Jsonable) -> list[_ArrayT_co]:
        """Convert nested lists back to arrays of the space's dtype.

        Args:
            sample_n: The output of :meth:`to_jsonable`.

        Returns:
            One array per element.
        """
        convert = np.array if self._copy_from_jsonable else np.asarray
        return cast("list[_ArrayT_co]", [convert(sample, dtype=self.dtype) for sample in sample_n])
