"""ENV rules: the shape and types of ``reset``/``step``/``close`` results, on every step of long rollouts.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import inspect
from typing import Any, cast

import numpy as np

from conformance._kit.api import (
    CONSTRUCTION, FACT, INSTANCES, RESET, ROLLOUT, SPACE_MEMBERS, Case, Floor, HistoryWatch, Holds, InfoHistoryWatch,
    NoRaise, Plan, Raises, Record, TargetError, View, Watch, checks, contains, deep_copy, describe_exception,
    dtype_shape_problem, elements, is_finite, is_flag, is_mapping, is_real_scalar, is_tuple, observer, plans_for,
    rollout, sampler, seeds, source, space_label, summarize, type_name, watcher,
)

_KIT = "from conformance._kit.assertions import {}"


_METHODS = ("seed", "sample", "contains")


@checks("ENV-001", floor=FACT)
def test_spaces_satisfy_space_protocol(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        probe = case.probed()
        for name, space in (("action_space", probe.action_space), ("observation_space", probe.observation_space)):
            if name in probe.errors:
                case.fail(f"env.{name} cannot be read", expected=f"a Space as env.{name}",
                          actual=f"env.{name} raised {probe.errors[name]}",
                          assertion=NoRaise(f"env.{name}"))
            missing = [member for member in SPACE_MEMBERS if not hasattr(space, member)]
            methods = [m for m in _METHODS if m not in missing]
            not_callable = [m for m in methods if not callable(getattr(space, m))]
            if missing or not_callable:
                case.fail(f"env.{name} does not satisfy the Space protocol",
                          expected=f"members {', '.join(SPACE_MEMBERS)} (seed, sample, contains callable)",
                          actual=f"{type_name(space)} missing {missing}, not callable {not_callable}",
                          assertion=Holds(f"all(callable(getattr(env.{name}, member, None)) if member in "
                                          f"{_METHODS!r} else hasattr(env.{name}, member) for member in "
                                          f"{SPACE_MEMBERS!r})",
                                          shown=f"type(env.{name})"))

    case.once(body)


def _unchanged(case: Case, now: Any, original: Any, snapshot: Any) -> bool:
    """Whether a space is still what it was: equal to its snapshot, or the same object when it has no ``__eq__``."""
    if now is original and getattr(type(cast(object, now)), "__eq__", None) is _OBJECT_EQ:
        return True  # no value equality to compare with (SPACE-001 reports that); identity is all there is
    try:
        return bool(case.watchdog.call("space.__eq__", lambda: now == snapshot))
    except Exception:  # noqa: BLE001 - an __eq__ that raises cannot confirm equality
        return False


_OBJECT_EQ: Any = object.__eq__


class _SpacesStayFixed(Watch):
    """ENV-002: the spaces read after every reset and step equal what the env was constructed with."""

    names = ("action_space", "observation_space")

    def __init__(self, view: View) -> None:
        super().__init__(view)
        case = view.case
        self.originals = {name: view.space(name) for name in self.names}
        self.snapshots = {name: deep_copy(case, space, f"env.{name}") for name, space in self.originals.items()}

    def _expect(self, name: str, problem: str) -> None:
        """End the reproducer by comparing ``env.<name>`` with that of a fresh instance (equal to what the env was
        constructed with, as ENV-026 requires)."""
        view = self.view
        var = view.env.var
        view.case.expect(
            f"fresh = {view.case.target.constructor_source()}",
            "try:",
            f"    now = {var}.{name}",
            "except Exception as error:  # noqa: BLE001 - a space that cannot be read is the finding",
            "    now = error",
            f"assert not isinstance(now, Exception) and now == fresh.{name}, "
            f"{f'{view.rule.id}: {problem}: '!r} + repr(now)",
        )

    def record(self, record: Record) -> None:
        view = self.view
        for name in self.names:
            try:
                now = view.env.get(name)
            except TargetError as error:
                # Readable when constructed, unreadable now: the attribute did not stay what it was.
                self._expect(name, f"env.{name} cannot be read any more, found after the {record.where()}")
                view.fail(
                    f"env.{name} cannot be read any more, found after the {record.where()}",
                    expected=f"{space_label(self.snapshots[name])} (as constructed)",
                    actual=str(error),
                )
            if not _unchanged(view.case, now, self.originals[name], self.snapshots[name]):
                self._expect(name, f"env.{name} changed, found after the {record.where()}")
                view.fail(
                    f"env.{name} changed, found after the {record.where()}",
                    expected=f"{space_label(self.snapshots[name])} (as constructed)",
                    actual=space_label(now),
                )


test_spaces_stay_fixed = watcher("ENV-002", _SpacesStayFixed, floor=ROLLOUT, name="test_spaces_stay_fixed")


@checks("ENV-003", floor=FACT)
def test_metadata_is_mapping_with_str_keys(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        probe = case.probed()
        if "metadata" in probe.errors:
            case.fail("env.metadata cannot be read", expected="a mapping with str keys",
                      actual=f"env.metadata raised {probe.errors['metadata']}",
                      assertion=NoRaise("env.metadata"))
        metadata = probe.metadata
        if not is_mapping(metadata):
            case.fail("env.metadata is not a mapping", expected="a mapping with str keys", actual=summarize(metadata),
                      assertion=Holds("is_mapping(env.metadata)", shown="env.metadata",
                                      imports=(_KIT.format("is_mapping"),)))
        bad = [key for key in metadata.keys() if not isinstance(key, str)]
        if bad:
            case.fail("env.metadata has non-str keys", expected="str keys only", actual=f"keys {bad!r}",
                      assertion=Holds("all(isinstance(key, str) for key in env.metadata.keys())",
                                      shown="list(env.metadata.keys())"))

    case.once(body)


def _signature_problem(reset: Any) -> str | None:
    try:
        parameters = inspect.signature(reset).parameters
    except (TypeError, ValueError):
        return None  # not introspectable: the calls below are the whole check
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return None
    for name in ("seed", "options"):
        param = parameters.get(name)
        if param is None or param.kind not in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD):
            return f"reset has no keyword parameter {name!r}"
        if param.default is not None:
            return f"reset parameter {name!r} defaults to {param.default!r}, not None"
    return None


# ENV-004's assertion: _signature_problem, in the reproducer.
_SIGNATURE_PROBLEM = (
    "def _signature_problem(reset):",
    "    parameters = inspect.signature(reset).parameters",
    "    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):",
    "        return None",
    "    for name in ('seed', 'options'):",
    "        param = parameters.get(name)",
    "        if param is None or param.kind not in (param.KEYWORD_ONLY, param.POSITIONAL_OR_KEYWORD):",
    "            return f'reset has no keyword parameter {name!r}'",
    "        if param.default is not None:",
    "            return f'reset parameter {name!r} defaults to {param.default!r}, not None'",
    "    return None",
)


@checks("ENV-004", floor=Floor(seeded_resets=2, unseeded_resets=2), owns=("reset",))
def test_reset_accepts_seed_and_options(conformance_case: Case) -> None:
    case = conformance_case

    def example(seed: int) -> None:
        env = case.make()
        problem = _signature_problem(env.raw.reset)
        if problem is not None:
            signature = str(inspect.signature(env.raw.reset))
            case.fail(problem, expected="reset(*, seed=None, options=None)", actual=signature,
                      assertion=Holds(f"_signature_problem({env.var}.reset) is None",
                                      shown=f"inspect.signature({env.var}.reset)", given=_SIGNATURE_PROBLEM,
                                      imports=("import inspect",)))
        env.reset(seed=seed, options=None)
        env.reset(options=None)
        env.reset()
        env.reset(seed=seed)

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, 5))


@observer("ENV-005", floor=RESET, on="reset", raw=True)
def test_reset_returns_pair(view: View, result: tuple[int, str, Any]) -> None:
    index, _, value = result
    if not is_tuple(value) or len(value) != 2:
        _expect_result(view, index, "isinstance(result, tuple) and len(result) == 2",
                       f"the reset at position {index} returned no (observation, info) pair")
        view.fail(f"the reset at position {index} returned {type_name(value)}",
                  expected="a 2-tuple (observation, info)", actual=summarize(value))


def _expect_result(view: View, index: int, condition: str, problem: str, shown: str = "result",
                   imports: tuple[str, ...] = ()) -> None:
    """End the reproducer with ``assert condition`` over ``result``, what the call at ``index`` of the env's
    ``reset``/``step`` calls returned; the message shows ``repr(shown)``."""
    var = view.env.var
    view.case.expect(f"result = results[{var!r}][{index}]",
                     f"assert {condition}, {f'{view.rule.id}: {problem}: '!r} + repr({shown})", imports=imports)


def _expect_in_space(view: View, record: Record) -> None:
    """End the reproducer by asking the space about the observation of the record's call."""
    var = view.env.var
    view.case.expect(
        f"obs = results[{var!r}][{record.index}][0]",
        f"assert {var}.observation_space.contains(obs), "
        f"{f'{view.rule.id}: the {record.where()} returned an observation outside observation_space: '!r} + repr(obs)",
    )


@observer("ENV-006", floor=RESET, on="reset")
def test_reset_observation_in_space(view: View, record: Record) -> None:
    space = view.space("observation_space")
    ok, note = contains(view.case, space, record.obs, "obs")
    if not ok:
        _expect_in_space(view, record)
        view.fail(f"the {record.where()} returned an observation outside observation_space{note}",
                  expected=f"an element of {space_label(space)}", actual=summarize(record.obs))


@observer("ENV-007", floor=RESET, on="reset")
def test_reset_info_is_dict(view: View, record: Record) -> None:
    if not isinstance(record.info, dict):
        _expect_result(view, record.index, "isinstance(result[-1], dict)", f"the {record.where()} returned a "
                       "non-dict info", "result[-1]")
        view.fail(f"the {record.where()} returned a non-dict info", expected="a dict", actual=summarize(record.info))


@observer("ENV-008", floor=ROLLOUT, on="step", raw=True)
def test_step_returns_five_tuple(view: View, result: tuple[int, str, Any]) -> None:
    index, _, value = result
    if not is_tuple(value) or len(value) != 5:
        _expect_result(view, index, "isinstance(result, tuple) and len(result) == 5",
                       f"the step at position {index} returned no 5-tuple")
        view.fail(f"the step at position {index} returned {type_name(value)}",
                  expected="a 5-tuple (observation, reward, terminated, truncated, info)", actual=summarize(value))


@observer("ENV-009", floor=ROLLOUT)
def test_step_observation_in_space(view: View, record: Record) -> None:
    space = view.space("observation_space")
    ok, note = contains(view.case, space, record.obs, "obs")
    if not ok:
        _expect_in_space(view, record)
        view.fail(f"the {record.where()} returned an observation outside observation_space{note}",
                  expected=f"an element of {space_label(space)}", actual=summarize(record.obs))


@observer("ENV-010", floor=ROLLOUT)
def test_observation_dtype_and_shape(view: View, record: Record) -> None:
    space = view.space("observation_space")
    problem = dtype_shape_problem(space, record.obs)
    if problem is not None:
        view.case.expect(f"result = results[{view.env.var!r}][{record.index}]",
                         f"problem = dtype_shape_problem({view.env.var}.observation_space, result[0])",
                         f"assert problem is None, {f'{view.rule.id}: the {record.where()}: '!r} + problem",
                         imports=(_KIT.format("dtype_shape_problem"),))
        view.fail(f"the {record.where()}: {problem}", expected=space_label(space), actual=summarize(record.obs))


@observer("ENV-011", floor=ROLLOUT)
def test_reward_is_real_scalar(view: View, record: Record) -> None:
    if not is_real_scalar(record.reward):
        _expect_result(view, record.index, "is_real_scalar(result[1])", f"the {record.where()} returned a reward "
                       "that is not a real scalar", "result[1]", imports=(_KIT.format("is_real_scalar"),))
        view.fail(f"the {record.where()} returned a reward of type {type_name(record.reward)}",
                  expected="int, float, or a NumPy integer/floating scalar (not bool, not an array)",
                  actual=summarize(record.reward))


@observer("ENV-012", floor=ROLLOUT)
def test_reward_is_finite(view: View, record: Record) -> None:
    if not is_finite(record.reward):
        _expect_result(view, record.index, "is_finite(result[1])", f"the {record.where()} returned a non-finite "
                       "reward", "result[1]", imports=(_KIT.format("is_finite"),))
        view.fail(f"the {record.where()} returned a non-finite reward", expected="a finite number",
                  actual=summarize(record.reward))


def _flag(view: View, record: Record, name: str) -> None:
    value = getattr(record, name)
    if not is_flag(value):
        part = f"result[{2 if name == 'terminated' else 3}]"
        _expect_result(view, record.index, f"is_flag({part})", f"the {record.where()} returned {name} that is not "
                       "bool or numpy.bool_", part, imports=(_KIT.format("is_flag"),))
        view.fail(f"the {record.where()} returned {name} of type {type_name(value)}",
                  expected="bool or numpy.bool_", actual=summarize(value))


@observer("ENV-013", floor=ROLLOUT)
def test_terminated_is_bool(view: View, record: Record) -> None:
    _flag(view, record, "terminated")


@observer("ENV-014", floor=ROLLOUT)
def test_truncated_is_bool(view: View, record: Record) -> None:
    _flag(view, record, "truncated")


@observer("ENV-015", floor=ROLLOUT)
def test_step_info_is_dict(view: View, record: Record) -> None:
    if not isinstance(record.info, dict):
        _expect_result(view, record.index, "isinstance(result[-1], dict)", f"the {record.where()} returned a "
                       "non-dict info", "result[-1]")
        view.fail(f"the {record.where()} returned a non-dict info", expected="a dict", actual=summarize(record.info))


@observer("ENV-016", floor=ROLLOUT, owns=("step",))
def test_step_accepts_every_action(view: View, record: Record) -> None:
    """A step that raises is the violation; the translation of the exception reports it."""


test_observations_not_mutated_later = watcher("ENV-017", HistoryWatch, floor=ROLLOUT,
                                              name="test_observations_not_mutated_later")
test_infos_not_mutated_later = watcher("ENV-018", InfoHistoryWatch, floor=ROLLOUT, name="test_infos_not_mutated_later")


@checks("ENV-019", floor=CONSTRUCTION)
def test_step_before_reset_raises(conformance_case: Case) -> None:
    case = conformance_case
    space = case.probe().action_space
    case.require(space is not None, "no action_space (ENV-001)")

    def example(action: Any) -> None:
        env = case.make()
        try:
            # Unrecorded: the reproducer's assertion makes the step (a fixed target raises there).
            result = env.call("step", action, record=False)
        except TargetError:
            return
        case.fail("step before the first reset returned a result", expected="an exception (ideally ResetNeeded)",
                  actual=summarize(result),
                  assertion=Raises(f"{env.var}.step({source(action)})"))

    case.explore(example, elements(space), max_examples=min(case.profile.max_examples, 3))


@checks("ENV-020", floor=Floor(constructions=2, steps=10), owns=("close",))
def test_close_is_idempotent(conformance_case: Case) -> None:
    case = conformance_case

    short = plans_for(case, max_steps=min(case.profile.max_steps, 20))

    def example(plan: Plan) -> None:
        fresh = case.make("fresh")
        fresh.close()
        fresh.close()
        env = case.make()
        rollout.run(env, plan.seed, plan.actions())
        env.close()
        env.close()

    case.explore(example, short, max_examples=min(case.profile.max_examples, 3))


@checks("ENV-021", floor=INSTANCES)
def test_instances_live_side_by_side(conformance_case: Case) -> None:
    case = conformance_case
    space = case.probe().action_space
    case.require(space is not None, "no action_space (ENV-001)")

    def example(seed: int) -> None:
        first = case.make("env_a")
        first.reset(seed=seed)
        try:
            second = case.make("env_b")
        except TargetError as error:
            case.fail(
                f"constructing a second instance while the first is open raised {describe_exception(error.error)}",
                expected="a second live instance (SyncVectorEnv builds num_envs of them in one process)",
                actual=f"{describe_exception(error.error)}; the first instance was still open",
            )
        second.reset(seed=seed + 1)
        draw = sampler(space)
        rng = np.random.default_rng(seed)
        first.step(draw(rng))
        second.step(draw(rng))
        first.reset(seed=seed)

    case.explore(example, seeds(), max_examples=1)
