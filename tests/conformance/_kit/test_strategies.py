"""Strategies derived from a space's structure yield its elements, shrink to its first element, and never touch
the space's own generator; samplers do the same for rollout tails."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis.strategies import SearchStrategy

from conformance._engine.profiles import PROFILES, first_choices, given_under
from conformance._kit.strategies import elements, plan_tuples, plans, sampler, space_kind, subspaces
from tests.meta.broken._spaces import Box, Discrete, MultiBinary, MultiDiscrete, TupleSpace

gym_spaces = pytest.importorskip("gymnasium.spaces")


def _gym_spaces() -> dict[str, Any]:
    s = gym_spaces
    return {
        "box": s.Box(-1.0, 2.0, (3,), np.float32),
        "box-int": s.Box(-3, 5, (2, 2), np.int64),
        "box-unbounded": s.Box(-np.inf, np.inf, (2,), np.float64),
        "box-half": s.Box(np.array([0.0, -np.inf]), np.array([np.inf, 1.0]), dtype=np.float32),
        "box-scalar": s.Box(0.0, 1.0, (), np.float32),
        "discrete": s.Discrete(4, start=-2),
        "multidiscrete": s.MultiDiscrete([2, 3, 4]),
        "multibinary": s.MultiBinary([2, 3]),
        "tuple": s.Tuple((s.Discrete(2), s.Box(0.0, 1.0, (1,)))),
        "dict": s.Dict({"a": s.Discrete(3), "b": s.MultiBinary(2)}),
        "text": s.Text(min_length=1, max_length=4, charset="abc"),
        "sequence": s.Sequence(s.Discrete(3)),
        "oneof": s.OneOf((s.Discrete(2), s.Box(0.0, 1.0, (2,)))),
        "graph": s.Graph(node_space=s.Discrete(3), edge_space=None),
    }


_DUCK = {
    "duck-discrete": Discrete(3, start=1),
    "duck-box": Box(-1.0, 1.0, (2,)),
    "duck-multidiscrete": MultiDiscrete([3, 2]),
    "duck-multibinary": MultiBinary([3]),
    "duck-tuple": TupleSpace((Discrete(2), Box(0.0, 1.0, (1,)))),
}
_SPACES = {**_gym_spaces(), **_DUCK}
_KINDS = {
    "box": "box", "box-int": "box", "box-unbounded": "box", "box-half": "box", "box-scalar": "box",
    "discrete": "discrete", "multidiscrete": "multidiscrete", "multibinary": "multibinary", "tuple": "tuple",
    "dict": "dict", "text": "text", "sequence": "sequence", "oneof": "oneof", "graph": "unknown",
    "duck-discrete": "discrete", "duck-box": "box", "duck-multidiscrete": "multidiscrete",
    "duck-multibinary": "multibinary", "duck-tuple": "tuple",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(_SPACES))
def test_spaces_are_classified_structurally(name: str) -> None:
    assert space_kind(_SPACES[name]) == _KINDS[name]


@pytest.mark.parametrize("name", sorted(_SPACES))
def test_drawn_elements_are_contained(name: str) -> None:
    space = _SPACES[name]

    @settings(max_examples=30, deadline=None, database=None)
    @given(elements(space))
    def check(value: Any) -> None:
        assert space.contains(value), value

    check()


@pytest.mark.parametrize("name", sorted(_SPACES))
def test_sampled_tails_are_contained(name: str) -> None:
    space = _SPACES[name]
    draw = sampler(space)
    rng = np.random.default_rng(0)
    for _ in range(30):
        value = draw(rng)
        assert space.contains(value), value


def test_box_elements_shrink_to_the_lower_bound() -> None:
    space = gym_spaces.Box(np.array([-1.0, 2.0], np.float32), np.array([1.0, 3.0], np.float32), dtype=np.float32)
    smallest = find(elements(space), lambda value: True, settings=settings(database=None))
    assert np.array_equal(smallest, space.low)


def test_discrete_elements_shrink_to_start() -> None:
    space = gym_spaces.Discrete(5, start=3)
    assert find(elements(space), lambda value: True, settings=settings(database=None)) == 3


def test_strategies_leave_the_spaces_generator_alone() -> None:
    space = gym_spaces.Discrete(5)
    space.seed(0)
    state = space.np_random.bit_generator.state
    find(elements(space), lambda value: value > 2, settings=settings(database=None))
    assert space.np_random.bit_generator.state == state


@settings(max_examples=20, deadline=None, database=None)
@given(plans(gym_spaces.Discrete(3), PROFILES["quick"]))
def test_plans_are_deterministic_and_bounded(plan: Any) -> None:
    actions = plan.actions()
    assert len(actions) == plan.length <= PROFILES["quick"].max_steps
    assert [int(a) for a in actions] == [int(a) for a in plan.actions()]


def test_subspaces_paths_are_source() -> None:
    space = _SPACES["dict"]
    assert [path for path, _ in subspaces(space)] == ["", ".spaces['a']", ".spaces['b']"]
    nested = gym_spaces.Tuple((gym_spaces.Sequence(gym_spaces.Discrete(2)),))
    assert [path for path, _ in subspaces(nested)] == ["", ".spaces[0]", ".spaces[0].feature_space"]


def test_unusable_spaces_are_not_checkable() -> None:
    class Broken:
        def seed(self, seed: int | None = None) -> None:
            raise RuntimeError("no")

    from conformance._engine.outcomes import NotCheckable

    with pytest.raises(NotCheckable, match="cannot draw elements"):
        find(elements(Broken()), lambda value: True, settings=settings(database=None))


@pytest.mark.parametrize("space", [Discrete(3), Box(-1.0, 1.0, (2,)), TupleSpace((Discrete(2), Box(0.0, 1.0, (1,))))])
def test_drawing_plans_builds_no_strategy_after_the_first(space: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plan's draw reuses its strategies: building and validating a new one for every drawn length or action
    (a flatmap's way) cost more than the rest of the draw, on every example of every rollout item."""
    built = [0]
    original = SearchStrategy.__init__

    def counting(self: SearchStrategy[Any], *args: Any, **kwargs: Any) -> None:
        built[0] += 1
        original(self, *args, **kwargs)

    monkeypatch.setattr(SearchStrategy, "__init__", counting)
    profile = PROFILES["default"]
    for strategy in (plans(space, profile), plan_tuples([space, space], profile, max_steps=50)):
        seen: list[int] = []

        @given_under(profile, strategy, first=first_choices(strategy))
        def draw(plan: Any) -> None:
            del plan
            seen.append(built[0])

        draw()
        assert len(seen) == profile.max_examples and seen[-1] == seen[0]


def test_a_box_sampler_works_out_the_space_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rollout's tail maps every action through the box's bounds: those are read and broadcast when the sampler is
    made, not for every action (that was most of a small box's sampling cost)."""
    space = Box(-2.0, 2.0, (1,))
    draw = sampler(space)
    broadcasts: list[object] = []
    real = np.broadcast_to

    def counting(array: Any, shape: Any, *args: Any, **kwargs: Any) -> Any:
        broadcasts.append(shape)
        return real(array, shape, *args, **kwargs)

    monkeypatch.setattr(np, "broadcast_to", counting)
    rng = np.random.default_rng(0)
    values = [draw(rng) for _ in range(20)]
    assert all(space.contains(value) for value in values)
    assert broadcasts == []
