"""Rule-agnostic building blocks the test modules compose: reading attributes, membership, type predicates.

Everything here reads the target through a :class:`~conformance._engine.handles.Handle` or the item's
:class:`~conformance._engine.case.Case`, so each call is recorded, timed, and attributed (a failure to read an
attribute the check depends on stops the item as not checkable, naming the rule that reports it).
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from hypothesis import strategies as st

from conformance._engine.case import Case
from conformance._engine.describe import describe_exception, is_array, is_dict, is_scalar, is_tuple, summarize
from conformance._engine.handles import Handle, TargetError
from conformance._engine.record import returned, snapshot
from conformance._kit.expectations import expect_equal
from conformance._kit.rollout import Comparable, first_difference
from conformance._kit.strategies import Plan, plans, space_kind
from conformance.equality import difference, outside_space

__all__ = [
    "SPACE_MEMBERS",
    "CallResult",
    "compare_rollouts",
    "contains",
    "deep_copy",
    "dtype_shape_problem",
    "expect_same_results",
    "is_finite",
    "is_flag",
    "is_mapping",
    "is_real_scalar",
    "plans_for",
    "read",
    "replay_calls",
    "reproducibility_gate",
    "space_label",
]

SPACE_MEMBERS: tuple[str, ...] = ("shape", "dtype", "np_random", "seed", "sample", "contains", "__contains__")
"""What the ``Space`` protocol requires (ENV-001, SPACE-018)."""


def read(case: Case, obj: Handle, name: str, owner: str = "ENV-001") -> Any:
    """Read ``obj.name``; stop as not checkable (reported by ``owner``) when that fails."""
    try:
        return obj.get(name)
    except TargetError as error:
        case.not_checkable(f"{error} (reported by {owner})")


def contains(case: Case, space: Any, value: Any, name: str = "value") -> tuple[bool, str]:
    """Ask ``space.contains(value)`` under the watchdog.

    Returns:
        ``(answer, note)``; a ``contains`` that raises answers ``False`` with the exception as the note; a plain
        ``False`` gets the reason when one is found (:func:`conformance.equality.outside_space`: the broken bound at
        its index, the dtype, the key path), naming the value ``name``.
    """
    try:
        answer = case.watchdog.call("space.contains", lambda: space.contains(value))
    except Exception as exc:  # noqa: BLE001 - a raising membership test is a "no" with an explanation
        return False, f" (contains raised {describe_exception(exc)})"
    try:
        inside = bool(answer)
    except Exception as exc:  # noqa: BLE001
        return False, f" (contains returned {summarize(answer)}, which has no truth value: {exc})"
    if inside:
        return True, ""
    try:
        why = case.watchdog.call("space.low/high", lambda: outside_space(space, value, name))
    except Exception:  # noqa: BLE001 - no reason found: the plain answer stands
        why = None
    return False, "" if why is None else f" ({why})"


def space_label(space: Any) -> str:
    """A one-line description of a space for messages."""
    text = repr(space)
    return text if len(text) <= 120 else text[:117] + "..."


def is_real_scalar(value: Any) -> bool:
    """A Python int/float or a NumPy integer/floating scalar, but not a bool of either kind (ENV-011)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    return isinstance(value, (int, float, np.integer, np.floating))


def is_finite(value: Any) -> bool:
    """Whether a real scalar is finite (values that are not real scalars count as finite; ENV-011 reports them)."""
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError, OverflowError):
        return True


def is_flag(value: Any) -> bool:
    """``bool`` or ``numpy.bool_`` (ENV-013, ENV-014)."""
    return isinstance(value, (bool, np.bool_))


def deep_copy(case: Case, value: Any, what: str) -> Any:
    """``copy.deepcopy(value)``, or stop as not checkable (SPACE-001 reports spaces that cannot be copied)."""
    try:
        return copy.deepcopy(value)
    except Exception as exc:  # noqa: BLE001
        case.not_checkable(f"{what} cannot be deep-copied ({describe_exception(exc)}; reported by SPACE-001)")


def plans_for(case: Case, *, max_steps: int | None = None) -> st.SearchStrategy[Plan]:
    """Rollout plans over the target's action space; not checkable without a usable one (ENV-001)."""
    space = case.probe().action_space
    if space is None:
        case.not_checkable("the target has no action_space (reported by ENV-001)")
    return plans(space, case.profile, max_steps=max_steps)


def is_mapping(value: Any) -> bool:
    """A ``collections.abc.Mapping``, or an object with the mapping methods (duck-typed)."""
    if isinstance(value, Mapping):
        return True
    return all(callable(getattr(value, name, None)) for name in ("keys", "__getitem__", "items", "get"))


def dtype_shape_problem(space: Any, value: Any, path: str = "observation") -> str | None:
    """Where an array (or NumPy scalar) inside ``value`` differs in dtype or shape from what ``space`` declares.

    Dict- and Tuple-like spaces are followed into their subspaces; Python scalars are not arrays and pass.
    """
    kind = space_kind(space)
    if kind == "dict" and is_dict(value):
        for key, sub in space.spaces.items():
            found = dtype_shape_problem(sub, value.get(key), f"{path}[{key!r}]") if key in value else None
            if found:
                return found
        return None
    if kind == "tuple" and is_tuple(value):
        for index, (sub, item) in enumerate(zip(space.spaces, value)):
            found = dtype_shape_problem(sub, item, f"{path}[{index}]")
            if found:
                return found
        return None
    dtype, shape = getattr(space, "dtype", None), getattr(space, "shape", None)
    if is_array(value) or is_scalar(value):
        if dtype is not None and value.dtype != np.dtype(dtype):
            return f"{path} has dtype {value.dtype}, the space declares {np.dtype(dtype)}"
        if shape is not None and tuple(value.shape) != tuple(shape):
            return f"{path} has shape {value.shape}, the space declares {tuple(shape)}"
    return None


def reproducibility_gate(
    case: Case, baseline: Callable[[], Sequence[Comparable]], first: Sequence[Comparable], *, vector: bool = False
) -> None:
    """The root-cause gate of every rule that compares a baseline with an intervention (global generators, space
    sampling, rendering, wrapping, vectorizing): before a difference is blamed on the intervention, the baseline
    must reproduce itself — the same construction and the same calls, made again.

    When it does not, the item stops as not checkable, naming the rule that reports the cause: SEED-008 when the
    baseline reproduces once the global generators are pinned (the target reads them), SEED-001 otherwise (a seed
    ignored, OS entropy); that rule fails on such a target, so the run fails once, on the cause. For a vector env
    the cause is reported by VEC-008 (two fresh instances with the same seed and actions diverge).

    Args:
        case: The item.
        baseline: Builds a fresh instance and makes the baseline's calls again, returning its rollout.
        first: The baseline's rollout as the rule made it.
        vector: Whether the target is a vector env.
    """
    if case.probe().nondeterministic:
        # Declared nondeterministic: no baseline to establish. Rules that compare exactly skip such a target before
        # they get here; what reaches the gate is a structural finding (the autoreset model's without env_fns).
        return
    # Made again twice: a target whose results are random among a few values (a Discrete(3) sample in its info)
    # matches itself once by chance too often to be called reproducible.
    found = first_difference(first, baseline()) or first_difference(first, baseline())
    if found is None:
        return
    index, what = found
    if vector:
        case.not_checkable(
            f"the target is not reproducible — see VEC-008: the same construction and calls, made twice, differ at "
            f"position {index} ({what}), so a difference cannot be blamed on {case.rule.id}'s intervention"
        )
    pinned: list[Sequence[Comparable]] = []
    saved = random.getstate(), np.random.get_state()
    try:
        for _ in range(3):  # three, for the reason above: a chance match must not make the cause SEED-008
            np.random.seed(0)
            random.seed(0)
            pinned.append(baseline())
    finally:
        random.setstate(saved[0])
        np.random.set_state(saved[1])
    reproduces = all(first_difference(pinned[0], other) is None for other in pinned[1:])
    see = "SEED-008" if reproduces else "SEED-001"
    case.not_checkable(
        f"the target is not reproducible — see {see}: the same construction and calls, made twice, differ at "
        f"position {index} ({what}), so a difference cannot be blamed on {case.rule.id}'s intervention"
    )


@dataclass(frozen=True)
class CallResult:
    """What one call of a recorded program returned (or what it raised), comparable by
    :func:`~conformance._kit.rollout.first_difference`: the baseline of :func:`reproducibility_gate` for a check
    that drives its target through arbitrary calls (a state machine) rather than a rollout.

    Attributes:
        kind: The method called.
        result: A snapshot of what it returned, or ``"raised <exception>"``.
    """

    kind: str
    result: Any

    FIELDS: ClassVar[tuple[str, ...]] = ("result",)

    def values(self) -> tuple[Any, ...]:
        """The compared part."""
        return (self.result,)


def call_result(env: Handle, method: str, *args: Any, **kwargs: Any) -> CallResult:
    """Make one call on ``env`` and keep what it returned or raised (unrecorded: the gate's replays are not part of
    the reproducer)."""
    try:
        return CallResult(method, snapshot(env.call(method, *args, record=False, **kwargs)))
    except TargetError as error:
        return CallResult(method, f"raised {describe_exception(error.error)}")


def replay_calls(
    make: Callable[[], Handle], calls: Sequence[tuple[str, tuple[Any, ...], Mapping[str, Any]]]
) -> list[CallResult]:
    """A fresh instance from ``make``, then the same ``(method, args, kwargs)`` calls: the baseline of a program for
    :func:`reproducibility_gate`."""
    env = make()
    return [call_result(env, method, *args, **kwargs) for method, args, kwargs in calls]


def _common_calls(a: Sequence[Comparable], b: Sequence[Comparable]) -> int:
    """How many leading records of two rollouts come from the same kinds of calls (a reset's argument too: a vector
    env's ``reset_mask``). Steps take the plan's actions in order, so the same kinds mean the same actions, unless
    the check changed some on purpose (AUTORESET-003), which the comparison is about."""
    count = 0
    for x, y in zip(a, b):
        if x.kind != y.kind:
            break
        if x.kind != "step" and difference(getattr(x, "action", getattr(x, "arg", None)),
                                           getattr(y, "action", getattr(y, "arg", None))) is not None:
            break
        count += 1
    return count


def expect_same_results(
    case: Case, variables: tuple[str, str], a: Sequence[Comparable], b: Sequence[Comparable], problem: str
) -> None:
    """End the reproducer with the comparison of two rollouts' results: the latest ``len(a)`` calls on the first
    variable against the latest ``len(b)`` on the second (one variable: the rollouts follow each other on it).

    Only the calls both rollouts made alike are compared: a rollout resets when an episode ends, so after the first
    difference the two may make different calls, whose results differ on a correct target too; the first
    difference always comes before the calls part.
    """
    first, second = variables
    if not (first.isidentifier() and second.isidentifier()):
        return
    n_a, n_b = len(a), len(b)
    # The rollouts are the latest calls on their instances (an instance may have a history before its rollout).
    if first == second:
        left, right = f"{returned(first)}[-{n_a + n_b}:-{n_b}]", f"{returned(first)}[-{n_b}:]"
    else:
        left, right = f"{returned(first)}[-{n_a}:]", f"{returned(second)}[-{n_b}:]"
    common = _common_calls(a, b)
    if common < min(n_a, n_b):
        left, right = f"{left}[:{common}]", f"{right}[:{common}]"
    expect_equal(case, left, right, problem)


def compare_rollouts(
    case: Case,
    a: Sequence[Comparable],
    b: Sequence[Comparable],
    problem: str,
    names: tuple[str, str],
    *,
    baseline: Callable[[], Sequence[Comparable]] | None = None,
    vector: bool = False,
    variables: tuple[str, str] | None = None,
) -> None:
    """Fail with ``problem`` at the first position where two rollouts (single or vector) differ.

    Args:
        case: The item.
        a: The expected rollout.
        b: The rollout under check.
        problem: What a difference means, e.g. ``"reset(seed=s) does not replay the episode"``.
        names: How the message names the two rollouts.
        baseline: For a rule that compares a baseline ``a`` with an intervention ``b``: makes ``a`` again (see
            :func:`reproducibility_gate`, applied before a difference is reported).
        vector: Whether the target is a vector env (for the gate).
        variables: The reproducer's variables of the two instances (default: ``names``, when they are variables;
            one variable for both: the rollouts follow each other on it); the reproducer then ends by comparing
            what their ``reset``/``step`` calls returned.
    """
    found = first_difference(a, b)
    if found is None:
        return
    if baseline is not None:
        reproducibility_gate(case, baseline, a, vector=vector)
    index, what = found
    expect_same_results(case, variables or names, a, b, problem)
    left = summarize(a[index].values()) if index < len(a) else "(ended)"
    right = summarize(b[index].values()) if index < len(b) else "(ended)"
    case.fail(f"{problem}: position {index} differs ({what})", expected=f"{names[0]}: {left}",
              actual=f"{names[1]}: {right}")
