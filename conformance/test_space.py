"""SPACE rules, applied to the target's ``action_space`` and ``observation_space`` and every nested subspace.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np

from conformance._kit.api import (
    FACT, SAMPLES, SPACE_MEMBERS, Case, Equal, Handle, Holds, Member, NoRaise, TargetError, Unequal, candidates,
    checks, compare_samples, contains, describe_exception, difference, draw_samples, global_states, is_array, is_bool,
    is_tuple, per_space, per_space_seeded, require_kind, returned, source, space_copy, space_label, summarize,
    type_name, value_difference, varies_with_seed,
)

_ENTROPY_SAMPLES = 32
_FOREIGN_OBJECT = object()
_FOREIGN: tuple[Any, ...] = (
    None, "conformance", 3.5, -1, (1, 2, 3), [], {}, _FOREIGN_OBJECT, np.zeros((3, 7)), np.array(["x"]),
)  # fmt: skip


@checks("SPACE-001", floor=FACT)
def test_space_equals_its_copies(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any) -> None:
        try:
            duplicate = copy.deepcopy(space)
        except Exception as exc:  # noqa: BLE001
            case.fail(f"copy.deepcopy({expression}) raised", expected="a copy equal to the space",
                      actual=f"{describe_exception(exc)}",
                      assertion=NoRaise(f"copy.deepcopy({expression})"))
        if not bool(case.watchdog.call("space.__eq__", lambda: space == duplicate)):
            case.fail(f"{expression} != copy.deepcopy({expression})", expected="equal", actual=space_label(duplicate),
                      assertion=Holds(f"{expression} == copy.deepcopy({expression})", imports=("import copy",)))
        try:
            restored = pickle.loads(pickle.dumps(space))
        except Exception:  # noqa: BLE001, S301 - not picklable: the rule only asks "where it is picklable"
            return
        if not bool(case.watchdog.call("space.__eq__", lambda: space == restored)):
            case.fail(f"{expression} != its pickled-and-restored copy", expected="equal", actual=space_label(restored),
                      assertion=Holds(f"{expression} == pickle.loads(pickle.dumps({expression}))",
                                      imports=("import pickle",)))

    per_space(case, check)


@checks("SPACE-002", floor=SAMPLES)
def test_pickled_space_samples_alike(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any, seed: int) -> None:
        try:
            restored = pickle.loads(pickle.dumps(space))  # noqa: S301 - the suite pickles its own objects
        except Exception:  # noqa: BLE001
            return
        original = space_copy(case, space, expression, "space")
        copy_ = case.wrap(restored, "restored", "pickle.loads(pickle.dumps(space))", imports=("import pickle",))
        original.call("seed", seed)
        copy_.call("seed", seed)
        compare_samples(
            case, expression, draw_samples(original), draw_samples(copy_), "the pickled copy samples differently",
            ("space", "restored"),
        )

    per_space_seeded(case, check)


@checks("SPACE-003", floor=FACT)
def test_shape_and_dtype_types(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any) -> None:
        shape, dtype = getattr(space, "shape", None), getattr(space, "dtype", None)
        ints = is_tuple(shape) and all(
            isinstance(d, (int, np.integer)) and not isinstance(d, bool) and d >= 0 for d in shape
        )
        if shape is not None and not ints:
            case.fail(f"{expression}.shape is malformed", expected="None or a tuple of non-negative ints",
                      actual=summarize(shape),
                      assertion=Holds(f"isinstance({expression}.shape, tuple) and all(isinstance(d, (int, "
                                      "np.integer)) and not isinstance(d, bool) and d >= 0 for d in "
                                      f"{expression}.shape)",
                                      shown=f"{expression}.shape",
                                      problem=f"{expression}.shape is not a tuple of non-negative ints"))
        if dtype is not None and not isinstance(dtype, np.dtype):
            case.fail(f"{expression}.dtype is not a NumPy dtype", expected="None or a numpy.dtype",
                      actual=f"{type_name(dtype)}: {dtype!r}",
                      assertion=Holds(f"isinstance({expression}.dtype, np.dtype)", shown=f"{expression}.dtype"))

    per_space(case, check)


@checks("SPACE-004", floor=SAMPLES, owns=("seed",))
def test_seeded_sampling_is_reproducible(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any, seed: int) -> None:
        first = space_copy(case, space, expression, "space_a")
        first.call("seed", seed)
        expected = draw_samples(first)
        second = space_copy(case, space, expression, "space_b")
        second.call("seed", seed ^ 1)
        draw_samples(second, 3)  # a different history must not matter after seed(seed)
        second.call("seed", seed)
        compare_samples(case, expression, expected, draw_samples(second), f"samples after seed({seed}) differ",
                        ("space_a", "space_b"))

    per_space_seeded(case, check)


@checks("SPACE-005", floor=SAMPLES)
def test_space_generators_are_per_instance(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any, seed: int) -> None:
        reference = space_copy(case, space, expression, "reference")
        reference.call("seed", seed)
        expected = draw_samples(reference, 4)
        first = space_copy(case, space, expression, "space_a")
        other = space_copy(case, space, expression, "space_b")
        first.call("seed", seed)
        actual = [first.call("sample")]
        other.call("seed", seed ^ 1)
        draw_samples(other, 3)
        actual += draw_samples(first, 3)
        compare_samples(case, expression, expected, actual, "seeding/sampling another instance changed the samples",
                        ("reference", "space_a"))

    per_space_seeded(case, check)


@checks("SPACE-006", floor=SAMPLES)
def test_unseeded_spaces_differ(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any) -> None:
        if not varies_with_seed(case, space):
            return  # a space whose samples do not depend on the seed cannot show entropy seeding
        first = space_copy(case, space, expression, "space_a")
        second = space_copy(case, space, expression, "space_b")
        first.call("seed", None)
        second.call("seed", None)
        # 32 samples: two entropy-seeded copies of a two-element space agree by chance with probability 2**-32.
        a, b = draw_samples(first, _ENTROPY_SAMPLES), draw_samples(second, _ENTROPY_SAMPLES)
        if difference(a, b) is None:
            case.fail(f"{expression}: two copies seeded with None sample identically",
                      expected="different samples (entropy seeding)",
                      actual=f"{_ENTROPY_SAMPLES} identical samples, e.g. {summarize(a[0])}",
                      assertion=Unequal(f"{returned('space_a', 'sample')}[-{_ENTROPY_SAMPLES}:]",
                                        f"{returned('space_b', 'sample')}[-{_ENTROPY_SAMPLES}:]"))

    per_space(case, check)


@checks("SPACE-007", floor=SAMPLES, owns=("sample",))
def test_samples_are_contained(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any, seed: int) -> None:
        handle = space_copy(case, space, expression)
        handle.call("seed", seed)
        samples = draw_samples(handle, 10)
        for index, value in enumerate(samples):
            ok, note = contains(case, handle.raw, value)
            if not ok:
                case.fail(f"{expression}.sample() returned a value its contains() rejects{note}",
                          expected="contains(sample()) is True", actual=summarize(value),
                          assertion=Member(handle.var, f"{returned(handle.var, 'sample')}[{index - len(samples)}]",
                                           problem=f"{expression}.sample() returned a value its contains() rejects"))

    per_space_seeded(case, check)


@checks("SPACE-008", floor=SAMPLES)
def test_sampling_leaves_global_generators_alone(conformance_case: Case) -> None:
    case = conformance_case

    def run_with_globals(handle: Handle, seed: int, global_seed: int) -> list[Any]:
        case.note(f"np.random.seed({global_seed}); random.seed({global_seed})", imports=("import random",))
        np.random.seed(global_seed)
        random.seed(global_seed)
        before = global_states()
        handle.call("seed", seed)
        samples = draw_samples(handle)
        after = global_states()
        if before[0] != after[0] or difference(before[1], after[1]) is not None:
            case.fail(f"{handle.var}.sample() advanced the global random generators",
                      expected="numpy's legacy global generator and random's state unchanged",
                      actual="their state changed",
                      assertion=Holds(f"random.getstate() == random.Random({global_seed}).getstate() and "
                                      f"difference(np.random.get_state(), np.random.RandomState({global_seed})"
                                      ".get_state()) is None",
                                      imports=("from conformance.equality import difference",)))
        return samples

    def check(expression: str, space: Any, seed: int) -> None:
        first = space_copy(case, space, expression, "space_a")
        second = space_copy(case, space, expression, "space_b")
        a = run_with_globals(first, seed, 1)
        b = run_with_globals(second, seed, 2)
        compare_samples(case, expression, a, b, "samples depend on the global random generators",
                        ("space_a", "space_b"))

    per_space_seeded(case, check)


@checks("SPACE-009", floor=SAMPLES)
def test_array_samples_match_dtype_and_shape(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any) -> None:
        dtype, shape = getattr(space, "dtype", None), getattr(space, "shape", None)
        handle = space_copy(case, space, expression)
        handle.call("seed", 0)
        samples = draw_samples(handle)
        for index, value in enumerate(samples):
            if not is_array(value):
                continue
            drawn = f"{returned(handle.var, 'sample')}[{index - len(samples)}]"
            if dtype is not None and value.dtype != dtype:
                case.fail(f"{expression}.sample() has dtype {value.dtype}", expected=f"dtype {dtype}",
                          actual=summarize(value),
                          assertion=Holds(f"{drawn}.dtype == {handle.var}.dtype", shown=f"{drawn}.dtype",
                                          problem=f"{expression}.sample() has another dtype than the space"))
            if shape is not None and value.shape != tuple(shape):
                case.fail(f"{expression}.sample() has shape {value.shape}", expected=f"shape {tuple(shape)}",
                          actual=summarize(value),
                          assertion=Holds(f"{drawn}.shape == tuple({handle.var}.shape)", shown=f"{drawn}.shape",
                                          problem=f"{expression}.sample() has another shape than the space"))

    per_space(case, check)


@checks("SPACE-010", floor=SAMPLES)
def test_contains_returns_bool_agreeing_with_in(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any) -> None:
        for value in candidates(case, space):
            try:
                answer = case.watchdog.call("space.contains", lambda: space.contains(value))
                membership = case.watchdog.call("space.__contains__", lambda: value in space)
            except Exception:  # noqa: BLE001, S112 - raising on odd values is SPACE-011's subject
                continue
            if not is_bool(answer):
                case.fail(f"{expression}.contains({summarize(value)}) returned {type_name(answer)}",
                          expected="bool or numpy.bool_", actual=summarize(answer),
                          assertion=Holds(f"isinstance({expression}.contains({source(value)}), (bool, np.bool_))",
                                          shown=f"{expression}.contains({source(value)})",
                                          problem=f"{expression}.contains(x) does not return a bool"))
            if bool(answer) != bool(membership):
                case.fail(f"{expression}.contains(x) and `x in {expression}` disagree", expected=f"both {bool(answer)}",
                          actual=f"contains={answer!r}, in={membership!r}; x={summarize(value)}",
                          assertion=Holds(f"bool({expression}.contains({source(value)})) == ({source(value)} in "
                                          f"{expression})"))

    per_space(case, check)


@checks("SPACE-011", floor=SAMPLES)
def test_contains_tolerates_foreign_values(conformance_case: Case) -> None:
    case = conformance_case

    def check(expression: str, space: Any) -> None:
        for value in _FOREIGN:
            try:
                case.watchdog.call("space.contains", lambda: space.contains(value))
            except Exception as exc:  # noqa: BLE001
                literal = "object()" if value is _FOREIGN_OBJECT else source(value)  # the one without a literal
                case.fail(f"{expression}.contains({summarize(value)}) raised {describe_exception(exc)}",
                          expected="False", actual=f"{describe_exception(exc)}",
                          assertion=NoRaise(f"{expression}.contains({literal})",
                                            problem=f"{expression}.contains(x) raised on a value that is not an "
                                                    "element"))

    per_space(case, check)


@checks("SPACE-012", floor=SAMPLES)
def test_jsonable_round_trip(conformance_case: Case) -> None:
    case = conformance_case
    probe = case.probe()
    roots = [root for root in (probe.action_space, probe.observation_space) if root is not None]
    case.require(
        any(hasattr(root, "to_jsonable") and hasattr(root, "from_jsonable") for root in roots),
        "neither space has to_jsonable/from_jsonable",
    )

    def check(expression: str, space: Any, seed: int) -> None:
        if not (hasattr(space, "to_jsonable") and hasattr(space, "from_jsonable")):
            return
        handle = space_copy(case, space, expression)
        handle.call("seed", seed)
        samples = draw_samples(handle, 3)
        # Unrecorded: the reproducer's assertion makes the round trip itself (a fixed space neither raises there nor
        # gives other values back).
        drawn = f"{returned(handle.var, 'sample')}[-{len(samples)}:]"
        round_trip = f"{handle.var}.from_jsonable({handle.var}.to_jsonable({drawn}))"
        try:
            jsonable = handle.call("to_jsonable", samples, record=False)
            restored = handle.call("from_jsonable", jsonable, record=False)
        except TargetError as error:
            case.fail(f"{error}", expected="a round trip without error", actual=str(error.error),
                      assertion=NoRaise(round_trip,
                                        problem=f"{expression}: from_jsonable(to_jsonable(samples)) raised"))
        found = value_difference(list(samples), list(restored), "samples")
        if found is not None:
            case.fail(f"{expression}: from_jsonable(to_jsonable(samples)) differs ({found})",
                      expected=summarize(samples), actual=summarize(restored),
                      assertion=Equal(f"list({drawn})", f"list({round_trip})", exact=False,
                                      problem=f"{expression}: from_jsonable(to_jsonable(samples)) differs"))

    per_space_seeded(case, check, examples=3)


@checks("SPACE-013", floor=FACT)
def test_box_bounds(conformance_case: Case) -> None:
    case = conformance_case
    require_kind(case, ("box",), "Box-like")

    def check(expression: str, space: Any) -> None:
        low, high, shape = space.low, space.high, tuple(space.shape)
        for name, bound in (("low", low), ("high", high)):
            if not is_array(bound) or bound.shape != shape:
                case.fail(f"{expression}.{name} is not an array of the space's shape",
                          expected=f"ndarray of shape {shape}", actual=summarize(bound),
                          assertion=Holds(f"isinstance({expression}.{name}, np.ndarray) and "
                                          f"{expression}.{name}.shape == tuple({expression}.shape)",
                                          shown=f"{expression}.{name}"))
        with np.errstate(invalid="ignore"):
            ordered = np.asarray(low <= high)
        if not bool(np.all(ordered)):
            bad = tuple(int(i) for i in np.argwhere(~ordered)[0])
            case.fail(f"{expression} has low > high (or NaN) at index {bad}", expected="low <= high everywhere",
                      actual=f"low={summarize(low)} high={summarize(high)}",
                      assertion=Holds(f"np.all({expression}.low <= {expression}.high)",
                                      shown=f"({expression}.low, {expression}.high)"))

    per_space(case, check, kinds=("box",))


@checks("SPACE-014", floor=FACT)
def test_box_not_degenerate(conformance_case: Case) -> None:
    case = conformance_case
    require_kind(case, ("box",), "Box-like")

    def check(expression: str, space: Any) -> None:
        equal = np.asarray(np.asarray(space.low) == np.asarray(space.high))
        if bool(np.any(equal)):
            where = tuple(int(i) for i in np.argwhere(equal)[0]) if equal.ndim else ()
            case.fail(f"{expression} has low == high at index {where}", expected="low < high in every dimension",
                      actual=f"low={summarize(space.low)} high={summarize(space.high)}",
                      assertion=Holds(f"not np.any(np.asarray({expression}.low) == np.asarray({expression}.high))",
                                      shown=f"({expression}.low, {expression}.high)"))

    per_space(case, check, kinds=("box",))


@checks("SPACE-015", floor=FACT)
def test_discrete_n_and_shape(conformance_case: Case) -> None:
    case = conformance_case
    require_kind(case, ("discrete",), "Discrete-like")

    def check(expression: str, space: Any) -> None:
        n = space.n
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
            case.fail(f"{expression}.n is not a positive integer", expected="n > 0", actual=summarize(n),
                      assertion=Holds(f"isinstance({expression}.n, (int, np.integer)) and "
                                      f"not isinstance({expression}.n, bool) and {expression}.n > 0",
                                      shown=f"{expression}.n"))
        if tuple(getattr(space, "shape", ()) or ()) != () or getattr(space, "shape", ()) is None:
            case.fail(f"{expression}.shape is not ()", expected="()", actual=summarize(space.shape),
                      assertion=Holds(f"{expression}.shape == ()", shown=f"{expression}.shape"))

    per_space(case, check, kinds=("discrete",))


@checks("SPACE-016", floor=FACT)
def test_multidiscrete_nvec(conformance_case: Case) -> None:
    case = conformance_case
    require_kind(case, ("multidiscrete",), "MultiDiscrete-like")

    def check(expression: str, space: Any) -> None:
        nvec = np.asarray(space.nvec)
        if not bool(np.all(nvec > 0)):
            case.fail(f"{expression}.nvec has non-positive entries", expected="all > 0", actual=summarize(nvec),
                      assertion=Holds(f"np.all(np.asarray({expression}.nvec) > 0)", shown=f"{expression}.nvec"))
        if tuple(space.shape) != nvec.shape:
            case.fail(f"{expression}.shape differs from nvec.shape", expected=str(nvec.shape), actual=str(space.shape),
                      assertion=Holds(f"tuple({expression}.shape) == np.asarray({expression}.nvec).shape",
                                      shown=f"{expression}.shape"))

    per_space(case, check, kinds=("multidiscrete",))


@checks("SPACE-017", floor=FACT)
def test_multibinary_dimensions(conformance_case: Case) -> None:
    case = conformance_case
    require_kind(case, ("multibinary",), "MultiBinary-like")

    def check(expression: str, space: Any) -> None:
        dims = np.atleast_1d(np.asarray(space.n)).tolist() + list(space.shape or ())
        if not all(isinstance(d, int) and d > 0 for d in dims):
            case.fail(f"{expression} has a non-positive dimension", expected="n and shape entries > 0",
                      actual=f"n={space.n!r} shape={space.shape!r}",
                      assertion=Holds(f"all(isinstance(d, int) and d > 0 for d in "
                                      f"np.atleast_1d(np.asarray({expression}.n)).tolist() + "
                                      f"list({expression}.shape or ()))",
                                      shown=f"({expression}.n, {expression}.shape)"))

    per_space(case, check, kinds=("multibinary",))


@checks("SPACE-018", floor=FACT)
def test_composite_subspaces(conformance_case: Case) -> None:
    case = conformance_case
    require_kind(case, ("dict", "tuple", "oneof"), "composite (Dict/Tuple/OneOf-like)")

    def check(expression: str, space: Any) -> None:
        inner = space.spaces
        if len(inner) == 0:
            case.fail(f"{expression} has no subspaces", expected="at least one subspace", actual=space_label(space),
                      assertion=Holds(f"len({expression}.spaces) > 0", shown=expression))
        subs = inner.values() if hasattr(inner, "values") else inner
        for sub in subs:
            missing = [member for member in SPACE_MEMBERS if not hasattr(sub, member)]
            if missing:
                case.fail(f"a subspace of {expression} is not a Space", expected=f"members {SPACE_MEMBERS}",
                          actual=f"{type_name(sub)} missing {missing}",
                          assertion=Holds(f"all(hasattr(sub, member) for sub in (lambda inner: inner.values() if "
                                          f"hasattr(inner, 'values') else inner)({expression}.spaces) for member in "
                                          f"{SPACE_MEMBERS!r})"))

    per_space(case, check, kinds=("dict", "tuple", "oneof"))
