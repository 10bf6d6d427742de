"""Effort profiles: how many Hypothesis examples each rule gets and how long its rollouts are.

The profile is applied through explicit :class:`hypothesis.settings` objects built here, never by registering or
loading a global Hypothesis profile, so importing or running the suite leaves Hypothesis' global state untouched.

**The first example is a full one.** Hypothesis' first example is the simplest its strategies can draw: a rollout
plan of no actions. An item of a costly target may get a single example, so that would be all it saw (a pass on
zero steps). A strategy that knows its fullest example (:func:`full_first`: a plan of the profile's whole rollout
length) has it run first instead (:func:`given_under`): it is handed to Hypothesis as a saved example to *reuse*,
which Hypothesis replays before it generates, and shrinks like any example it found when it fails.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.database import ExampleDatabase, choices_to_bytes

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES",
    "Costs",
    "Profile",
    "demand",
    "first_choices",
    "full_first",
    "given_under",
    "hypothesis_settings",
    "scaled",
]


@dataclass(frozen=True)
class Profile:
    """How much effort each (rule, target) item gets, and the time budget of a target.

    A profile is a budget: its example counts and rollout lengths are what a cheap target gets; a target whose
    steps, resets or constructions are costly gets fewer and shorter ones (:func:`scaled`), never fewer than the
    floors, so the whole target stays near ``budget`` seconds of target time.

    Attributes:
        name: ``quick``, ``default`` or ``thorough``.
        max_examples: Hypothesis examples per item.
        max_steps: The longest rollout, in steps, across episode ends.
        max_prefix: How many leading actions of a rollout Hypothesis draws (and shrinks) itself; the rest come
            from a seeded sampler, which keeps long rollouts cheap to generate.
        derandomize: Whether Hypothesis draws the same examples on every run (reproducible verdicts).
        budget: Seconds of target time (constructions, resets, steps) a target's items may spend in all.
        min_examples: The fewest examples an item gets, however costly the target's steps and resets; a target
            whose construction alone takes more than a tenth of ``budget`` gets one (:func:`scaled`).
        min_steps: The shortest rollout, however costly the target: at least the largest step floor of the rules
            (:mod:`conformance._kit.floors`), which a costly target's single full example must reach.
        render_seconds: Seconds of ``render()`` calls a RENDER item may spend beyond the frames it always draws:
            a target whose frames cost more renders fewer of them (:mod:`conformance._kit.frames`).
    """

    name: str
    max_examples: int
    max_steps: int
    max_prefix: int
    derandomize: bool
    budget: float = 30.0
    min_examples: int = 3
    min_steps: int = 20
    render_seconds: float = 3.0


PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", max_examples=5, max_steps=50, max_prefix=10, derandomize=True,
                     budget=10.0, min_examples=2, min_steps=30, render_seconds=1.0),
    "default": Profile("default", max_examples=15, max_steps=200, max_prefix=20, derandomize=True,
                       budget=30.0, min_examples=3, min_steps=30, render_seconds=3.0),
    "thorough": Profile("thorough", max_examples=100, max_steps=1000, max_prefix=50, derandomize=False,
                        budget=300.0, min_examples=20, min_steps=200, render_seconds=30.0),
}


@dataclass(frozen=True)
class Costs:
    """What a target's calls cost, measured in a fresh job (seconds, the suite's own overhead included)."""

    construct: float
    reset: float
    step: float


_ROLLOUTS_PER_EXAMPLE = 2  # a typical intervening rule constructs and resets twice per example
_FLOOR_CONSTRUCTIONS = 10  # a target whose construction costs more than budget / this gets one example per item


def demand(profile: Profile, costs: Costs, items: int) -> float:
    """Seconds of target time ``items`` rollout items would take under ``profile``'s nominal effort."""
    per_example = _ROLLOUTS_PER_EXAMPLE * (costs.construct + costs.reset) + profile.max_steps * costs.step
    return items * profile.max_examples * per_example


def scaled(profile: Profile, costs: Costs, items: int) -> Profile:
    """``profile`` with examples and rollout lengths cut, by one factor, so that ``items`` items of a target with
    ``costs`` fit the budget; never below the floors, never above the profile.

    Cutting both by ``f`` cuts the constructions and resets by ``f`` but the steps by ``f**2``, so ``f`` solves
    ``demand * f * (fixed + (1 - fixed) * f) = budget``, ``fixed`` being the constructions' and resets' share of
    the demand: ``f`` is the square root of ``budget / demand`` when steps dominate (MuJoCo) and ``budget / demand``
    itself when constructions and resets do (ALE reloads its ROM on both), where a square root would leave
    ``sqrt(demand / budget)`` times the budget.
    """
    needed = demand(profile, costs, max(1, items))
    if needed <= profile.budget:
        return profile
    rollouts = _ROLLOUTS_PER_EXAMPLE * (costs.construct + costs.reset)
    fixed = rollouts / (rollouts + profile.max_steps * costs.step)
    ratio = profile.budget / needed
    # The positive root of (1 - fixed) * f**2 + fixed * f - ratio, in the form that stays exact as fixed nears 1.
    factor = 2 * ratio / (fixed + math.sqrt(fixed * fixed + 4 * (1 - fixed) * ratio))
    # A target whose single construction takes a good share of the whole budget (seconds: a benchmark env loading
    # its assets) cannot afford the floor's examples in the rules that need fresh instances in each example (the
    # shelf and recycling serve the others, conformance/_engine/shelf.py): one example each.
    floor = 1 if costs.construct * _FLOOR_CONSTRUCTIONS > profile.budget else profile.min_examples
    examples = max(min(floor, profile.max_examples), math.ceil(profile.max_examples * factor))
    steps = max(min(profile.min_steps, profile.max_steps), int(profile.max_steps * factor))
    return dataclasses.replace(
        profile, max_examples=examples, max_steps=steps, max_prefix=min(profile.max_prefix, steps)
    )


DEFAULT_PROFILE = "default"


_FIRST: weakref.WeakKeyDictionary[st.SearchStrategy[Any], tuple[int, ...]] = weakref.WeakKeyDictionary()
_DERANDOMIZED_SEED = 0  # the fixed seed of a derandomized profile's runs that reuse a first example
_S = TypeVar("_S", bound=st.SearchStrategy[Any])


def full_first(strategy: _S, choices: Iterable[int]) -> _S:
    """Declare ``strategy``'s fullest example: the leading integer choices that draw it (a plan's length first).

    Returns:
        ``strategy`` itself, known to :func:`first_choices` from now on.
    """
    _FIRST[strategy] = tuple(choices)
    return strategy


def first_choices(strategy: st.SearchStrategy[Any]) -> tuple[int, ...] | None:
    """The choices :func:`full_first` declared for ``strategy`` (``None``: its simplest example comes first)."""
    return _FIRST.get(strategy)


class _FirstExample(ExampleDatabase):
    """An example database that holds one saved example, the full first one, for whichever test asks: Hypothesis
    replays it first (its *reuse* phase), then generates, and shrinks whichever fails. Nothing is written."""

    def __init__(self, choices: tuple[int, ...]) -> None:
        super().__init__()
        self._saved: bytes | None = choices_to_bytes(choices)

    def fetch(self, key: bytes) -> Iterable[bytes]:
        # Only the primary corpus: the secondary and pareto ones (keys with a suffix) stay empty.
        if self._saved is not None and not key.endswith((b".secondary", b".pareto")):
            yield self._saved

    def save(self, key: bytes, value: bytes) -> None:
        del key, value

    def delete(self, key: bytes, value: bytes) -> None:
        if value == self._saved and not key.endswith((b".secondary", b".pareto")):
            self._saved = None  # replayed and passed: not offered again

    def move(self, src: bytes, dest: bytes, value: bytes) -> None:
        del src, dest, value

    def __repr__(self) -> str:
        return "_FirstExample()"


_T = TypeVar("_T")


def given_under(
    profile: Profile, strategy: st.SearchStrategy[_T], *, max_examples: int | None = None,
    first: tuple[int, ...] | None = None,
) -> Callable[[Callable[[_T], None]], Callable[[], None]]:
    """``@given(strategy)`` under ``profile``'s settings, with ``first`` (leading integer choices, e.g. a plan's full
    length) as the first example when given: reused before anything is generated, shrunk if it fails.

    A derandomized profile stays deterministic: Hypothesis does not allow a database beside ``derandomize``, so the
    run is seeded with a fixed seed instead, which draws the same examples on every run (and, unlike derandomizing,
    whatever the test's source).
    """

    def decorate(test: Callable[[_T], None]) -> Callable[[], None]:
        run: Callable[[], None] = given(strategy)(test)
        if first is not None and profile.derandomize:
            # Seeded before the settings are applied: seed() drops the database of the settings it finds.
            run = seed(_DERANDOMIZED_SEED)(run)
        chosen: Callable[[], None] = hypothesis_settings(profile, max_examples=max_examples, first=first)(run)
        return chosen

    return decorate


def hypothesis_settings(
    profile: Profile, *, max_examples: int | None = None, first: tuple[int, ...] | None = None
) -> settings:
    """Build the Hypothesis settings for one item.

    Args:
        profile: The effort profile.
        max_examples: Overrides the profile's example count (for checks that are costly per example).
        first: The leading choices of the example to run first (:func:`given_under`).

    Returns:
        Settings with no deadline, no example database that writes (the suite writes nothing into the user's
        directory; the zygotes keep Hypothesis' cache of local constants in the user's cache directory; ``first``
        is offered by a database that only holds it) and a single reported failure per item.
    """
    base = _base_settings(profile.max_examples if max_examples is None else max_examples, profile.derandomize)
    if first is None:
        return base
    # The database holding the first example is the run's own (it forgets the example once replayed).
    return settings(base, database=_FirstExample(first), derandomize=False)


@functools.lru_cache(maxsize=64)
def _base_settings(max_examples: int, derandomize: bool) -> settings:
    """The settings of every item with this many examples (built once per process: every item of a target asks)."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        database=None,
        derandomize=derandomize,
        report_multiple_bugs=False,
        print_blob=False,
        # HealthCheck's metaclass leaves __iter__ unannotated (it yields the non-deprecated members).
        suppress_health_check=list(HealthCheck),  # pyright: ignore[reportArgumentType]
        # No "explain" phase: it re-runs the failing example many times to annotate a traceback the suite replaces
        # with its own reproducer anyway.
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    )
