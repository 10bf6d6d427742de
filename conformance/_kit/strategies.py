"""Hypothesis strategies derived *structurally* from any space, and the rollout plans built on them.

A space is recognised by what it has, never by its class: ``low/high/shape/dtype`` (Box-like), ``n/start``
(Discrete-like), ``nvec`` (MultiDiscrete-like), ``n`` without ``start`` (MultiBinary-like), ``spaces`` as a mapping
(Dict-like) or a sequence (Tuple-like, or OneOf-like when its elements are ``(index, value)`` pairs),
``character_set``/``characters`` (Text-like), ``feature_space`` (Sequence-like). Anything else, and any drawn value
the space does not accept, falls back to ``sample()`` of a private copy seeded with a drawn seed, so every value a
strategy yields is an element of the space as far as the space itself can tell.

Structural draws shrink towards the lower bound / first element, so a failing action sequence shrinks to a short,
readable reproducer. Long rollouts stay cheap: Hypothesis draws a rollout's leading actions itself and the tail
comes from a fast seeded sampler (:func:`sampler`) over the same structure.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, SupportsIndex, TypeAlias, TypeVar, overload

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from conformance._engine.cost import METER
from conformance._engine.describe import is_mapping, is_sequence, is_tuple
from conformance._engine.outcomes import NotCheckable
from conformance._engine.processes import tracked as _board_tracked
from conformance._engine.profiles import Profile, full_first

__all__ = [
    "Actions",
    "Plan",
    "Sampler",
    "elements",
    "plan_tuples",
    "plans",
    "sampler",
    "seeds",
    "space_kind",
    "subspaces",
]

Sampler: TypeAlias = Callable[[np.random.Generator], Any]
_T = TypeVar("_T")
_Strategy: TypeAlias = "st.SearchStrategy[Any]"

SEED_MAX = 2**32 - 1
_UNBOUNDED_SCALE = 100.0
_MAX_TEXT = 16
_MAX_SEQUENCE = 5


def _tracked(label: str, fn: Callable[[], _T], method: str) -> _T:
    """A call into the target's space, on the process's board and counted as target time (the space is the
    target's code)."""
    return METER.timed(_board_tracked, label, fn, method)


def seeds() -> st.SearchStrategy[int]:
    """Seeds in ``[0, 2**32)``, the range every seeding scheme accepts."""
    return st.integers(0, SEED_MAX)


# --- structure --------------------------------------------------------------------------------------------------


def _has(space: object, *names: str) -> bool:
    return all(getattr(space, name, None) is not None for name in names)


def _seeded_samples(space: Any, count: int) -> list[Any]:
    private = _tracked("copy.deepcopy(space)", lambda: copy.deepcopy(space), "deepcopy")
    samples: list[Any] = []
    for seed in range(count):
        _tracked("space.seed()", lambda: private.seed(seed), "seed")  # noqa: B023 - called at once
        samples.append(_tracked("space.sample()", private.sample, "sample"))
    return samples


def _tuple_or_oneof(space: Any) -> str:
    """Tell a Tuple-like space from a OneOf-like one (both have a ``spaces`` sequence) by what it accepts.

    A Tuple accepts one element per subspace; a OneOf accepts ``(index, element of spaces[index])``. Candidates
    valid under one reading only decide; when both readings accept the same values, either strategy is right.
    """
    subs = list(space.spaces)
    if len(subs) != 2:
        try:
            sample = _seeded_samples(space, 1)[0]
        except Exception:  # noqa: BLE001 - an unusable sampler leaves only the structural guess
            return "tuple"
        return "oneof" if is_tuple(sample) and len(sample) == 2 else "tuple"
    try:
        as_tuple = [tuple(items) for items in zip(*(_seeded_samples(sub, 8) for sub in subs))]
        as_oneof = [(np.int64(i), value) for i, sub in enumerate(subs) for value in _seeded_samples(sub, 2)]
        tuple_ok = all(_contains(space, value) for value in as_tuple)
        oneof_ok = all(_contains(space, value) for value in as_oneof)
    except Exception:  # noqa: BLE001
        return "tuple"
    return "oneof" if oneof_ok and not tuple_ok else "tuple"


def space_kind(space: Any) -> str:
    """Classify a space by its attributes.

    Args:
        space: Any space-like object.

    Returns:
        One of ``"box"``, ``"discrete"``, ``"multidiscrete"``, ``"multibinary"``, ``"dict"``, ``"tuple"``,
        ``"oneof"``, ``"text"``, ``"sequence"`` or ``"unknown"``.
    """
    inner = getattr(space, "spaces", None)
    if isinstance(inner, Mapping):
        return "dict"
    if isinstance(inner, Sequence) and not isinstance(inner, str):
        return _tuple_or_oneof(space)
    if _has(space, "nvec"):
        return "multidiscrete"
    if _has(space, "low", "high", "shape", "dtype"):
        return "box"
    if _has(space, "n", "start"):
        return "discrete"
    if _has(space, "n", "shape", "dtype") and not _has(space, "start"):
        return "multibinary"
    if _has(space, "min_length", "max_length") and (_has(space, "character_set") or _has(space, "characters")):
        return "text"
    if _has(space, "feature_space"):
        return "sequence"
    return "unknown"


def subspaces(space: Any, path: str = "") -> list[tuple[str, Any]]:
    """The space and every nested subspace, depth first, with the attribute path that reaches each.

    Paths are source text (``".spaces['pos']"``, ``".spaces[1]"``, ``".feature_space"``) so a reproducer can say
    ``env.observation_space.spaces['pos']``.
    """
    found = [(path, space)]
    inner = getattr(space, "spaces", None)
    if is_mapping(inner):
        for key, sub in inner.items():
            found += subspaces(sub, f"{path}.spaces[{key!r}]")
    elif is_sequence(inner) and not isinstance(inner, str):
        for index, sub in enumerate(inner):
            found += subspaces(sub, f"{path}.spaces[{index}]")
    elif getattr(space, "feature_space", None) is not None:
        found += subspaces(space.feature_space, f"{path}.feature_space")
    return found


# --- value construction shared by strategies and samplers ---------------------------------------------------------


def _box_scaler(space: Any, shape: tuple[int, ...]) -> Callable[[np.ndarray[Any, Any]], np.ndarray[Any, Any]]:
    """``unit -> element``: values in [0, 1] of ``shape`` mapped onto the box, per component, respecting (un)bounded
    sides and the dtype. What depends on the space alone is worked out once, here: a rollout's tail maps every
    action through it, and for a small box those fixed parts were most of the cost."""
    dtype = np.dtype(space.dtype)
    low = np.broadcast_to(np.asarray(space.low, dtype=np.float64), shape)
    high = np.broadcast_to(np.asarray(space.high, dtype=np.float64), shape)
    low_t, high_t = np.asarray(space.low, dtype=dtype), np.asarray(space.high, dtype=dtype)
    if dtype.kind == "b":
        return lambda unit: np.asarray(unit > 0.5, dtype=dtype)
    low_finite, high_finite = np.isfinite(low), np.isfinite(high)
    finite = low_finite & high_finite
    bounded = bool(finite.all())
    span = high - low + 1.0

    def scale(unit: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        with np.errstate(all="ignore"):
            if dtype.kind in "iu":
                values = np.floor(low + unit * span)
            elif bounded:
                values = low * (1.0 - unit) + high * unit
            else:
                values = np.where(
                    finite,
                    low * (1.0 - unit) + high * unit,
                    np.where(
                        low_finite,
                        low + unit * _UNBOUNDED_SCALE,
                        np.where(high_finite, high - unit * _UNBOUNDED_SCALE, (2.0 * unit - 1.0) * _UNBOUNDED_SCALE),
                    ),
                )
            values = np.clip(values, low, high)
        out = values.astype(dtype)
        # Rounding to a narrower dtype may step just outside a bound; clip again in the target dtype.
        clipped: np.ndarray[Any, Any] = np.clip(out, low_t, high_t)
        return clipped.astype(dtype)

    return scale


def _discrete_value(space: Any, index: int) -> Any:
    dtype = np.dtype(getattr(space, "dtype", None) or np.int64)
    return dtype.type(int(space.start) + index)


def _multidiscrete(unit: np.ndarray[Any, Any], space: Any) -> np.ndarray[Any, Any]:
    nvec = np.asarray(space.nvec)
    start = np.asarray(getattr(space, "start", 0))
    index = np.minimum(np.floor(unit * nvec), nvec - 1)
    values: np.ndarray[Any, Any] = (start + index).astype(np.dtype(space.dtype or np.int64))
    return values


def _alphabet(space: Any) -> str:
    chars = getattr(space, "character_set", None) or getattr(space, "characters", None) or ""
    return "".join(sorted(str(char) for char in chars))


# --- Hypothesis strategies --------------------------------------------------------------------------------------


def _seeded_sample(space: Any, seed: int) -> Any:
    try:
        private = _tracked("copy.deepcopy(space)", lambda: copy.deepcopy(space), "deepcopy")
        _tracked("space.seed()", lambda: private.seed(seed), "seed")
        return _tracked("space.sample()", private.sample, "sample")
    except Exception as exc:  # noqa: BLE001 - no way to draw elements: the rule cannot be checked
        raise NotCheckable(
            f"cannot draw elements of {type(space).__name__}: neither its structure nor seed()/sample() work "
            f"({type(exc).__name__}: {exc}; reported by the SPACE rules)"
        ) from exc


def _contains(space: Any, value: Any) -> bool:
    try:
        return _tracked("space.contains()", lambda: bool(space.contains(value)), "contains")
    except Exception:  # noqa: BLE001 - a contains that raises accepts nothing
        return False


def _structural(space: Any) -> _Strategy | None:
    kind = space_kind(space)
    if kind == "box":
        shape = tuple(space.shape)
        return hnp.arrays(np.float64, shape, elements=st.floats(0.0, 1.0)).map(_box_scaler(space, shape))
    if kind == "discrete":
        if getattr(space, "shape", ()) not in ((), None):
            return None  # a Discrete-like space with a shape (SPACE-015): only its own sampler knows its elements
        return st.integers(0, int(space.n) - 1).map(lambda i: _discrete_value(space, i))
    if kind == "multidiscrete":
        shape = tuple(np.shape(space.nvec))
        return hnp.arrays(np.float64, shape, elements=st.floats(0.0, 1.0, exclude_max=True)).map(
            lambda u: _multidiscrete(u, space)
        )
    if kind == "multibinary":
        return hnp.arrays(np.dtype(space.dtype), tuple(space.shape), elements=st.integers(0, 1))
    if kind == "dict":
        return st.fixed_dictionaries({key: elements(sub) for key, sub in space.spaces.items()})
    if kind == "tuple":
        return st.tuples(*(elements(sub) for sub in space.spaces))
    if kind == "oneof":
        subs = list(space.spaces)
        return st.integers(0, len(subs) - 1).flatmap(lambda i: elements(subs[i]).map(lambda v: (np.int64(i), v)))
    if kind == "text":
        alphabet = _alphabet(space)
        low = int(space.min_length)
        high = min(int(space.max_length), low + _MAX_TEXT)
        return st.text(alphabet=st.sampled_from(alphabet), min_size=low, max_size=high) if alphabet else None
    if kind == "sequence" and not getattr(space, "stack", False):
        return st.lists(elements(space.feature_space), max_size=_MAX_SEQUENCE).map(tuple)
    return None


def elements(space: Any) -> _Strategy:
    """A strategy for elements of ``space``, derived from its structure.

    Args:
        space: Any space-like object (``contains`` and, for the fallback, ``seed``/``sample`` are used).

    Returns:
        A strategy whose values the space accepts (as far as its ``contains`` says), shrinking towards the
        "first" element; values the space rejects are replaced by a seeded ``sample()`` of a private copy.
    """
    fallback = seeds().map(lambda seed: _seeded_sample(space, seed))
    try:
        structural = _structural(space)
    except Exception:  # noqa: BLE001 - malformed attributes: rely on the space's own sampler
        structural = None
    if structural is None:
        return fallback
    return _accepted(structural, space)


@st.composite
def _accepted(draw: st.DrawFn, structural: _Strategy, space: Any) -> Any:
    """A structural draw the space accepts, or else a seeded ``sample()``. The fallback seed is only drawn when
    needed, so shrinking has half as many choices to work through. (Not a ``flatmap``: that builds and validates a
    new strategy for every value drawn, which cost more than the rest of a plan's draw.)"""
    value = draw(structural)
    if _contains(space, value):
        return value
    return _seeded_sample(space, draw(seeds()))


# --- fast samplers for rollout tails ----------------------------------------------------------------------------


def _structural_sampler(space: Any) -> Sampler | None:
    kind = space_kind(space)
    if kind == "box":
        shape = tuple(space.shape)
        scale = _box_scaler(space, shape)
        return lambda rng: scale(rng.random(shape))
    if kind == "discrete" and getattr(space, "shape", ()) in ((), None):
        return lambda rng: _discrete_value(space, int(rng.integers(int(space.n))))
    if kind == "multidiscrete":
        shape = tuple(np.shape(space.nvec))
        return lambda rng: _multidiscrete(rng.random(shape), space)
    if kind == "multibinary":
        return lambda rng: rng.integers(0, 2, tuple(space.shape)).astype(np.dtype(space.dtype))
    if kind == "dict":
        parts = {key: sampler(sub) for key, sub in space.spaces.items()}
        return lambda rng: {key: part(rng) for key, part in parts.items()}
    if kind == "tuple":
        items = [sampler(sub) for sub in space.spaces]
        return lambda rng: tuple(item(rng) for item in items)
    if kind == "oneof":
        options = [sampler(sub) for sub in space.spaces]

        def one_of(rng: np.random.Generator) -> Any:
            index = int(rng.integers(len(options)))
            return (np.int64(index), options[index](rng))

        return one_of
    if kind == "text" and _alphabet(space):
        alphabet = _alphabet(space)
        low, high = int(space.min_length), min(int(space.max_length), int(space.min_length) + _MAX_TEXT)
        return lambda rng: "".join(alphabet[i] for i in rng.integers(len(alphabet), size=rng.integers(low, high + 1)))
    if kind == "sequence" and not getattr(space, "stack", False):
        feature = sampler(space.feature_space)
        return lambda rng: tuple(feature(rng) for _ in range(int(rng.integers(_MAX_SEQUENCE + 1))))
    return None


def sampler(space: Any) -> Sampler:
    """A fast sampler ``rng -> element`` with the same structure (and fallback) as :func:`elements`."""
    try:
        structural = _structural_sampler(space)
    except Exception:  # noqa: BLE001
        structural = None

    def sample(rng: np.random.Generator) -> Any:
        if structural is not None:
            value = structural(rng)
            if _contains(space, value):
                return value
        return _seeded_sample(space, int(rng.integers(SEED_MAX)))

    return sample


# --- rollout plans ------------------------------------------------------------------------------------------------


class Actions(list[Any]):
    """A plan's actions: a list that can grow by more actions of the same seeded stream (:meth:`more`), for a
    rollout driven past its plan to the episode ends its rule is about
    (:meth:`~conformance._engine.evidence.Tally.wants_more`). Every instance of an example shares one list, so a
    second instance replays exactly the actions the first one took."""

    def __init__(self, actions: list[Any], tail: Sampler, rng: np.random.Generator, *, salt: int = 0,
                 offset: int = 0) -> None:
        super().__init__(actions)
        self._tail = tail
        self._rng = rng
        self._salt = salt
        self._offset = offset

    @classmethod
    def drawn(cls, tail: Sampler, seed: int, count: int) -> Actions:
        """``count`` actions of ``tail``'s stream from ``seed`` (a check's own rollout, outside a plan)."""
        rng = np.random.default_rng(seed)
        return cls([tail(rng) for _ in range(count)], tail, rng, salt=seed)

    @overload
    def __getitem__(self, index: SupportsIndex) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> Actions: ...

    def __getitem__(self, index: SupportsIndex | slice) -> Any:
        # A slice is a plan's actions too (its stream goes on, and may replace an action the env rejects).
        found = super().__getitem__(index)
        if not isinstance(index, slice):
            return found
        start = index.indices(len(self))[0]
        return Actions(found, self._tail, self._rng, salt=self._salt, offset=self._offset + start)

    def more(self, count: int = 1) -> None:
        """Append ``count`` actions from the plan's sampler (the stream its tail was drawn from, continued)."""
        for _ in range(count):
            self.append(self._tail(self._rng))

    def replace(self, index: int, attempt: int) -> None:
        """Put another action in place of action ``index`` (one the env rejects), the same one for every instance
        and every slice of the plan that meets it there (drawn from the plan's seed, the position and ``attempt``)."""
        self[index] = self._tail(np.random.default_rng([self._salt, self._offset + index, attempt]))


@dataclass(frozen=True)
class Plan:
    """A seeded rollout: reset with ``seed``, then ``length`` actions (across episode ends).

    Attributes:
        seed: The seed of the first reset.
        prefix: The leading actions, drawn (and shrunk) by Hypothesis.
        length: The total number of actions.
        tail_seed: Seeds the sampler that supplies the actions after the prefix.
    """

    seed: int
    prefix: tuple[Any, ...]
    length: int
    tail_seed: int
    tail: Sampler = field(repr=False, compare=False)

    def actions(self) -> Actions:
        """The full action list (build it once per example and reuse it for every instance)."""
        actions = list(self.prefix[: self.length])
        rng = np.random.default_rng(self.tail_seed)
        while len(actions) < self.length:
            actions.append(self.tail(rng))
        return Actions(actions, self.tail, rng, salt=self.tail_seed)


def plans(space: Any, profile: Profile, *, max_steps: int | None = None) -> st.SearchStrategy[Plan]:
    """Rollout plans whose actions are elements of ``space`` (an action space).

    Args:
        space: The action space.
        profile: Supplies the longest rollout and how many leading actions Hypothesis draws itself.
        max_steps: Overrides the profile's rollout length.

    Returns:
        A strategy of :class:`Plan`; shrinking shortens the rollout and simplifies its leading actions. Its first
        example is a plan of the whole length (:func:`~conformance._engine.profiles.full_first`), not the empty one
        Hypothesis would try first: an item that can afford one example sees a whole rollout.
    """
    steps = profile.max_steps if max_steps is None else max_steps
    # The length is the first choice, so the full first example is named by it alone.
    return full_first(_plan_of(space, profile, steps), (steps,))


def plan_tuples(spaces: Sequence[Any], profile: Profile, *, max_steps: int) -> st.SearchStrategy[tuple[Plan, ...]]:
    """One plan per space (the action spaces of a wrapper's layers, say), every one of length up to ``max_steps``:
    the lengths are drawn first, so the full first example is a full plan for each."""
    rests = [_plan_rest(space, profile, max_steps) for space in spaces]
    lengths = st.tuples(*(st.integers(0, max_steps) for _ in spaces))
    return full_first(_plans_of(lengths, tuple(rests)), (max_steps,) * len(rests))


_Rest: TypeAlias = "tuple[st.SearchStrategy[tuple[int, tuple[Any, ...], int]], Sampler]"


def _plan_rest(space: Any, profile: Profile, steps: int) -> _Rest:
    """What a plan over ``space`` draws after its length (its seed, leading actions up to the profile's prefix,
    tail seed), and the sampler of its tail."""
    prefix = st.lists(elements(space), max_size=min(profile.max_prefix, steps)).map(tuple)
    return st.tuples(seeds(), prefix, seeds()), sampler(space)


def _plan_of(space: Any, profile: Profile, steps: int) -> st.SearchStrategy[Plan]:
    """Plans over ``space``: the length first (up to ``steps``), then what :func:`_plan_rest` draws."""
    rest, tail = _plan_rest(space, profile, steps)

    def plan(drawn: tuple[int, tuple[int, tuple[Any, ...], int]]) -> Plan:
        length, (seed, prefix, tail_seed) = drawn
        return Plan(seed=seed, prefix=prefix, length=length, tail_seed=tail_seed, tail=tail)

    # Plain tuples, not a flatmap over the length: the choices are the same (length, seed, leading actions, tail
    # seed), without a new strategy to build and validate for every plan drawn.
    return st.tuples(st.integers(0, steps), rest).map(plan)


@st.composite
def _plans_of(
    draw: st.DrawFn, lengths: st.SearchStrategy[tuple[int, ...]], rests: tuple[_Rest, ...]
) -> tuple[Plan, ...]:
    """One plan per ``rests`` entry: every length first, then each plan's other choices in turn."""
    drawn = draw(lengths)
    plans_drawn: list[Plan] = []
    for length, (rest, tail) in zip(drawn, rests):
        seed, prefix, tail_seed = draw(rest)
        plans_drawn.append(Plan(seed=seed, prefix=prefix, length=length, tail_seed=tail_seed, tail=tail))
    return tuple(plans_drawn)
