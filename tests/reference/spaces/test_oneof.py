"""OneOf: samples, membership, seeding and JSON form."""

from __future__ import annotations

import pytest

from reference.spaces import Box, Discrete, OneOf, Tuple


def test_sample_and_contains() -> None:
    space = OneOf([Discrete(2), Box(-1, 1, (2,))], seed=0)
    index, value = space.sample()
    assert type(index).__name__ == "int64"  # an np.int64 (typed int, as in Gymnasium) and space.spaces[index].contains(value) and space.contains((index, value))
    assert not space.contains((2, 0)) and not space.contains((0,)) and not space.contains([0, 0])
    assert repr(space) == "OneOf(Discrete(2), Box(-1.0, 1.0, (2,), float32))"


def test_seed_forms() -> None:
    space = OneOf([Discrete(2), Discrete(3)])
    assert space.seed((1, 2, 3)) == (1, 2, 3)
    assert len(space.seed(5)) == 3
    with pytest.raises(ValueError):
        space.seed((1, 2))


def test_json_round_trip_with_container_alternative() -> None:
    space = OneOf([Tuple([Discrete(2), Discrete(3)]), Discrete(4)], seed=1)
    batch = [space.sample() for _ in range(6)]
    restored = space.from_jsonable(space.to_jsonable(batch))
    assert [(int(i), v) for i, v in restored] == [(int(i), v) for i, v in batch]
