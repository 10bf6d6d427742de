"""REG rules: env ids and specs, and what the chosen registry's ``make``/``make_vec`` guarantee.

They apply to targets made from a registered id (``--env-id``, ``--vector-env-id`` and the embedded defaults),
through the registry that made them (``--registry``); REG-001 applies to any target that carries a spec.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import importlib
import re
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

from conformance._kit.api import (
    CONSTRUCTION, FACT, FIRST_EPISODES, Case, EpisodeClock, Floor, Handle, Holds, NoRaise, Plan, Raises, SplitError,
    TargetError, checks, describe_exception, ended_flags, expect_raises, expect_same_results, plans_for, read,
    reproducibility_gate, returned, rollout, sampler, seeds, source, space_label, split, summarize, type_name,
    vector_facts, vector_rollout,
)
from gymspec import ENV_ID_PATTERN, AutoresetMode
from gymspec.errors import ResetNeeded, UnregisteredEnv, matches

_BOTH = ("env", "vector")
_ENV = ("env",)
_VECTOR_ONLY_KWARGS = ("num_envs", "vectorization_mode", "vector_kwargs", "wrappers")
_UNDECLARED_MODE = "conformance-undeclared-mode"
# Spec limits longer than this many times the profile's rollout length are not run to the end (the keyword limit
# of REG-004 still is): 1000 steps for a cheap env under the default profile, fewer for one whose steps cost more.
_SPEC_LIMIT_ROLLOUTS = 5


def _require_id(case: Case) -> str:
    env_id = case.target.env_id
    if env_id is None or case.target.registry is None:
        pytest.skip(f"{case.rule.id} not applicable to {case.target.id}: the target is not made from a registered "
                    "id (--env-id, --vector-env-id)")
    return env_id


def _registry(case: Case) -> Any:
    try:
        return importlib.import_module(str(case.target.registry))
    except Exception as exc:  # noqa: BLE001 - without the registry nothing here can be checked
        case.not_checkable(f"the registry module {case.target.registry!r} cannot be imported "
                           f"({describe_exception(exc)})")


def _call(
    case: Case, name: str, *args: Any, shown: str | None = None, noted: bool = True, **kwargs: Any
) -> tuple[Any, str]:
    """Call ``registry.name(*args, **kwargs)``; return the result and the source of the call.

    Args:
        case: The item.
        name: ``"make"`` or ``"make_vec"``.
        *args: Positional arguments.
        shown: Source of the positional arguments when they are not literals (``"env.spec"``).
        noted: Whether a call that raises is the reproducer's last line (not when the check's expectation makes
            the call itself, asserting what it raises).
        **kwargs: Keyword arguments.

    Raises:
        TargetError: If the call raised (the failing call is the reproducer's last line).
    """
    parts = [shown] if shown is not None else [source(arg) for arg in args]
    parts += [f"{key}={source(value)}" for key, value in kwargs.items()]
    expression = f"registry.{name}({', '.join(parts)})"
    case.note(f"import {case.target.registry} as registry")
    module = _registry(case)
    try:
        return case.watchdog.call(expression, lambda: getattr(module, name)(*args, **kwargs)), expression
    except Exception as exc:  # noqa: BLE001 - the caller decides whether this is the violation
        if noted:
            case.note(expression)
        raise TargetError(expression, name, exc) from exc


def _make(case: Case, name: str, *args: Any, var: str, shown: str | None = None, **kwargs: Any) -> Handle:
    """Make an env (or vector env) with the registry, recorded as ``var = registry.name(...)``."""
    made, expression = _call(case, name, *args, shown=shown, **kwargs)
    return case.wrap(made, var, expression)


def _close(handle: Handle) -> None:
    try:
        handle.call("close", record=False)
    except TargetError:
        pass


def _spec(case: Case, env: Handle) -> tuple[Any, str]:
    """The env's spec and the source that reads it (``env.spec`` or ``env.unwrapped.spec``)."""
    spec = env.get("spec") if env.has("spec") else None
    if spec is None and env.has("unwrapped"):
        unwrapped = env.get("unwrapped")
        return getattr(unwrapped, "spec", None), f"{env.var}.unwrapped.spec"
    return spec, f"{env.var}.spec"


def _single_kwargs(case: Case) -> dict[str, Any]:
    return {key: value for key, value in case.target.kwargs.items() if key not in _VECTOR_ONLY_KWARGS}


@checks("REG-001", floor=FACT, kinds=_BOTH)
def test_spec_id_is_well_formed(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        spec, where = _spec(case, case.make())
        if spec is None:
            case.not_checkable("the target has no spec (it was not made by a registry)")
        env_id = getattr(spec, "id", None)
        if not isinstance(env_id, str) or ENV_ID_PATTERN.match(env_id) is None:
            case.fail(f"{where}.id is not a well-formed env id", expected=f"a str matching {ENV_ID_PATTERN.pattern}",
                      actual=summarize(env_id),
                      assertion=Holds(f"isinstance({where}.id, str) and ENV_ID_PATTERN.match({where}.id) is not None",
                                      shown=f"{where}.id", imports=("from gymspec import ENV_ID_PATTERN",)))

    case.once(body)


def _trajectory(case: Case, env: Handle, plan: Plan, actions: list[Any]) -> Any:
    if case.target.kind == "vector":
        facts = vector_facts(case, env)
        return vector_rollout.run(env, plan.seed, actions, facts.n, facts.mode)
    return rollout.run(env, plan.seed, actions, max_episodes=1)


@checks("REG-002", floor=FIRST_EPISODES, kinds=_BOTH)
def test_remake_from_spec(conformance_case: Case) -> None:
    case = conformance_case
    _require_id(case)
    case.skip_if_nondeterministic()
    make = "make_vec" if case.target.kind == "vector" else "make"

    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        env = case.make()
        spec, where = _spec(case, env)
        if spec is None:
            case.fail(f"{where} is None", expected="the spec the registry recorded", actual="None",
                      assertion=Holds(f"{where} is not None"))
        try:
            remade = _make(case, make, spec, var="remade", shown=where)
        except TargetError as error:
            case.fail(f"making the env again from its spec failed: {error}",
                      expected=f"registry.{make}({where}) returns an env", actual=describe_exception(error.error))
        try:
            for name in ("observation_space", "action_space"):
                ours, theirs = read(case, env, name), read(case, remade, name)
                if not bool(ours == theirs):
                    case.fail(f"the env made again from its spec has another {name}", expected=space_label(ours),
                              actual=space_label(theirs),
                              assertion=Holds(f"{env.var}.{name} == {remade.var}.{name}",
                                              shown=f"({env.var}.{name}, {remade.var}.{name})"))
            actions = plan.actions()
            compare = rollout.first_difference
            ours = _trajectory(case, env, plan, actions)
            theirs = _trajectory(case, remade, plan, actions)
            found = compare(ours, theirs)
            if found is not None:
                reproducibility_gate(case, lambda: _trajectory(case, case.make("env_again"), plan, actions), ours,
                                     vector=case.target.kind == "vector")
                expect_same_results(case, (env.var, remade.var), ours, theirs,
                                    "the env made again from its spec does not replay the seeded trajectory")
                case.fail(f"the env made again from its spec does not replay the seeded trajectory: position "
                          f"{found[0]} differs ({found[1]})", expected="the same trajectory", actual=found[1])
        finally:
            _close(remade)

    case.explore(example, plans_for(case))


@checks("REG-003", floor=CONSTRUCTION, kinds=_BOTH)
def test_spec_id_is_requested_id(conformance_case: Case) -> None:
    case = conformance_case
    env_id = _require_id(case)

    # "module:Id" imports the module and makes Id; an unversioned id is either registered so (then spec.id is that
    # very id) or resolves to some version of that name.
    requested = env_id.split(":", 1)[1] if ":" in env_id else env_id
    versioned = re.search(r"-v\d+$", requested) is not None

    def body() -> None:
        spec, where = _spec(case, case.make())
        recorded = getattr(spec, "id", None)
        if versioned and recorded != requested:
            case.fail(f"{where}.id is not the requested id", expected=repr(requested), actual=summarize(recorded),
                      assertion=Holds(f"{where}.id == {requested!r}", shown=f"{where}.id"))
        if not versioned and recorded != requested and not (
            isinstance(recorded, str) and re.fullmatch(re.escape(requested) + r"-v\d+", recorded)
        ):
            pattern = re.escape(requested) + r"(-v\d+)?"
            case.fail(f"{where}.id is neither the requested unversioned id nor that id with the version it resolved to",
                      expected=f"{requested!r}, or {requested!r} + '-vN'", actual=summarize(recorded),
                      assertion=Holds(f"isinstance({where}.id, str) and re.fullmatch({pattern!r}, {where}.id) is not "
                                      "None", shown=f"{where}.id", imports=("import re",),
                                      problem=f"{where}.id is neither the requested unversioned id nor that id with a "
                                              "version"))

    case.once(body)


def _episode_ends_by(case: Case, env: Handle, seed: int, limit: int, what: str) -> None:
    """Step a single env from ``reset(seed)`` for ``limit`` steps; it must end by then."""
    space = read(case, env, "action_space")
    draw, rng = sampler(space), np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(limit):
        _, _, terminated, truncated, _ = rollout.unpack_step(env.step(draw(rng)))
        if rollout.ended(terminated, truncated):
            case.judged(_HELD)
            return
    # The episode's steps are the latest `limit` results on the env.
    case.fail(f"{what}: the episode had not ended by step {limit}", expected=f"truncated on step {limit} at the "
                                                                    "latest", actual="neither terminated nor truncated",
              assertion=Holds(f"any(result[2] or result[3] for result in {returned(env.var)}[-{limit}:])"))


def _sub_episodes_end_by(case: Case, env: Handle, seed: int, limit: int) -> None:
    """Step a vector env; no sub-env episode may run past ``limit`` steps (counted by the declared mode)."""
    facts = vector_facts(case, env)
    draw, rng = sampler(facts.act_space), np.random.default_rng(seed)
    clock = EpisodeClock(facts.n, facts.mode)
    env.reset(seed=seed)
    calls = 1  # the env's results since the seeded reset, which the reproducer's assertion replays
    for _ in range(3 * limit + 2):
        _, _, terms, truncs, _ = vector_rollout.unpack_step(env.step(draw(rng)))
        calls += 1
        ended = ended_flags(terms, truncs, facts.n)
        late = clock.tick(ended, limit)
        if late:
            case.fail(f"sub-env {late[0]} had not ended its episode by step {limit}",
                      expected=f"truncated on step {limit} at the latest", actual="neither terminated nor truncated",
                      assertion=Holds(f"(late := overlong_sub_episode({returned(env.var)}[-{calls}:], {limit}, "
                                      f"AutoresetMode.{facts.mode.name})) is None", shown="late",
                                      imports=("from conformance._kit.vector_rollout import overlong_sub_episode",
                                      "from gymspec import AutoresetMode"),
                                      problem=f"with max_episode_steps={limit}: a sub-env's episode had not ended by "
                                              f"step {limit}"))
        if facts.mode is AutoresetMode.DISABLED and ended.any():
            env.reset(options={"reset_mask": ended.copy()})
            calls += 1
    case.judged(_HELD)


_HELD = "rollouts held to a step limit"


@checks("REG-004", floor=Floor(judged={_HELD: 1}), kinds=_BOTH)
def test_truncates_at_limit(conformance_case: Case) -> None:
    case = conformance_case
    _require_id(case)
    vector = case.target.kind == "vector"

    longest = _SPEC_LIMIT_ROLLOUTS * case.profile.max_steps
    checked_spec: list[bool] = []

    def example(seed: int, limit: int) -> None:
        case.set_seed(seed)
        limited = case.make("limited", max_episode_steps=limit)
        if vector:
            _sub_episodes_end_by(case, limited, seed, limit)
            return
        _episode_ends_by(case, limited, seed, limit, f"with max_episode_steps={limit}")
        if checked_spec:
            return  # the spec's own limit is one long episode: run once per item, not once per example
        checked_spec.append(True)
        env = case.make()
        spec, _ = _spec(case, env)
        spec_limit = getattr(spec, "max_episode_steps", None)
        if isinstance(spec_limit, int) and 0 < spec_limit <= longest:
            _episode_ends_by(case, env, seed, spec_limit, f"with spec.max_episode_steps={spec_limit}")

    case.explore(example, seeds(), st.integers(1, 10), max_examples=min(case.profile.max_examples, 3))


@checks("REG-005", floor=CONSTRUCTION, kinds=_ENV)
def test_order_enforced(conformance_case: Case) -> None:
    case = conformance_case
    _require_id(case)

    def body() -> None:
        env = case.make()
        spec, where = _spec(case, env)
        case.require(getattr(spec, "order_enforce", False) is True, f"{where}.order_enforce is not True")
        action = sampler(read(case, env, "action_space"))(np.random.default_rng(0))
        try:
            # Unrecorded: the reproducer's assertion makes this step itself (a fixed env raises there).
            result = env.call("step", action, record=False)
        except TargetError as error:
            if not matches(error.error, ResetNeeded):
                _expect_reset_needed(case, env, action)
                case.fail(f"step before the first reset raised {describe_exception(error.error)}",
                          expected="ResetNeeded", actual=type_name(error.error))
            return
        _expect_reset_needed(case, env, action)
        case.fail("step before the first reset returned", expected="ResetNeeded (spec.order_enforce is True)",
                  actual=summarize(result))

    case.once(body)


def _expect_reset_needed(case: Case, env: Handle, action: Any) -> None:
    expect_raises(case, f"{env.var}.step({source(action)})", "step before the first reset did not raise ResetNeeded",
                  accepted="matches(raised, ResetNeeded)", imports=("from gymspec.errors import ResetNeeded, matches",))


def _unregistered(env_id: str, how: str, salt: int) -> str:
    found = ENV_ID_PATTERN.match(env_id)
    namespace, name, version = (found["namespace"], found["name"], found["version"]) if found else (None, env_id, None)
    prefix = f"{namespace}/" if namespace else ""
    suffix = f"-v{version}" if version is not None else ""
    if how == "namespace":
        return f"ConformanceNoSuchNamespace{salt}/{name}{suffix}"
    if how == "version" and version is not None:
        return f"{prefix}{name}-v{int(version) + 1000 + salt}"
    return f"{prefix}{re.sub(r'[^A-Za-z0-9]', '', name)}ConformanceTypo{salt}{suffix}"


@checks("REG-006", floor=FACT, kinds=_BOTH)
def test_unregistered_ids_raise(conformance_case: Case) -> None:
    case = conformance_case
    env_id = _require_id(case)
    make = "make_vec" if case.target.kind == "vector" else "make"

    def example(how: str, salt: int) -> None:
        bad = _unregistered(env_id, how, salt)

        def expect() -> None:
            expect_raises(case, f"registry.{make}({bad!r})", f"registry.{make} of an unregistered id did not raise "
                          "UnregisteredEnv", accepted="matches(raised, UnregisteredEnv)",
                          imports=("from gymspec.errors import UnregisteredEnv, matches",))

        try:
            made, _ = _call(case, make, bad, noted=False)
        except TargetError as error:
            if not matches(error.error, UnregisteredEnv):
                expect()
                case.fail(f"registry.{make}({bad!r}) raised {describe_exception(error.error)}",
                          expected="an UnregisteredEnv error (NameNotFound, VersionNotFound or NamespaceNotFound)",
                          actual=type_name(error.error))
            return
        getattr(made, "close", lambda: None)()
        expect()
        case.fail(f"registry.{make}({bad!r}) returned an env for an unregistered id",
                  expected="an UnregisteredEnv error", actual=summarize(made))

    case.explore(example, st.sampled_from(["name", "version", "namespace"]), st.integers(0, 999),
                max_examples=min(case.profile.max_examples, 6))


@checks("REG-007", floor=CONSTRUCTION, kinds=_ENV)
def test_undeclared_render_mode_rejected_at_make(conformance_case: Case) -> None:
    case = conformance_case
    _require_id(case)

    def body() -> None:
        # "always": a registry that warned once in this process (or whose module registry holds the warning)
        # still warns here, since the rule asks whether *this* make tells its caller.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                env = case.make(render_mode=_UNDECLARED_MODE)
            except TargetError:
                return
        if any(_UNDECLARED_MODE in str(warning.message) for warning in caught):
            return
        # The check's make leaves the replay: the assertion makes it, since a fixed registry raises there.
        case.fail(f"make(..., render_mode={_UNDECLARED_MODE!r}) returned an env and warned about nothing",
                  expected="an error, or a warning naming the mode, at make",
                  actual=f"an env with render_mode={summarize(env.raw.render_mode)}",
                  assertion=Raises(f"env = {case.target.constructor_source(render_mode=_UNDECLARED_MODE)}",
                                   drop=(env.var,),
                                   problem=f"make(..., render_mode={_UNDECLARED_MODE!r}) returned an env"))

    case.once(body)


@checks("REG-008", floor=CONSTRUCTION, kinds=_BOTH)
def test_make_vec_single_spaces(conformance_case: Case) -> None:
    case = conformance_case
    env_id = _require_id(case)
    vector = case.target.kind == "vector"

    def body() -> None:
        if vector:
            requested = int({**case.target.base_kwargs, **case.target.kwargs}["num_envs"])
            vec = case.make()
            single = _make(case, "make", env_id, var="single", **_single_kwargs(case))
            try:
                _compare_single(case, vec, single, requested)
            finally:
                _close(single)
            return
        single = case.make()
        vec = _make(case, "make_vec", env_id, var="vec", num_envs=2, **case.target.kwargs)
        try:
            _compare_single(case, vec, single, 2)
        finally:
            _close(vec)

    case.once(body)


def _compare_single(case: Case, vec: Handle, single: Handle, requested: int) -> None:
    n = read(case, vec, "num_envs", "VEC-001")
    if n != requested:
        case.fail(f"make_vec(..., num_envs={requested}) made {n!r} sub-envs", expected=str(requested), actual=repr(n),
                  assertion=Holds(f"{vec.var}.num_envs == {requested}", shown=f"{vec.var}.num_envs",
                                  problem=f"make_vec(..., num_envs={requested}) made another "
                                  "number of sub-envs"))
    for name in ("observation_space", "action_space"):
        ours, theirs = read(case, vec, f"single_{name}", "VEC-001"), read(case, single, name)
        if not bool(ours == theirs):
            case.fail(f"{vec.var}.single_{name} differs from make's {name}", expected=space_label(theirs),
                      actual=space_label(ours),
                      assertion=Holds(f"{vec.var}.single_{name} == {single.var}.{name}",
                                      shown=f"({vec.var}.single_{name}, {single.var}.{name})"))


# REG-009's counts: 1 (the edge a default of 2 never reaches) and 3 (odd, unlike the usual defaults).
_COUNTS = (1, 3)


@checks("REG-009", floor=Floor(seeded_resets=len(_COUNTS)), kinds=_BOTH, owns=("make_vec",))
def test_make_vec_honours_num_envs(conformance_case: Case) -> None:
    case = conformance_case
    env_id = _require_id(case)
    vector = case.target.kind == "vector"

    def make(n: int) -> Handle:
        if vector:  # the target's own make_vec call (its vectorization mode and kwargs), with num_envs=n
            return case.make(f"vec_{n}", num_envs=n)
        kwargs: dict[str, Any] = {**case.target.kwargs, "num_envs": n}
        return _make(case, "make_vec", env_id, var=f"vec_{n}", **kwargs)

    def body() -> None:
        for n in _COUNTS:
            vec = make(n)
            try:
                got = read(case, vec, "num_envs", "VEC-001")
                if got != n:
                    case.fail(f"make_vec(..., num_envs={n}) made a vector env with num_envs={got!r}",
                              expected=f"num_envs == {n}", actual=repr(got),
                              assertion=Holds(f"{vec.var}.num_envs == {n}", shown=f"{vec.var}.num_envs",
                                              problem=f"make_vec(..., num_envs={n}) made another number "
                                              "of sub-envs"))
                single = read(case, vec, "single_observation_space", "VEC-001")
                obs, _ = vector_rollout.unpack_reset(vec.reset(seed=0))
                try:
                    split(single, obs, n, "observations")
                except SplitError as exc:
                    # The assertion calls the suite's own batching logic (conformance._kit.batching), which says
                    # where the batch departs.
                    case.fail(f"make_vec(..., num_envs={n}) made a vector env whose reset returned observations that "
                              f"are not {n} elements of single_observation_space ({exc})", expected=f"{n} observations",
                              actual=summarize(obs),
                              assertion=NoRaise(f"split({vec.var}.single_observation_space, "
                                                f"{returned(vec.var)}[-1][0], {n}, 'observations')",
                                                imports=("from conformance._kit.batching import split",),
                                                problem=f"make_vec(..., num_envs={n}) made a vector env whose reset "
                                                f"returned observations that are not {n} elements of "
                                                "single_observation_space"))
            finally:
                _close(vec)

    case.once(body)
