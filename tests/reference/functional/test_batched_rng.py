"""BatchedGenerator: every row draws exactly what its own Generator would, whatever the batching."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.functional import BatchedGenerator

_Draw = tuple[str, Any]

sizes = st.one_of(st.none(), st.integers(0, 5), st.tuples(st.integers(1, 3), st.integers(1, 3)))
bounds = st.floats(-10, 10, allow_nan=False)
ranges = st.tuples(bounds, st.floats(0, 10)).map(lambda lo_span: (lo_span[0], lo_span[0] + lo_span[1]))
# One draw request: ("random", size) or ("uniform", (low, high, size)) with scalar or per-element array bounds.
draws = st.one_of(
    st.tuples(st.just("random"), sizes),
    st.tuples(st.just("uniform"), st.tuples(ranges, sizes).map(lambda r: (*r[0], r[1]))),
    st.tuples(st.just("uniform_array"), st.tuples(st.lists(bounds, min_size=3, max_size=3), st.just(10.0))),
)


def _single(gen: np.random.Generator, draw: _Draw) -> Any:
    kind, arg = draw
    if kind == "random":
        return gen.random(size=arg)
    if kind == "uniform":
        low, high, size = arg
        return gen.uniform(low, high, size=size)
    lows, high = arg
    return gen.uniform(low=np.array(lows), high=high)


def _batched(batch: BatchedGenerator, draw: _Draw) -> Any:
    kind, arg = draw
    if kind == "random":
        return batch.random(size=arg)
    if kind == "uniform":
        low, high, size = arg
        return batch.uniform(low, high, size=size)
    lows, high = arg
    return batch.uniform(low=np.array(lows), high=high)


@settings(max_examples=40, deadline=None)
@given(
    seeds=st.lists(st.integers(0, 2**32), min_size=1, max_size=5),
    plan=st.lists(st.tuples(draws, st.lists(st.booleans(), min_size=5, max_size=5)), min_size=1, max_size=12),
    prefetch=st.sampled_from([1, 3, 8, 128]),
)
def test_rows_draw_what_their_generators_draw(seeds: list[int], plan: list[Any], prefetch: int) -> None:
    batch = BatchedGenerator.from_generators([np.random.default_rng(s) for s in seeds], prefetch=prefetch)
    expected_gens = [np.random.default_rng(s) for s in seeds]
    for draw, selection in plan:
        rows = np.flatnonzero(selection[: len(seeds)])
        got = _batched(batch.rows(rows), draw)
        assert got.shape[0] == len(rows)
        for out_row, row in zip(got, rows.tolist()):
            want = np.asarray(_single(expected_gens[row], draw))
            assert out_row.shape == want.shape and out_row.tobytes() == want.tobytes()
    # Handing the generators out gives back what was read ahead: they continue exactly where the rows are.
    for gen, expected in zip(batch.generators(), expected_gens):
        assert gen.bit_generator.state == expected.bit_generator.state
        assert gen.integers(1 << 30) == expected.integers(1 << 30)


def test_full_batch_and_views_share_streams() -> None:
    gens = [np.random.default_rng(s) for s in (1, 2, 3)]
    batch = BatchedGenerator.from_generators(gens, prefetch=4)
    first = batch.uniform(-1.0, 1.0, size=(2,))
    middle = batch.rows([1]).random()
    last = batch.random(size=3)
    ref = [np.random.default_rng(s) for s in (1, 2, 3)]
    for i, r in enumerate(ref):
        assert first[i].tolist() == r.uniform(-1.0, 1.0, size=(2,)).tolist()
        if i == 1:
            assert middle[0] == r.random()
        assert last[i].tolist() == r.random(3).tolist()


def test_rewind_keeps_a_pending_32_bit_half_word() -> None:
    gen, twin = np.random.default_rng(5), np.random.default_rng(5)
    gen.integers(10, dtype=np.int32)  # leaves half of a 64-bit output buffered
    twin.integers(10, dtype=np.int32)
    batch = BatchedGenerator.from_generators([gen], prefetch=16)
    assert batch.random()[0] == twin.random()
    (handed_out,) = batch.generators()  # rewinds the 15 unread doubles
    assert handed_out.integers(10, dtype=np.int32) == twin.integers(10, dtype=np.int32)
    assert handed_out.bit_generator.state == twin.bit_generator.state


def test_non_rewindable_bit_generators_draw_exactly_what_is_asked() -> None:
    gens = [np.random.Generator(np.random.MT19937(s)) for s in (7, 8)]
    batch = BatchedGenerator.from_generators(gens)
    got = batch.uniform(0.0, 2.0, size=(3,))
    ref = [np.random.Generator(np.random.MT19937(s)) for s in (7, 8)]
    for row, gen, r in zip(got, gens, ref):
        assert row.tolist() == r.uniform(0.0, 2.0, size=(3,)).tolist()
        assert gen.random() == r.random()  # nothing was read ahead


def test_source_is_called_lazily_and_again_after_invalidate() -> None:
    calls: list[int] = []

    def source(i: int) -> np.random.Generator:
        calls.append(i)
        return np.random.default_rng(100 + i + len(calls))

    batch = BatchedGenerator(3, source)
    assert calls == []
    batch.rows([2]).random()
    assert calls == [2]
    batch.rows([2]).random()
    assert calls == [2]
    batch.rows([2]).invalidate()
    batch.random()
    assert sorted(calls) == [0, 1, 2, 2]


def test_growing_beyond_the_read_ahead() -> None:
    gens = [np.random.default_rng(9)]
    batch = BatchedGenerator.from_generators(gens, prefetch=2)
    batch.random()
    big = batch.random(size=10)
    ref = np.random.default_rng(9)
    ref.random()
    assert big[0].tolist() == ref.random(10).tolist()


def test_errors() -> None:
    batch = BatchedGenerator.from_generators([np.random.default_rng(0), np.random.default_rng(1)])
    with pytest.raises(IndexError, match="must not repeat"):
        batch.rows([1, 1])
    with pytest.raises(IndexError, match=r"in \[0, 2\)"):
        batch.rows([2])
    with pytest.raises(IndexError, match="mask must have shape"):
        batch.rows(np.array([True]))
    with pytest.raises(IndexError, match="1-D integer array"):
        batch.rows(np.array([0.5]))
    with pytest.raises(ValueError, match="must be finite and >= 0"):
        batch.uniform(-np.inf, 0.0, size=1)
    with pytest.raises(ValueError, match="must be finite and >= 0"):
        batch.uniform(np.ones(2), 0.0)
    with pytest.raises(ValueError, match="must broadcast to size"):
        batch.uniform(np.zeros(3), 1.0, size=(2,))
    with pytest.raises(ValueError, match="dtype must be float64"):
        batch.random(dtype=np.float32)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size must be None"):
        batch.random(size=-1)
    with pytest.raises(TypeError, match="must be a numpy.random.Generator"):
        BatchedGenerator.from_generators([object()])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="source must return"):
        BatchedGenerator(1, lambda i: object()).random()  # type: ignore[arg-type, return-value]
    with pytest.raises(ValueError, match="prefetch must be a positive int"):
        BatchedGenerator(1, np.random.default_rng, prefetch=0)
    assert len(batch) == 2 and len(batch.rows([True, False])) == 1 and repr(batch) == "BatchedGenerator(rows=2)"
