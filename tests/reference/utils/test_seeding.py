"""reference.utils.seeding: Gymnasium's PCG64 scheme and its seed validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.error import Error
from reference.utils import seeding


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**80))
def test_same_stream_as_seedsequence_pcg64(seed: int) -> None:
    rng, used = seeding.np_random(seed)
    expected = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    assert used == seed and rng.bit_generator.state == expected.bit_generator.state


def test_entropy_seed_is_reported_and_replayable() -> None:
    rng, used = seeding.np_random()
    replay, _ = seeding.np_random(used)
    assert isinstance(used, int) and used >= 0
    assert rng.random() == replay.random()


@pytest.mark.parametrize(("seed", "error"), [(-1, ValueError), (1.0, TypeError), (np.int64(3), TypeError), ("1", TypeError)])
def test_invalid_seeds(seed: object, error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        seeding.np_random(seed)  # type: ignore[arg-type]
    assert isinstance(info.value, Error)
    assert "np_random seed must be" in str(info.value)


def test_aliases() -> None:
    assert seeding.RNG is seeding.RandomNumberGenerator is np.random.Generator
    assert seeding.np_random(True)[1] is True  # bool is an int, as in Gymnasium


@pytest.mark.gymnasium
@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**64))
def test_matches_gymnasium(seed: int) -> None:
    gym_seeding = pytest.importorskip("gymnasium.utils.seeding")
    ours, _ = seeding.np_random(seed)
    theirs, _ = gym_seeding.np_random(seed)
    assert ours.bit_generator.state == theirs.bit_generator.state
