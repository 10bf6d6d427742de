"""Tests for EnvSpec, WrapperSpec and VectorizeMode."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.registration import EnvSpec, VectorizeMode, WrapperSpec

_JSON_SCALAR = st.none() | st.booleans() | st.integers(-100, 100) | st.text(max_size=5)
_KWARGS = st.dictionaries(st.text(min_size=1, max_size=5), _JSON_SCALAR, max_size=3)


def test_fields_are_gymnasiums_in_order() -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    ours = [(f.name, f.init) for f in dataclasses.fields(EnvSpec)]
    theirs = [(f.name, f.init) for f in dataclasses.fields(gym_registration.EnvSpec)]
    assert ours == theirs
    assert [f.name for f in dataclasses.fields(WrapperSpec)] == ["name", "entry_point", "kwargs"]


def test_vectorize_mode_values() -> None:
    assert {m.name: m.value for m in VectorizeMode} == {
        "ASYNC": "async",
        "SYNC": "sync",
        "VECTOR_ENTRY_POINT": "vector_entry_point",
    }


def test_derived_fields_come_from_the_id() -> None:
    spec = EnvSpec("ns/Toy-v3", entry_point="pkg:Toy")
    assert (spec.namespace, spec.name, spec.version) == ("ns", "Toy", 3)


@given(
    max_episode_steps=st.none() | st.integers(1, 1000),
    nondeterministic=st.booleans(),
    kwargs=_KWARGS,
    wrapper_kwargs=st.none() | _KWARGS,
    reward_threshold=st.none() | st.floats(-10, 10),
)
@settings(max_examples=40, deadline=None)
def test_json_round_trip(
    max_episode_steps: int | None,
    nondeterministic: bool,
    kwargs: dict[str, Any],
    wrapper_kwargs: dict[str, Any] | None,
    reward_threshold: float | None,
) -> None:
    spec = EnvSpec(
        "ns/Toy-v1",
        entry_point="pkg.mod:Toy",
        reward_threshold=reward_threshold,
        nondeterministic=nondeterministic,
        max_episode_steps=max_episode_steps,
        kwargs=kwargs,
        additional_wrappers=(WrapperSpec("W", "pkg.wrappers:W", wrapper_kwargs),),
        vector_entry_point="pkg.mod:VecToy",
    )
    assert EnvSpec.from_json(spec.to_json()) == spec


def test_to_json_rejects_callables_and_unserialisable_values() -> None:
    with pytest.raises(ValueError, match="callable"):
        EnvSpec("Toy-v0", entry_point=lambda **kw: None).to_json()  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="JSON-serialisable"):
        EnvSpec("Toy-v0", entry_point="a:b", kwargs={"x": object()}).to_json()


def test_from_json_rejects_garbage() -> None:
    with pytest.raises(ValueError, match="must encode an object"):
        EnvSpec.from_json("[1, 2]")
    with pytest.raises(ValueError, match="must hold EnvSpec fields"):
        EnvSpec.from_json('{"id": "Toy-v0", "bogus": 1, "additional_wrappers": []}')
    with pytest.raises(ValueError, match="WrapperSpec fields"):
        EnvSpec.from_json('{"id": "Toy-v0", "additional_wrappers": [{"nom": 1}]}')


@pytest.mark.gymnasium
@pytest.mark.parametrize("include_entry_points", [False, True])
@pytest.mark.parametrize("print_all", [False, True])
@pytest.mark.parametrize("wrappers", [(), (WrapperSpec("W", "pkg:W", {"a": 1}), WrapperSpec("V", "pkg:V", None))])
def test_pprint_matches_gymnasium(
    include_entry_points: bool, print_all: bool, wrappers: tuple[WrapperSpec, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    gym_registration = pytest.importorskip("gymnasium.envs.registration")
    kwargs: dict[str, Any] = dict(
        id="ns/Toy-v1", entry_point="pkg:Toy", max_episode_steps=7, order_enforce=False, reward_threshold=1.5
    )
    ours = EnvSpec(**kwargs, additional_wrappers=wrappers)
    theirs = gym_registration.EnvSpec(
        **kwargs,
        additional_wrappers=tuple(gym_registration.WrapperSpec(w.name, w.entry_point, w.kwargs) for w in wrappers),
    )
    options = dict(include_entry_points=include_entry_points, print_all=print_all)
    text = ours.pprint(disable_print=True, **options)
    assert text == theirs.pprint(disable_print=True, **options)
    assert ours.pprint(**options) is None
    assert capsys.readouterr().out == f"{text}\n"
