"""Spaces: the sets that actions and observations are drawn from.

``Space[T_co]`` is what every environment exposes as ``action_space`` and ``observation_space``. The shape
protocols (``BoxLike``, ``DiscreteLike``, ...) describe the well-known families *structurally*: the conformance
suite recognises them by their attributes, never by class, so Gymnasium's, the reference's and home-grown spaces are
treated alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from gymspec._typing import T_co, Value

__all__ = [
    "BoxLike",
    "CompositeLike",
    "DiscreteLike",
    "MultiBinaryLike",
    "MultiDiscreteLike",
    "Space",
    "SupportsJsonable",
]


@runtime_checkable
class Space(Protocol[T_co]):
    """A set of values with a seeded sampler and a membership test.

    Implementations commonly accept ``sample(mask=None, probability=None)``; the protocol only requires the
    argument-free call, so spaces that take no masks satisfy it too. The parameters of ``seed`` and ``contains`` are
    positional-only: pyright matches parameter names against the protocol's (mypy does not), and an implementation's
    ``seed(value)`` or ``contains(item)`` is as good as any.

    Rules:
        [SPACE-001] MUST equal a deep copy of itself, and a pickled-and-restored copy where it is picklable.
        [SPACE-002] SHOULD survive a pickle round trip with its sampling behaviour: after the same ``seed(s)``, the
            restored copy yields the same samples as the original.
    """

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The shape of an element as a NumPy array, or ``None`` for spaces without one.

        Rules:
            [SPACE-003] MUST declare ``shape`` as ``None`` or a tuple of non-negative ints, and ``dtype`` as
                ``None`` or a NumPy dtype.
        """
        ...

    @property
    def dtype(self) -> np.dtype[Any] | None:
        """The NumPy dtype of an element, or ``None`` for spaces without one."""
        ...

    @property
    def np_random(self) -> np.random.Generator:
        """The space's own random generator, created lazily."""
        ...

    def seed(self, seed: int | None = None, /) -> object:
        """Seed the space's generator (and, for composite spaces, every subspace's).

        Args:
            seed: A non-negative integer, or ``None`` to draw one from an entropy source.

        Returns:
            The seed or seeds used (an int for simple spaces; a list, tuple or dict for composite ones).

        Rules:
            [SPACE-004] MUST make sampling reproducible: after ``seed(s)`` the sequence of ``sample()`` results is
                a function of ``s`` alone, for simple and composite spaces alike.
            [SPACE-005] MUST keep generators per instance: seeding or sampling one space instance never changes the
                samples of another (including a deep copy).
            [SPACE-006] SHOULD (given ``None``) seed from an entropy source, so two unseeded spaces sample differently.
        """
        ...

    def sample(self) -> T_co:
        """Draw a random element of the space.

        Returns:
            An element of the space.

        Rules:
            [SPACE-007] MUST return an element ``x`` for which ``contains(x)`` is true.
            [SPACE-008] MUST draw all randomness from the space's own ``np_random``: the global NumPy and ``random``
                generators are neither read nor advanced.
            [SPACE-009] SHOULD return arrays with exactly the space's ``dtype`` and ``shape`` when the space
                declares them and its elements are arrays.
        """
        ...

    def contains(self, x: Value, /) -> bool:
        """Tell whether ``x`` is an element of the space.

        Args:
            x: Any value.

        Returns:
            Whether ``x`` belongs to the space.

        Rules:
            [SPACE-010] MUST return a ``bool`` (or NumPy bool) and agree with ``x in space``.
            [SPACE-011] SHOULD NOT raise for values of a foreign type or shape; it returns ``False`` instead.
        """
        ...

    def __contains__(self, x: Value, /) -> bool:
        """``x in space``: the same answer as :meth:`contains`."""
        ...


@runtime_checkable
class SupportsJsonable(Protocol):
    """A space whose batches of elements convert to and from JSON-friendly values.

    Rules:
        [SPACE-012] MUST round-trip: ``from_jsonable(to_jsonable(samples))`` gives elements equal to ``samples``.
    """

    def to_jsonable(self, sample_n: Sequence[Any], /) -> list[Any]:
        """Convert a batch of elements to JSON-friendly values."""
        ...

    def from_jsonable(self, sample_n: list[Any], /) -> list[Any]:
        """Convert JSON-friendly values back to elements."""
        ...


@runtime_checkable
class BoxLike(Protocol):
    """A (possibly unbounded) box in R^n or Z^n: elements are arrays of ``shape`` and ``dtype``.

    Rules:
        [SPACE-013] MUST have ``low`` and ``high`` arrays of the space's ``shape`` with ``low <= high`` everywhere.
        [SPACE-014] SHOULD NOT have ``low == high`` in any dimension (a degenerate, constant component).
    """

    @property
    def low(self) -> NDArray[Any]:
        """Lower bounds, one per element component (``-inf`` where unbounded)."""
        ...

    @property
    def high(self) -> NDArray[Any]:
        """Upper bounds, one per element component (``+inf`` where unbounded)."""
        ...

    @property
    def shape(self) -> tuple[int, ...]:
        """The element shape."""
        ...


@runtime_checkable
class DiscreteLike(Protocol):
    """The integers ``start, start + 1, ..., start + n - 1``.

    Rules:
        [SPACE-015] MUST have a positive integer ``n`` and the scalar shape ``()``.
    """

    @property
    def n(self) -> int | np.integer[Any]:
        """The number of elements."""
        ...

    @property
    def start(self) -> int | np.integer[Any]:
        """The smallest element."""
        ...


@runtime_checkable
class MultiDiscreteLike(Protocol):
    """A Cartesian product of discrete sets, one per component of ``nvec``.

    Rules:
        [SPACE-016] MUST have ``nvec`` with only positive entries and a ``shape`` equal to ``nvec.shape``.
    """

    @property
    def nvec(self) -> NDArray[Any]:
        """The number of values of each component."""
        ...


@runtime_checkable
class MultiBinaryLike(Protocol):
    """Binary arrays of a fixed shape.

    Rules:
        [SPACE-017] MUST have only positive dimensions.
    """

    @property
    def n(self) -> object:
        """The shape: an int or a sequence of ints."""
        ...


@runtime_checkable
class CompositeLike(Protocol):
    """A space built from subspaces: a tuple (``spaces`` is a sequence) or a dict (``spaces`` is a mapping).

    Rules:
        [SPACE-018] MUST have at least one subspace, and every subspace MUST itself satisfy the space rules.
    """

    @property
    def spaces(self) -> Sequence[Any] | Mapping[Any, Any]:
        """The subspaces."""
        ...
