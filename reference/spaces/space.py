"""The base class every space derives from."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt

from reference.utils import seeding

__all__ = ["MaskNDArray", "Space"]

T_co = TypeVar("T_co", covariant=True)

#: The dtype every sampling mask uses (``1`` allowed, ``0`` forbidden).
MaskNDArray: TypeAlias = npt.NDArray[np.int8]
#: What masks, probabilities and seeds of arbitrary spaces look like (they nest with the space).
SpaceArg: TypeAlias = Any
#: A space's pickle state, old Gymnasium layouts included.
SpaceState: TypeAlias = Iterable[tuple[str, Any]] | Mapping[str, Any]
#: The batch form of samples produced by ``to_jsonable``.
Jsonable: TypeAlias = Any
#: What a constructor accepts as ``seed``: composite spaces also take per-child seeds (see ``Space.__init__``).
_InitSeed: TypeAlias = int | np.random.Generator | Sequence[Any] | Mapping[Any, Any] | None


class Space(Generic[T_co]):
    """A set of values, with a random sampler: the type of ``action_space`` and ``observation_space``.

    Subclasses implement :meth:`sample`, :meth:`contains` and ``is_np_flattenable``; composite spaces also
    override :meth:`seed` so one integer seeds every child deterministically.

    Args:
        shape: The shape of the array elements, if elements are arrays.
        dtype: The dtype of the array elements, if elements are arrays.
        seed: An ``int`` to seed the sampler, or a :class:`numpy.random.Generator` to use as it is (shared,
            not copied). Anything else (a composite space's per-child seeds) goes to :meth:`seed` once the
            space is initialised, so composites can pass their ``seed`` argument straight through.
    """

    dtype: np.dtype[Any] | None
    _shape: tuple[int, ...] | None
    _np_random: np.random.Generator | None
    #: Attributes derived from others (caches); :meth:`__getstate__` leaves them out of pickles and copies,
    #: and the subclass's ``__setstate__`` rebuilds them.
    _derived_attrs: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        shape: Sequence[int] | None = None,
        dtype: npt.DTypeLike | None = None,
        seed: _InitSeed = None,
    ) -> None:
        self._shape = None if shape is None else tuple(shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        self._np_random = None
        if seed is not None:
            if isinstance(seed, np.random.Generator):
                self._np_random = seed
            else:
                # Per-child seeds only come from composites, whose ``seed`` override accepts them.
                self.seed(seed)  # type: ignore[arg-type]

    @property
    def np_random(self) -> np.random.Generator:
        """The sampler's generator, created from fresh entropy on first use (seeding is costly)."""
        if self._np_random is None:
            self.seed()
        # Composite spaces seed their children, not necessarily themselves.
        if self._np_random is None:
            self._np_random, _ = seeding.np_random()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The shape of array elements, or ``None`` for spaces whose elements are not arrays."""
        return self._shape

    @property
    def is_np_flattenable(self) -> bool:
        """Whether :func:`reference.spaces.utils.flatten_space` can turn this space into a single ``Box``."""
        raise NotImplementedError

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> T_co:
        """Draw a random element.

        Args:
            mask: Restricts which values may be drawn; its form depends on the space.
            probability: Weights the values drawn; its form depends on the space. Exclusive with ``mask``.

        Returns:
            An element of the space.
        """
        raise NotImplementedError

    def seed(self, seed: int | None = None) -> SpaceArg:
        """Re-create the sampler's generator from ``seed``.

        Args:
            seed: A non-negative ``int``, or ``None`` for fresh entropy. Composite spaces also accept one seed
                per child.

        Returns:
            The seed(s) used, so a run can be replayed (for composite spaces, one per child).
        """
        self._np_random, used = seeding.np_random(seed)
        return used

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is an element of the space (also ``x in space``).

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        raise NotImplementedError

    def __contains__(self, x: object) -> bool:
        return self.contains(x)

    def __getstate__(self) -> dict[str, Any]:
        """Return the attributes to pickle: all but the subclass's :attr:`_derived_attrs`.

        Returns:
            A new dict.
        """
        state = self.__dict__.copy()
        for name in self._derived_attrs:
            state.pop(name, None)
        return state

    def __setstate__(self, state: SpaceState) -> None:
        """Restore a pickled space, accepting the attribute names of older Gymnasium pickles.

        Args:
            state: The pickled attributes.
        """
        state = dict(state)
        if "shape" in state:
            state["_shape"] = state.pop("shape")
        if "np_random" in state:
            state["_np_random"] = state.pop("np_random")
        self.__dict__.update(state)

    def to_jsonable(self, sample_n: Sequence[Any]) -> Jsonable:
        """Convert a batch of elements into JSON-compatible values.

        Args:
            sample_n: The elements.

        Returns:
            A JSON-compatible representation of the batch.
        """
        return list(sample_n)

    def from_jsonable(self, sample_n: Jsonable) -> list[Any]:
        """Convert the output of :meth:`to_jsonable` back into elements.

        Args:
            sample_n: The JSON-compatible batch.

        Returns:
            The elements.
        """
        return list(sample_n)
