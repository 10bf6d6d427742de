"""Space constructors given arbitrary arguments fail only with one-line ValueError/TypeError, never mutate input."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from reference import spaces
from tests.reference._equality import assert_identical

_Value: TypeAlias = Any

pytestmark = pytest.mark.filterwarnings("ignore:.*precision lowered")

_dtypes = st.sampled_from(
    [np.float32, np.float64, np.int64, np.uint8, np.bool_, np.complex64, np.object_, np.str_, "float16", "int32"]
)
_arrays = st.one_of(
    hnp.arrays(
        st.sampled_from(["float32", "float64", "int64", "uint8", "bool", "int8"]),
        hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3),
    ),
    st.just(np.array(["a", "b"])),
    st.just(np.array([1 + 2j])),
    st.just(np.array([None, 1], dtype=object)),
)
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=3),
    st.sampled_from([np.int64(3), np.float32(-1.5), np.uint8(7), np.bool_(True)]),
)
_values = st.recursive(
    st.one_of(_scalars, _arrays, _dtypes),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.lists(children, max_size=3).map(tuple),
        st.dictionaries(st.text("ab", min_size=1, max_size=2), children, max_size=2),
    ),
    max_leaves=5,
)
_space_values = st.sampled_from([spaces.Discrete(3), spaces.Box(0, 1, (2,)), spaces.MultiBinary(2)])
_args = st.one_of(_values, _space_values, st.lists(_space_values, max_size=2))

_CONSTRUCTORS: dict[str, Callable[..., object]] = {
    "Box": lambda a, b, c, d, e: spaces.Box(a, b, c, d, e),
    "Box/kw": lambda a, b, c, d, e: spaces.Box(low=a, high=b, shape=c, dtype=np.float32 if d is None else d),
    "Discrete": lambda a, b, c, d, e: spaces.Discrete(a, b, c, d),
    "Discrete/n": lambda a, b, c, d, e: spaces.Discrete(a),
    "MultiDiscrete": lambda a, b, c, d, e: spaces.MultiDiscrete(a, b, c, d),
    "MultiDiscrete/nvec": lambda a, b, c, d, e: spaces.MultiDiscrete(a, start=b),
    "MultiBinary": lambda a, b, c, d, e: spaces.MultiBinary(a, b),
    "Text": lambda a, b, c, d, e: spaces.Text(a, min_length=b, charset=c, seed=d),
    "Text/max": lambda a, b, c, d, e: spaces.Text(a),
    "Tuple": lambda a, b, c, d, e: spaces.Tuple(a, b),
    "Dict": lambda a, b, c, d, e: spaces.Dict(a, b),
    "Sequence": lambda a, b, c, d, e: spaces.Sequence(a, b, c),
    "Graph": lambda a, b, c, d, e: spaces.Graph(a, b, c),
    "OneOf": lambda a, b, c, d, e: spaces.OneOf(a, b),
}


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(sorted(_CONSTRUCTORS)), st.lists(_args, min_size=5, max_size=5))
def test_constructors_raise_only_value_or_type_errors(name: str, args: list[_Value]) -> None:
    before = copy.deepcopy(args)
    try:
        space = _CONSTRUCTORS[name](*args)
    except (ValueError, TypeError) as exc:
        message = str(exc)
        assert message, f"{name} raised {type(exc).__name__} without a message"
        assert "\n" not in message, f"{name} message is not one line: {message!r}"
    else:
        assert isinstance(space, spaces.Space)
    for original, now in zip(before, args, strict=True):
        if isinstance(original, np.ndarray):
            assert_identical(original, now, f"{name} mutated its argument")


@pytest.mark.parametrize(
    ("factory", "error"),
    [
        (lambda: spaces.Box(1.0, 0.0), ValueError),
        (lambda: spaces.Box(np.zeros(2), np.ones(3)), ValueError),
        (lambda: spaces.Box(0, 1, shape=(2,), dtype=None), ValueError),  # type: ignore[call-overload]
        (lambda: spaces.Box(0, 1, shape=(2,), dtype=np.str_), ValueError),
        (lambda: spaces.Box(0, 1, shape="ab"), TypeError),  # type: ignore[arg-type]
        (lambda: spaces.Box(np.nan, 1.0), ValueError),
        (lambda: spaces.Box(-np.inf, 1, dtype=np.uint8), ValueError),
        (lambda: spaces.Box(0, 300, dtype=np.uint8), ValueError),
        (lambda: spaces.Discrete(0), ValueError),
        (lambda: spaces.Discrete(2.0), TypeError),  # type: ignore[call-overload]
        (lambda: spaces.Discrete(3, dtype=np.float32), TypeError),  # type: ignore[arg-type]
        (lambda: spaces.Discrete(300, dtype=np.uint8), ValueError),
        (lambda: spaces.MultiDiscrete([2, 0]), ValueError),
        (lambda: spaces.MultiDiscrete([2, 2], start=[0]), ValueError),
        (lambda: spaces.MultiDiscrete([1.5]), ValueError),
        (lambda: spaces.MultiBinary(0), ValueError),
        (lambda: spaces.Text(-1), ValueError),
        (lambda: spaces.Text(3, min_length=4), ValueError),
        (lambda: spaces.Text(3, charset=["ab"]), ValueError),  # type: ignore[arg-type]
        (lambda: spaces.Tuple([1]), TypeError),  # type: ignore[arg-type]
        (lambda: spaces.Dict({"a": 1}), TypeError),
        (lambda: spaces.OneOf([]), ValueError),
        (lambda: spaces.Sequence(3), TypeError),  # type: ignore[arg-type]
        (lambda: spaces.Graph(3, None), TypeError),  # type: ignore[arg-type]
        (lambda: spaces.Discrete(3, seed=-1), ValueError),
        (lambda: spaces.Discrete(3, seed=1.5), TypeError),  # type: ignore[call-overload]
        (lambda: spaces.Tuple([spaces.Discrete(2)], seed=[1, 2]), ValueError),
    ],
)
def test_invalid_arguments_raise_design_style_errors(factory: Callable[[], object], error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        factory()
    message = str(info.value)
    assert "\n" not in message
    assert " must " in message and ", got " in message, message


@pytest.mark.parametrize("space", [spaces.Tuple([]), spaces.Dict({}), spaces.Dict()], ids=repr)
def test_empty_composites_are_valid_spaces(space: spaces.Space[Any]) -> None:
    # Gymnasium allows them (its tests build Tuple([]) and Dict()); they hold exactly one element.
    element = space.sample()
    assert element in space and len(element) == 0
    assert space.seed(0) == type(element)()


def test_box_does_not_write_into_caller_bounds() -> None:
    low = np.array([-np.inf, 0.0])
    high = np.array([np.inf, 1.0])
    box = spaces.Box(low, high, dtype=np.int64)
    assert np.isneginf(low[0]) and np.isposinf(high[0])
    assert box.low[0] == np.iinfo(np.int64).min
    box.low[1] = 5
    assert low[1] == 0.0
