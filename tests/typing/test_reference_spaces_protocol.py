"""The reference spaces satisfy ``gymspec.Space`` (checked by mypy via ``tests/typing/test_mypy.py``) and the shape
protocols at run time."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

import gymspec
from gymspec._typing import InfoDict, NDArrayAny
from reference.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    GraphInstance,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Text,
    Tuple,
)


def test_every_reference_space_is_a_space() -> None:
    box: gymspec.Space[NDArray[np.float32]] = Box(-1.0, 1.0, (3,), np.float32)
    int_box: gymspec.Space[NDArray[np.int64]] = Box(0, 5, (2,), dtype=np.int64)
    discrete: gymspec.Space[np.int64] = Discrete(3)
    small: gymspec.Space[np.int32] = Discrete(3, dtype=np.int32)
    multi_discrete: gymspec.Space[NDArray[np.int64]] = MultiDiscrete([2, 3])
    multi_binary: gymspec.Space[NDArray[np.int8]] = MultiBinary(4)
    text: gymspec.Space[str] = Text(5)
    tup: gymspec.Space[tuple[object, ...]] = Tuple((Discrete(2), Box(0, 1)))
    dct: gymspec.Space[InfoDict] = Dict({"a": Discrete(2)})
    seq: gymspec.Space[object] = Sequence(Discrete(2))
    graph: gymspec.Space[GraphInstance] = Graph(Box(0, 1, (2,)), Discrete(2))
    one_of: gymspec.Space[tuple[int, object]] = OneOf((Discrete(2), Box(0, 1)))
    shaped: list[gymspec.Space[Any]] = [
        box, int_box, discrete, small, multi_discrete, multi_binary, text, tup, dct, seq, graph, one_of
    ]
    for space in shaped:
        assert isinstance(space, gymspec.Space)
        assert space.contains(space.sample())


def test_shape_protocols() -> None:
    box: gymspec.BoxLike = Box(-1.0, 1.0, (3,), np.float32)
    discrete: gymspec.DiscreteLike = Discrete(3)
    multi_discrete: gymspec.MultiDiscreteLike = MultiDiscrete([2, 3])
    multi_binary: gymspec.MultiBinaryLike = MultiBinary(2)
    jsonable: gymspec.SupportsJsonable = Box(-1.0, 1.0, (3,), np.float32)
    for obj, proto in [
        (box, gymspec.BoxLike),
        (discrete, gymspec.DiscreteLike),
        (multi_discrete, gymspec.MultiDiscreteLike),
        (multi_binary, gymspec.MultiBinaryLike),
        (jsonable, gymspec.SupportsJsonable),
    ]:
        assert isinstance(obj, proto)
    composite: Any = Tuple((Discrete(2),))
    assert isinstance(composite, gymspec.CompositeLike) and isinstance(Dict(a=Discrete(2)), gymspec.CompositeLike)
    arrays: list[NDArrayAny] = [box.low, box.high]
    assert all(a.shape == (3,) for a in arrays)
