"""Hypothesis strategies for spaces, as library-independent *recipes*.

A :class:`Recipe` describes a space (kind plus arguments, nested for composites) and can build it with either
``reference.spaces`` or ``gymnasium.spaces``, so one generated description drives both the property tests
(:func:`spaces`) and the differential tests against Gymnasium (:func:`recipes`).

Integer boxes stay within +-10**6 so flattening into float64 (which Tuple/Dict/OneOf do when they mix dtypes) is
exact and round trips compare equal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TypeAlias

import numpy as np
from hypothesis import strategies as st

import reference.spaces as ref_spaces

__all__ = ["Recipe", "flattenable_recipes", "recipes", "spaces"]

_Space: TypeAlias = Any  # a space of either library
_Args: TypeAlias = dict[str, Any]

_FLOAT_DTYPES = ("float16", "float32", "float64")
_INT_DTYPES = ("int8", "int32", "int64", "uint8", "uint16")


@dataclass(frozen=True)
class Recipe:
    """A buildable description of a space.

    Attributes:
        kind: The space class name (``"Box"``, ``"Dict"``, ...).
        args: Keyword arguments for the constructor (arrays are rebuilt fresh for every build).
        children: Sub-recipes for composite spaces (for ``Dict``, paired with ``keys``).
        keys: Dict keys, in the order given to the constructor.
    """

    kind: str
    args: _Args = field(default_factory=dict)
    children: tuple[Recipe, ...] = ()
    keys: tuple[str, ...] = ()

    def build(self, module: ModuleType = ref_spaces) -> _Space:
        """Construct the space with ``module`` (``reference.spaces`` or ``gymnasium.spaces``).

        Args:
            module: The spaces module to build with.

        Returns:
            The space.
        """
        args = {k: (np.array(v) if isinstance(v, np.ndarray) else v) for k, v in self.args.items()}
        cls = getattr(module, self.kind)
        children = [child.build(module) for child in self.children]
        if self.kind in ("Tuple", "OneOf"):
            return cls(children)
        if self.kind == "Dict":
            return cls(dict(zip(self.keys, children, strict=True)), **args)
        if self.kind == "Sequence":
            return cls(children[0], **args)
        if self.kind == "Graph":
            return cls(children[0], children[1] if len(children) > 1 else None)
        return cls(**args)

    @property
    def flattenable(self) -> bool:
        """Whether the space built from this recipe flattens to one Box."""
        if self.kind in ("Sequence", "Graph"):
            return False
        return all(child.flattenable for child in self.children)


@st.composite
def _boxes(draw: st.DrawFn) -> Recipe:
    dtype = draw(st.sampled_from(_FLOAT_DTYPES + _INT_DTYPES + ("bool",)))
    shape = draw(st.lists(st.integers(1, 3), min_size=0, max_size=2).map(tuple))
    if dtype == "bool":
        return Recipe("Box", {"low": 0, "high": 1, "shape": shape, "dtype": dtype})
    if dtype in _FLOAT_DTYPES:
        finite = st.floats(-100, 100, width=16)
        low = draw(st.one_of(finite, st.just(-np.inf)))
        high = draw(st.one_of(finite, st.just(np.inf)))
    else:
        info = np.iinfo(dtype)
        bound = st.integers(max(int(info.min), -(10**6)), min(int(info.max), 10**6))
        low, high = draw(bound), draw(bound)
    if low > high:
        low, high = high, low
    # -0.0 as a bound makes Gymnasium's sampler fail on ``high - low < 0`` for Box(0.0, -0.0); avoid the quirk.
    low, high = low + 0, high + 0
    if draw(st.booleans()) and shape:
        # Per-coordinate bounds: perturb the scalar bounds elementwise, keeping low <= high.
        offsets = np.asarray(draw(st.lists(st.integers(0, 3), min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))))
        low_arr = np.full(shape, low, dtype=np.float64) - offsets.reshape(shape)
        high_arr = np.full(shape, high, dtype=np.float64) + offsets.reshape(shape)
        if dtype not in _FLOAT_DTYPES:
            info = np.iinfo(dtype)
            low_arr = np.clip(low_arr, info.min, info.max).astype(dtype)
            high_arr = np.clip(high_arr, info.min, info.max).astype(dtype)
        else:
            low_arr = low_arr.astype(dtype)
            high_arr = high_arr.astype(dtype)
        return Recipe("Box", {"low": low_arr, "high": high_arr, "dtype": dtype})
    return Recipe("Box", {"low": low, "high": high, "shape": shape, "dtype": dtype})


@st.composite
def _discretes(draw: st.DrawFn) -> Recipe:
    dtype = draw(st.sampled_from(("int64", "int32", "int16", "uint8")))
    n = draw(st.integers(1, 12))
    start = draw(st.integers(-5, 5)) if dtype != "uint8" else draw(st.integers(0, 5))
    return Recipe("Discrete", {"n": n, "start": start, "dtype": dtype})


@st.composite
def _multi_discretes(draw: st.DrawFn) -> Recipe:
    shape = draw(st.sampled_from([(1,), (3,), (2, 2)]))
    size = int(np.prod(shape))
    nvec = np.asarray(draw(st.lists(st.integers(1, 6), min_size=size, max_size=size))).reshape(shape)
    start = np.asarray(draw(st.lists(st.integers(-3, 3), min_size=size, max_size=size))).reshape(shape)
    dtype = draw(st.sampled_from(("int64", "int32")))
    return Recipe("MultiDiscrete", {"nvec": nvec, "start": start, "dtype": dtype})


def _multi_binaries() -> st.SearchStrategy[Recipe]:
    shapes = st.one_of(st.integers(1, 6), st.lists(st.integers(1, 3), min_size=1, max_size=2))
    return shapes.map(lambda n: Recipe("MultiBinary", {"n": n}))


@st.composite
def _texts(draw: st.DrawFn) -> Recipe:
    max_length = draw(st.integers(0, 6))
    min_length = draw(st.integers(0, max_length))
    charset = draw(st.sampled_from(("abc", "0123456789", "xyzXYZ_!")))
    return Recipe("Text", {"max_length": max_length, "min_length": min_length, "charset": charset})


def _leaves() -> st.SearchStrategy[Recipe]:
    return st.one_of(_boxes(), _discretes(), _multi_discretes(), _multi_binaries(), _texts())


def _graph_parts() -> st.SearchStrategy[Recipe]:
    node = st.one_of(_boxes(), _discretes())
    edge = st.one_of(st.none(), _boxes(), _discretes())
    return st.tuples(node, edge).map(
        lambda ne: Recipe("Graph", children=(ne[0],) if ne[1] is None else (ne[0], ne[1]))
    )


def _composites(children: st.SearchStrategy[Recipe]) -> st.SearchStrategy[Recipe]:
    some = st.lists(children, min_size=1, max_size=3).map(tuple)
    keys = st.lists(st.text("abcdefgh", min_size=1, max_size=3), min_size=1, max_size=3, unique=True)
    dicts = keys.flatmap(
        lambda ks: st.lists(children, min_size=len(ks), max_size=len(ks)).map(
            lambda cs: Recipe("Dict", children=tuple(cs), keys=tuple(ks))
        )
    )
    return st.one_of(
        some.map(lambda c: Recipe("Tuple", children=c)),
        dicts,
        some.map(lambda c: Recipe("OneOf", children=c)),
    )


def recipes(*, flattenable_only: bool = False, max_leaves: int = 6) -> st.SearchStrategy[Recipe]:
    """Recipes for any space: leaves, Tuple/Dict/OneOf nests, and (unless excluded) Sequence and Graph.

    Args:
        flattenable_only: Exclude Sequence and Graph (so the space flattens to one Box).
        max_leaves: Upper bound on the number of leaves in the nest.

    Returns:
        A strategy of recipes.
    """
    base = _leaves()
    if not flattenable_only:
        sequences = st.tuples(_leaves(), st.booleans()).map(
            lambda fs: Recipe("Sequence", {"stack": fs[1]} if fs[0].kind != "Text" else {}, children=(fs[0],))
        )
        base = st.one_of(base, sequences, _graph_parts())
    return st.recursive(base, _composites, max_leaves=max_leaves)


def flattenable_recipes() -> st.SearchStrategy[Recipe]:
    """Recipes whose spaces flatten to a single Box.

    Returns:
        A strategy of recipes.
    """
    return recipes(flattenable_only=True)


def spaces(*, flattenable_only: bool = False) -> st.SearchStrategy[_Space]:
    """Reference spaces of every kind, nested.

    Args:
        flattenable_only: Exclude Sequence and Graph.

    Returns:
        A strategy of ``reference.spaces`` instances.
    """
    return recipes(flattenable_only=flattenable_only).map(lambda r: r.build(ref_spaces))
