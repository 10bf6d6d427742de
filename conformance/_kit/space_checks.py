"""Helpers of the SPACE checks: every (sub)space of a target's spaces, recorded copies, sample comparisons."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from conformance._engine.case import Case
from conformance._engine.describe import summarize
from conformance._engine.handles import Handle
from conformance._engine.record import returned
from conformance._kit.assertions import deep_copy
from conformance._kit.expectations import Equal
from conformance._kit.strategies import seeds, space_kind, subspaces
from conformance.equality import difference

__all__ = [
    "SAMPLES",
    "candidates",
    "compare_samples",
    "draw_samples",
    "global_states",
    "per_space",
    "per_space_seeded",
    "require_kind",
    "space_copy",
    "spaces_of",
    "varies_with_seed",
]

SAMPLES = 5


def spaces_of(case: Case, kinds: Sequence[str] | None = None) -> list[tuple[str, Any]]:
    """``(expression, space)`` for both spaces of a fresh env and all their subspaces (optionally of some kinds).

    The spaces are the probe's (:meth:`Case.probed`): the checks only read them, and seed and sample copies
    (:func:`space_copy`).
    """
    probe = case.probed()
    found: list[tuple[str, Any]] = []
    for name, root in (("action_space", probe.action_space), ("observation_space", probe.observation_space)):
        if name in probe.errors:
            case.not_checkable(f"env.{name} raised {probe.errors[name]} (reported by ENV-001)")
        for path, space in subspaces(root):
            if kinds is None or space_kind(space) in kinds:
                found.append((f"env.{name}{path}", space))
    return found


def require_kind(case: Case, kinds: Sequence[str], label: str) -> None:
    probe = case.probe()
    roots = [probe.action_space, probe.observation_space]
    present = any(space_kind(sub) in kinds for root in roots if root is not None for _, sub in subspaces(root))
    case.require(present, f"neither space has a {label} (sub)space")


def space_copy(case: Case, space: Any, expression: str, var: str = "space", *, copied: bool = True) -> Handle:
    """A recorded deep copy of ``space`` (the target's own spaces are never re-seeded)."""
    obj = deep_copy(case, space, expression) if copied else space
    return case.wrap(obj, var, f"copy.deepcopy({expression})" if copied else expression, imports=("import copy",))


def draw_samples(space: Handle, count: int = SAMPLES) -> list[Any]:
    return [space.call("sample") for _ in range(count)]


def compare_samples(
    case: Case, label: str, expected: list[Any], actual: list[Any], problem: str, variables: tuple[str, str]
) -> None:
    """Fail with ``problem`` at the first sample that differs; the reproducer ends by comparing the latest samples
    of the two ``variables`` (the space copies that drew ``expected`` and ``actual``, last)."""
    for index, (a, b) in enumerate(zip(expected, actual)):
        found = difference(a, b, f"sample {index}")
        if found is not None:
            first, second = variables
            count = min(len(expected), len(actual))
            case.fail(f"{label}: {problem} ({found})", expected=summarize(a), actual=summarize(b),
                      assertion=Equal(f"{returned(first, 'sample')}[-{count}:]",
                                      f"{returned(second, 'sample')}[-{count}:]", problem=f"{label}: {problem}"))


def per_space(case: Case, check: Callable[[str, Any], None], *, kinds: Sequence[str] | None = None) -> None:
    def body() -> None:
        for expression, space in spaces_of(case, kinds):
            check(expression, space)

    case.once(body)


def per_space_seeded(case: Case, check: Callable[[str, Any, int], None], *, examples: int = 5) -> None:
    def example(seed: int) -> None:
        case.set_seed(seed)
        for expression, space in spaces_of(case):
            check(expression, space, seed)

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, examples))


def varies_with_seed(case: Case, space: Any) -> bool:
    probe = deep_copy(case, space, "the space")
    outcomes: list[list[Any]] = []
    for seed in range(4):
        case.watchdog.call("space.seed", lambda: probe.seed(seed))
        outcomes.append([case.watchdog.call("space.sample", probe.sample) for _ in range(4)])
    return any(difference(outcomes[0], other) is not None for other in outcomes[1:])


def candidates(case: Case, space: Any) -> list[Any]:
    handle = deep_copy(case, space, "the space")
    case.watchdog.call("space.seed", lambda: handle.seed(0))
    values = [case.watchdog.call("space.sample", handle.sample) for _ in range(SAMPLES)]
    kind = space_kind(space)
    if kind == "box":
        values.append(np.asarray(space.high, dtype=np.float64) + 1.0)
        values.append(np.zeros(tuple(space.shape) + (2,), dtype=space.dtype))
    elif kind == "discrete":
        values += [int(space.start) + int(space.n), int(space.start) - 1]
    elif kind in ("multidiscrete", "multibinary"):
        values.append(np.full(tuple(space.shape), 7, dtype=np.int64))
    return values


def global_states() -> tuple[Any, Any]:
    return random.getstate(), np.random.get_state()
