"""A dictionary of spaces: elements are dicts with one sample per key."""

from __future__ import annotations

import collections.abc
import typing
from collections import OrderedDict
from collections.abc import Iterator, KeysView
from typing import Any, TypeAlias

import numpy as np
from typing_extensions import TypeVar  # takes ``default`` before Python 3.13, unlike typing's

from reference._narrowing import is_dict, is_tuple
from reference.spaces._validation import MaskError, MaskTypeError, describe, pick_sample_arg
from reference.spaces.space import Jsonable, Space, SpaceArg
from reference.spaces.tuple import INT32_MAX

__all__ = ["Dict"]

_T_co = TypeVar("_T_co", covariant=True, default=Any)
_Seed: TypeAlias = int | np.random.Generator | None
_SpacesArg: TypeAlias = Any  # a mapping of key -> space, a sequence of (key, space) pairs, or None
_Key: TypeAlias = str


class Dict(Space[dict[str, Any]], typing.Mapping[str, Space[_T_co]]):
    """Named subspaces: elements are dicts mapping every key to an element of that key's subspace.

    The space is a read-only mapping of its subspaces (plus ``__setitem__`` to add or replace one). Keys of a
    plain mapping are sorted unless ``sort_keys=False``; an ``OrderedDict`` or a sequence of pairs keeps its order.

    Example::

        >>> from reference.spaces import Box, Discrete
        >>> Dict({"position": Box(-1, 1, (2,)), "color": Discrete(3)}, seed=42)
        Dict('color': Discrete(3), 'position': Box(-1.0, 1.0, (2,), float32))

    Args:
        spaces: A mapping or a sequence of ``(key, space)`` pairs.
        seed: Seed or generator; an int seeds every subspace deterministically (see :meth:`seed`).
        sort_keys: Sort the keys of a plain mapping.
        **spaces_kwargs: More subspaces given as keywords (the keys ``spaces``, ``seed`` and ``sort_keys`` are
            taken).

    Raises:
        TypeError: ``spaces`` is not a mapping or sequence of pairs, or a value is not a space.
        ValueError: No subspace is given, or a keyword repeats a key of ``spaces``.
    """

    spaces: dict[str, Space[_T_co]]
    sort_keys: bool
    # The flattening layout utils caches on the space (see ``_flat_plan``) is rebuilt on demand.
    _derived_attrs = ("_flat_plan",)

    def __init__(
        self,
        spaces: _SpacesArg = None,
        seed: _Seed | dict[str, Any] = None,
        *,
        sort_keys: bool = True,
        **spaces_kwargs: Space[Any],
    ) -> None:
        if not isinstance(sort_keys, (bool, np.bool_)):
            raise TypeError(f"Dict sort_keys must be a bool, got {describe(sort_keys)}")
        self.sort_keys = sort_keys
        spaces_dict: dict[Any, Any]
        if isinstance(spaces, OrderedDict):
            spaces_dict = dict(spaces.items())  # pyright: ignore[reportUnknownArgumentType]
        elif isinstance(spaces, collections.abc.Mapping):
            spaces_dict = dict(spaces.items())  # pyright: ignore[reportUnknownArgumentType]
            if sort_keys:
                try:
                    spaces_dict = dict(sorted(spaces_dict.items()))
                except TypeError:
                    pass  # keys that do not compare keep their insertion order, as in Gymnasium
        elif isinstance(spaces, collections.abc.Sequence) and not isinstance(spaces, (str, bytes)):
            spaces_dict = {}
            for item in spaces:  # pyright: ignore[reportUnknownVariableType]
                if not (is_tuple(item) and len(item) == 2):  # pyright: ignore[reportUnknownArgumentType]
                    raise TypeError(f"Dict spaces must be a mapping or a sequence of (key, space) pairs, got item {describe(item)}")  # pyright: ignore[reportUnknownArgumentType]
                spaces_dict[item[0]] = item[1]
        elif spaces is None:
            spaces_dict = {}
        else:
            raise TypeError(f"Dict spaces must be a mapping or a sequence of (key, space) pairs, got {describe(spaces)}")
        for key, space in spaces_kwargs.items():
            if key in spaces_dict:
                raise ValueError(f"Dict keyword {key!r} must not repeat a key of spaces, got it in both")
            spaces_dict[key] = space
        for key, space in spaces_dict.items():
            if not isinstance(space, Space):
                raise TypeError(f"Dict spaces[{key!r}] must be a reference Space, got {describe(space)}")
        self.spaces = spaces_dict
        # Space.__init__ hands per-subspace seeds on to ``seed``, which needs the subspaces set first.
        super().__init__(None, None, seed)

    @property
    def is_np_flattenable(self) -> bool:
        """Whether every subspace is."""
        return all(space.is_np_flattenable for space in self.spaces.values())

    def seed(self, seed: int | dict[str, Any] | None = None) -> dict[str, Any]:
        """Seed every subspace.

        Args:
            seed: ``None`` seeds each subspace from fresh entropy; an int seeds this space, whose generator then
                draws one seed per subspace in key order (as Gymnasium); a dict gives every key its own seed.

        Returns:
            The seed each subspace reports, by key.

        Raises:
            TypeError: ``seed`` is of another type.
            ValueError: A seed dict does not have exactly the space's keys.
        """
        if seed is None:
            return {key: space.seed(None) for key, space in self.spaces.items()}
        if isinstance(seed, int):
            super().seed(seed)
            subseeds = self.np_random.integers(INT32_MAX, size=len(self.spaces))
            return {
                key: space.seed(int(sub)) for (key, space), sub in zip(self.spaces.items(), subseeds, strict=True)
            }
        if is_dict(seed):
            if seed.keys() != self.spaces.keys():
                raise ValueError(
                    f"Dict seed must have exactly the space's keys {list(self.spaces)}, got keys {list(seed)}"
                )
            return {key: self.spaces[key].seed(seed[key]) for key in seed}
        raise TypeError(f"Dict seed must be an int, a dict of seeds or None, got {describe(seed)}")

    def sample(self, mask: SpaceArg | None = None, probability: SpaceArg | None = None) -> dict[str, Any]:
        """Draw one element from every subspace.

        Args:
            mask: A dict with one mask (or ``None``) per key.
            probability: A dict with one probability (or ``None``) per key.

        Returns:
            The dict of samples, in key order.

        Raises:
            ValueError: Both arguments were given, or the keys differ (also Gymnasium's ``Error``).
            TypeError: ``mask``/``probability`` is not a dict (also Gymnasium's ``Error``).
        """
        if mask is None and probability is None:
            return {key: space.sample() for key, space in self.spaces.items()}
        name, value = pick_sample_arg("Dict.sample", mask, probability)
        if not is_dict(value):
            raise MaskTypeError(f"Dict.sample {name} must be a dict (one entry per key), got {describe(value)}")
        if value.keys() != self.spaces.keys():
            raise MaskError(f"Dict.sample {name} must have the keys {list(self.spaces)}, got keys {list(value)}")
        return {key: space.sample(**{name: value[key]}) for key, space in self.spaces.items()}

    def contains(self, x: object) -> bool:
        """Tell whether ``x`` is a dict with exactly the space's keys and valid values.

        Args:
            x: The candidate value.

        Returns:
            Whether ``x`` belongs to the space.
        """
        if isinstance(x, dict) and x.keys() == self.spaces.keys():
            return all(space.contains(x[key]) for key, space in self.spaces.items())  # pyright: ignore[reportUnknownArgumentType]
        return False

    def __getitem__(self, key: _Key) -> Space[_T_co]:
        return self.spaces[key]

    def keys(self) -> KeysView[str]:
        """The keys, in order.

        Returns:
            A view of the keys.
        """
        return KeysView(self.spaces)

    def __setitem__(self, key: _Key, value: Space[Any]) -> None:
        """Add or replace the subspace under ``key``.

        Args:
            key: The key.
            value: The subspace.

        Raises:
            TypeError: ``value`` is not a space.
        """
        if not isinstance(value, Space):
            raise TypeError(f"Dict value for {key!r} must be a reference Space, got {describe(value)}")
        self.spaces[key] = value

    def __iter__(self) -> Iterator[str]:
        yield from self.spaces

    def __len__(self) -> int:
        return len(self.spaces)

    def __repr__(self) -> str:
        return "Dict(" + ", ".join(f"{k!r}: {s}" for k, s in self.spaces.items()) + ")"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dict) and self.spaces == other.spaces  # pyright: ignore[reportUnknownMemberType]

    def to_jsonable(self, sample_n: typing.Sequence[Any]) -> Jsonable:
        """Convert a batch to one JSON batch per key.

        Args:
            sample_n: Elements of the space.

        Returns:
            A dict with, per key, that subspace's JSON form of its values.
        """
        return {key: space.to_jsonable([sample[key] for sample in sample_n]) for key, space in self.spaces.items()}

    def from_jsonable(self, sample_n: Jsonable) -> list[dict[str, Any]]:
        """Invert :meth:`to_jsonable`.

        Args:
            sample_n: One JSON batch per key.

        Returns:
            The elements.
        """
        columns = {key: space.from_jsonable(sample_n[key]) for key, space in self.spaces.items()}
        count = len(next(iter(columns.values())))
        return [{key: column[i] for key, column in columns.items()} for i in range(count)]
