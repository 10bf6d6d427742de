"""Sizes past the platform's limits and lengths past a space's are refused at once, naming the parameter (issue 27).

Each space's constructor and sampler checks :mod:`reference.spaces._limits` before NumPy or Python runs into the
limit: the refusal is a ``ValueError`` in the project's style, never NumPy's wording, an ``OverflowError`` or a call
that never returns (the fuzz test, ``tests/reference/test_fuzz_public_api.py``, runs the same calls under its time
limit). Inputs just inside the limits keep behaving exactly as Gymnasium's spaces do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference import spaces
from reference.spaces import _limits
from reference.spaces._validation import MaskError
from tests.reference._equality import assert_identical

_Call = Callable[[], object]

_REFUSED: dict[str, tuple[_Call, str]] = {
    "Box shape, 33 dimensions": (lambda: spaces.Box(0.0, 1.0, (1,) * 33), r"^Box shape must have at most 32 dim"),
    "Box shape, bytes": (lambda: spaces.Box(0.0, 1.0, (2**61,), np.float32), r"^Box shape must describe an array"),
    "Box bounds, 33 dimensions": (lambda: spaces.Box(np.zeros((1,) * 33), 1.0), r"^Box shape must have at most 32"),
    "Discrete n": (lambda: spaces.Discrete(2**63), r"^Discrete n must fit dtype int64"),
    "Discrete n, shifted start": (lambda: spaces.Discrete(2**64, start=-(2**63)), r"^Discrete n must fit dtype"),
    "Discrete n, uint8": (lambda: spaces.Discrete(256, dtype=np.uint8), r"^Discrete n must fit dtype uint8"),
    "MultiBinary n": (lambda: spaces.MultiBinary(2**63), r"^MultiBinary n must describe an array of at most"),
    "MultiBinary n, product": (lambda: spaces.MultiBinary([2**62, 4]), r"^MultiBinary n must describe an array"),
    "MultiBinary n, 33 dimensions": (lambda: spaces.MultiBinary([1] * 33), r"^MultiBinary n must have at most 32"),
    "MultiBinary n, empty": (lambda: spaces.MultiBinary([]), r"^MultiBinary n must be a positive int or a non-emp"),
    "MultiDiscrete nvec, empty": (lambda: spaces.MultiDiscrete([]), r"^MultiDiscrete nvec must hold at least one"),
    "MultiDiscrete nvec, [[]]": (lambda: spaces.MultiDiscrete([[]]), r"^MultiDiscrete nvec must hold at least one"),
    "MultiDiscrete nvec, 2**70": (lambda: spaces.MultiDiscrete([2**70]), r"^MultiDiscrete nvec must fit dtype"),
    "MultiDiscrete nvec, 33 dims": (
        lambda: spaces.MultiDiscrete(np.full((1,) * 33, 2)),
        r"^MultiDiscrete nvec must have at most 32 dimensions",
    ),
    "MultiDiscrete nvec, 70 nested lists": (
        lambda: spaces.MultiDiscrete(_nested(70)),
        r"^MultiDiscrete nvec must be a \(nested\) sequence of ints of at most 32 dimensions",
    ),
    "Text max_length": (lambda: spaces.Text(2**40), r"^Text max_length must be at most \d+ \(a sample of that"),
    "Sequence mask length": (
        lambda: spaces.Sequence(spaces.Discrete(2)).sample(mask=(10**12, None)),
        r"^Sequence\.sample mask length must be at most \d+",
    ),
    "Sequence probability length": (
        lambda: spaces.Sequence(spaces.Discrete(2)).sample(probability=(np.int64(2**62), None)),
        r"^Sequence\.sample probability length must be at most \d+",
    ),
    "Sequence mask lengths": (
        lambda: spaces.Sequence(spaces.Discrete(2)).sample(mask=(np.array([1, 2**64 - 1], np.uint64), None)),
        r"^Sequence\.sample mask lengths must be at most \d+",
    ),
    "Graph num_edges": (
        lambda: spaces.Graph(spaces.Discrete(2), spaces.Discrete(2)).sample(num_edges=2**70),
        r"^Graph\.sample num_edges must describe an array of at most 2\*\*63 - 1 bytes",
    ),
    "Graph num_edges, wide edges": (
        lambda: spaces.Graph(spaces.Discrete(2), spaces.Box(0.0, 1.0, (2**20,))).sample(num_edges=2**44),
        r"^Graph\.sample num_edges must describe an array",
    ),
    "Graph num_nodes with edges": (
        lambda: spaces.Graph(spaces.Box(0.0, 1.0, (2,)), spaces.Discrete(2)).sample(num_nodes=2**70, num_edges=1),
        r"^Graph\.sample num_nodes must describe an array",
    ),
    "Graph num_nodes past int32 edge links": (
        lambda: spaces.Graph(spaces.Discrete(2), spaces.Discrete(2)).sample(num_nodes=2**40, num_edges=1),
        r"^Graph\.sample num_nodes must be at most 2147483648 when edges are sampled",
    ),
}


def _nested(depth: int) -> list[Any]:
    value: list[Any] = [2]
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("case", sorted(_REFUSED))
def test_refused_with_a_value_error_naming_the_parameter(case: str) -> None:
    call, message = _REFUSED[case]
    with pytest.raises(ValueError, match=message):
        call()


def test_sampling_arguments_are_refused_as_mask_errors() -> None:
    # MaskError is also Gymnasium's Error and AssertionError, so code written against Gymnasium catches it.
    with pytest.raises(MaskError):
        spaces.Sequence(spaces.Discrete(2)).sample(mask=(2**70, None))
    with pytest.raises(MaskError):
        spaces.Graph(spaces.Discrete(2), spaces.Discrete(2)).sample(num_edges=2**62)


class _NoMemory:
    """A generator whose draws cannot be allocated."""

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        raise MemoryError


def test_multi_binary_too_large_to_sample_names_n() -> None:
    space = spaces.MultiBinary(2**40)  # accepted: within NumPy's limits, the memory is the machine's question
    space._np_random = _NoMemory()  # type: ignore[assignment]  # the allocation fails as it would here
    with pytest.raises(ValueError, match=r"^MultiBinary n must describe an array that fits in memory to be sampled"):
        space.sample()


def test_memory_bound_is_the_machines() -> None:
    assert _limits.memory_bytes() > 0
    limit = _limits.memory_bytes() // 8
    spaces.Text(min(limit, 10**6))  # a length the machine can hold is accepted
    with pytest.raises(ValueError, match=rf"^Text max_length must be at most {limit} "):
        spaces.Text(limit + 1)


def test_limits_are_numpys() -> None:
    assert _limits.MAX_ELEMENTS == np.iinfo(np.intp).max
    np.broadcast_to(np.zeros((1,) * _limits.MAX_DIMS), (1,) * _limits.MAX_DIMS)  # NumPy takes the most we allow
    spaces.Box(0.0, 1.0, (1,) * _limits.MAX_DIMS).sample()
    spaces.MultiBinary([1] * _limits.MAX_DIMS).sample()


# --- just inside the limits, as Gymnasium ---------------------------------------------------------------------------

_INSIDE: dict[str, tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    "Discrete(2**63 - 1)": (lambda s: s.Discrete(2**63 - 1, seed=1), lambda space: space.sample()),
    "MultiBinary([1] * 32)": (lambda s: s.MultiBinary([1] * 32, seed=1), lambda space: space.sample()),
    "MultiDiscrete([2**62] * 3)": (lambda s: s.MultiDiscrete([2**62] * 3, seed=1), lambda space: space.sample()),
    "Box((1,) * 32)": (lambda s: s.Box(0.0, 1.0, (1,) * 32, seed=1), lambda space: space.sample()),
    "Text(1000)": (lambda s: s.Text(1000, seed=1), lambda space: space.sample()),
    "Text(5).sample(mask=(5, None))": (lambda s: s.Text(5, seed=1), lambda space: space.sample(mask=(5, None))),
    "Sequence.sample(mask=(1000, None))": (
        lambda s: s.Sequence(s.Discrete(2), seed=1),
        lambda space: space.sample(mask=(1000, None)),
    ),
    "Sequence.sample(mask=(array([0, 40]), None))": (
        lambda s: s.Sequence(s.Discrete(2), seed=1),
        lambda space: space.sample(mask=(np.array([0, 40]), None)),
    ),
    "Graph.sample(num_nodes=2**16, num_edges=3)": (
        lambda s: s.Graph(s.Discrete(3), s.Discrete(2), seed=1),
        lambda space: space.sample(num_nodes=2**16, num_edges=3),
    ),
}


@pytest.mark.gymnasium
@pytest.mark.parametrize("case", sorted(_INSIDE))
def test_inside_the_limits_samples_as_gymnasium(case: str) -> None:
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    build, draw = _INSIDE[case]
    ours, theirs = draw(build(spaces)), draw(build(gym_spaces))
    assert_identical(ours, theirs, case, key_order=True)


@pytest.mark.gymnasium
@settings(max_examples=40, deadline=None)
@given(st.integers(1, 2**20), st.integers(0, 2**32))
def test_sequence_lengths_inside_memory_sample_as_gymnasium(length: int, seed: int) -> None:
    gym_spaces = pytest.importorskip("gymnasium.spaces")
    ours = spaces.Sequence(spaces.Discrete(3), seed=seed).generate_sample_length(length, "mask")
    theirs = gym_spaces.Sequence(gym_spaces.Discrete(3), seed=seed).generate_sample_length(length, "mask")
    assert ours == theirs == length
