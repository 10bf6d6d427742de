"""Flattening utilities: documented examples, extension by registration, error cases, fast-path fallbacks."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reference.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
    flatdim,
    flatten,
    flatten_space,
    unflatten,
)
from reference.spaces.utils import FlatType, is_space_dtype_shape_equiv


def _values(flat: FlatType) -> list[Any]:
    assert isinstance(flat, np.ndarray)
    return list(flat.tolist())


def test_documented_examples() -> None:
    assert flatdim(Discrete(3)) == 3 and flatdim(MultiDiscrete([2, 3])) == 5 and flatdim(Text(4)) == 4
    assert repr(flatten_space(Discrete(3))) == "Box(0, 1, (3,), int64)"
    mixed = Dict({"a": Discrete(2), "b": Box(0, 1, (2,), dtype=np.float32)})
    assert repr(flatten_space(mixed)) == "Box(0.0, 1.0, (4,), float64)"
    assert _values(flatten(Discrete(4, start=1), 2)) == [0, 1, 0, 0]
    assert _values(flatten(Text(3, charset="ab"), "b")) == [1, 2, 2]
    assert unflatten(Text(3, charset="ab"), np.array([1, 2, 2])) == "b"
    assert _values(flatten(MultiBinary([2, 2]), np.eye(2, dtype=np.int8))) == [1, 0, 0, 1]


def test_non_flattenable_spaces() -> None:
    graph = Graph(Box(0, 1, (2,)), Discrete(3))
    with pytest.raises(ValueError):
        flatdim(graph)
    with pytest.raises(ValueError):
        flatdim(Tuple([Sequence(Discrete(2))]))
    assert repr(flatten_space(graph)) == "Graph(Box(0.0, 1.0, (2,), float32), Box(0, 1, (3,), int64))"
    sample = graph.sample(num_nodes=3, num_edges=2)
    flat = flatten(graph, sample)
    assert flat.nodes.shape == (3, 2) and flat.edges.shape == (2, 3)  # type: ignore[union-attr]
    back = unflatten(graph, flat)
    assert np.array_equal(back.nodes, sample.nodes) and np.array_equal(back.edges, sample.edges)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="flattenable"):
        flatten_space(OneOf([Sequence(Discrete(2))]))


def test_invalid_flat_input() -> None:
    with pytest.raises(ValueError, match="one-hot"):
        unflatten(Discrete(3), np.zeros(3))
    with pytest.raises(ValueError, match="one-hot"):
        unflatten(MultiDiscrete([2, 2]), np.zeros(4))
    with pytest.raises(ValueError, match="numpy array"):
        unflatten(Tuple([Discrete(2)]), (np.array([1, 0]),))
    with pytest.raises(ValueError, match="dict"):
        unflatten(Dict({"s": Sequence(Discrete(2))}), np.zeros(2))


@pytest.mark.parametrize("value", [-1, 3, 5])
def test_out_of_range_discrete_is_rejected_by_name(value: int) -> None:
    # Gymnasium indexes the one-hot vector with x - start: -1 silently marks the last entry, 5 is an IndexError.
    space: Tuple[Any] = Tuple([Discrete(3), Box(0, 1, (1,))])
    with pytest.raises(ValueError, match=rf"^flatten x must be an element of Discrete\(3\), got {value}$"):
        flatten(space, (value, np.array([0.5], dtype=np.float32)))


def test_dtype_shape_equivalence() -> None:
    assert is_space_dtype_shape_equiv(Box(0, 1, (2,)), Box(-5, 5, (2,)))
    assert not is_space_dtype_shape_equiv(Box(0, 1, (2,)), Box(0, 1, (3,)))
    assert not is_space_dtype_shape_equiv(Discrete(2), Box(0, 1, ()))
    assert is_space_dtype_shape_equiv(Dict(a=Discrete(2)), Dict(a=Discrete(2)))
    assert is_space_dtype_shape_equiv(Tuple([Discrete(2)]), Tuple([Discrete(2)]))
    assert not is_space_dtype_shape_equiv(Tuple([Discrete(2)]), OneOf([Discrete(2)]))
    assert is_space_dtype_shape_equiv(Text(3, charset="ab"), Text(3, min_length=0, charset="ba"))
    assert is_space_dtype_shape_equiv(Graph(Discrete(2), None), Graph(Discrete(2), None))
    assert not is_space_dtype_shape_equiv(Graph(Discrete(2), None), Graph(Discrete(2), Discrete(2)))
    assert is_space_dtype_shape_equiv(Sequence(Discrete(2)), Sequence(Discrete(2)))
    with pytest.raises(NotImplementedError):
        is_space_dtype_shape_equiv(Space(), Space())


class _Pair(Space[tuple[int, int]]):
    """A custom space registered with the flattening functions."""

    def sample(self, mask: Any = None, probability: Any = None) -> tuple[int, int]:
        return (1, 2)

    def contains(self, x: object) -> bool:
        return x == (1, 2)

    @property
    def is_np_flattenable(self) -> bool:
        return True


@flatdim.register(_Pair)
def _flatdim_pair(space: _Pair) -> int:
    return 2


@flatten.register(_Pair)
def _flatten_pair(space: _Pair, x: tuple[int, int]) -> Any:
    return np.asarray(x, dtype=np.int64)


@unflatten.register(_Pair)
def _unflatten_pair(space: _Pair, x: Any) -> tuple[int, int]:
    return (int(x[0]), int(x[1]))


def test_custom_spaces_register_and_compose() -> None:
    space: Tuple[Any] = Tuple([_Pair(), Discrete(2)])
    flat = flatten(space, ((1, 2), 1))
    assert _values(flat) == [1, 2, 0, 1]
    assert unflatten(space, flat) == ((1, 2), 1)
    with pytest.raises(NotImplementedError):
        flatten(Space(), 1)
    with pytest.raises(NotImplementedError):
        flatten_space(Space())


def test_multidiscrete_round_trip_when_the_flat_size_overflows_its_dtype() -> None:
    # 404 one-hot entries: more than an int8 can count, so the size check must not use the space's dtype.
    space = MultiDiscrete([101, 101, 101, 101], dtype=np.int8)
    element = np.array([0, 50, 100, 7], dtype=np.int8)
    assert np.array_equal(unflatten(space, flatten(space, element)), element)
