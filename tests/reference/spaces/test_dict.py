"""Dict: key ordering, the mapping protocol, per-key seeding and masks."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

from reference.spaces import Box, Dict, Discrete


def test_key_order() -> None:
    assert list(Dict({"b": Discrete(2), "a": Discrete(3)})) == ["a", "b"]
    assert list(Dict({"b": Discrete(2), "a": Discrete(3)}, sort_keys=False)) == ["b", "a"]
    assert list(Dict(OrderedDict([("b", Discrete(2)), ("a", Discrete(3))]))) == ["b", "a"]
    assert list(Dict([("b", Discrete(2)), ("a", Discrete(3))])) == ["b", "a"]
    assert list(Dict(b=Discrete(2), a=Discrete(3))) == ["b", "a"]
    assert list(Dict({"b": Discrete(2)}, a=Discrete(3))) == ["b", "a"]
    with pytest.raises(ValueError, match="repeat"):
        Dict({"a": Discrete(2)}, a=Discrete(3))


def test_mapping_protocol_and_repr() -> None:
    space = Dict({"pos": Box(0, 1, (2,)), "n": Discrete(3)})
    assert space["n"] == Discrete(3) and space.get("missing") is None and len(space) == 2
    assert list(space.keys()) == ["n", "pos"] and [k for k, _ in space.items()] == ["n", "pos"]
    assert repr(space) == "Dict('n': Discrete(3), 'pos': Box(0.0, 1.0, (2,), float32))"
    space["extra"] = Discrete(4)
    assert "extra" in space.spaces
    with pytest.raises(TypeError):
        space["bad"] = 3  # type: ignore[assignment]


def test_seeding_contains_and_masks() -> None:
    space = Dict({"a": Discrete(4), "b": Discrete(4)})
    assert space.seed({"a": 1, "b": 2}) == {"a": 1, "b": 2}
    assert set(space.seed(5)) == {"a", "b"}
    with pytest.raises(ValueError, match="keys"):
        space.seed({"a": 1})
    assert space.contains({"a": 1, "b": 3}) and not space.contains({"a": 1}) and not space.contains([1, 3])
    assert space.sample(mask={"a": np.array([0, 0, 1, 0], dtype=np.int8), "b": None})["a"] == 2
    with pytest.raises(ValueError):
        space.sample(mask={"a": None})
