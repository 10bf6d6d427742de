"""Text: charsets, lengths, membership and masks."""

from __future__ import annotations

import numpy as np
import pytest

from reference.spaces import Text


def test_charset_orders_and_repr() -> None:
    space = Text(5)
    assert repr(space) == "Text(1, 5, charset=0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz)"
    ordered = Text(3, charset="cba")
    assert ordered.character_list == ("c", "b", "a") and ordered.characters == "abc"
    assert ordered.character_index("a") == 2 and ordered.character_set == frozenset("abc")
    assert Text(3, charset=frozenset("cba")).character_list == ("a", "b", "c")


def test_contains_and_sample_lengths() -> None:
    space = Text(4, min_length=2, charset="ab", seed=0)
    assert space.contains("abab") and not space.contains("a") and not space.contains("abc") and not space.contains(3)
    lengths = {len(space.sample()) for _ in range(100)}
    assert lengths == {2, 3, 4}


def test_masks() -> None:
    space = Text(3, min_length=0, charset="abc", seed=0)
    assert set(space.sample(mask=(3, np.array([0, 1, 0], dtype=np.int8)))) == {"b"}
    assert space.sample(mask=(None, np.zeros(3, dtype=np.int8))) == ""
    assert set(space.sample(probability=(2, np.array([0.0, 0.0, 1.0])))) == {"c"}
    with pytest.raises(ValueError, match="length"):
        space.sample(mask=(5, None))
    with pytest.raises(TypeError, match="tuple"):
        space.sample(mask=np.ones(3, dtype=np.int8))
    strict = Text(3, charset="abc")
    with pytest.raises(ValueError, match="at least one character"):
        strict.sample(mask=(None, np.zeros(3, dtype=np.int8)))
