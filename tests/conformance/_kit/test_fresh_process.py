"""SEED-012's fresh interpreter: another str-hash salt, the target rebuilt from source, its first episode returned."""

from __future__ import annotations

import os

import pytest

from conformance._kit.fresh_process import FreshProcessError, first_episode, other_hash_seed

_IMPORTS = ("from tests.meta.broken.deep import HopSaltedStart", "from tests.meta.broken._shapes import Hop")


def _hop_start_here() -> int:  # noqa: N802 - reads as what it returns
    from tests.meta.broken._shapes import Hop

    obs, _ = Hop().reset(seed=0)
    return int(obs)


def test_the_hash_seed_differs_from_this_process() -> None:
    assert other_hash_seed() != os.environ.get("PYTHONHASHSEED")


def test_a_salted_env_gives_another_start_in_the_fresh_interpreter() -> None:
    salted = first_episode(_IMPORTS, "HopSaltedStart()", 0, [1] * 30, timeout=120.0)
    plain = first_episode(_IMPORTS, "Hop()", 0, [1] * 30, timeout=120.0)
    assert salted.hash_seed == plain.hash_seed == other_hash_seed()
    assert plain.rows[0][0] == "reset" and plain.rows[0][1] == _hop_start_here()
    assert [row[0] for row in salted.rows][:2] == ["reset", "step"]


def test_a_constructor_that_fails_is_reported_with_its_error() -> None:
    with pytest.raises(FreshProcessError, match="ZeroDivisionError"):
        first_episode(("import math",), "1 // 0", 0, [], timeout=120.0)
