"""FUNC rules: functional envs are pure, draw randomness only from ``rng``, and return well-typed values.

A target is a factory of ``FuncEnv`` instances. Episodes are driven by direct calls (``initial``, then
``transition``/``reward``/``terminal``/``observation`` per action) with the kind of ``rng`` the target takes (NumPy
``Generator`` s, or JAX PRNG keys split per step: :mod:`conformance._kit.func_rng`) and the functions' default
params, unless a rule needs explicit params. Values may be arrays of the target's own library (a JAX env returns
0-d ``jax.Array`` rewards and flags): they are read through ``np.asarray``/DLPack (:mod:`conformance._kit.arrays`).

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from conformance._kit.api import (
    BATCH, FACT, NUMPY, ROW_VARS, SAMPLES, SPACE_MEMBERS, TRANSITIONS, BatchedStep, Case, Driver, Equal, Floor, Holds,
    KeyedFuncEnv, Member, NoRaise, NotCheckable, Plan, TargetError, as_numpy, batched_step, checks, contains,
    deep_snapshot, describe_exception, difference, generators_built, is_array, is_bool, is_finite, is_tuple, plans_for,
    read, returned, rng_kind, row, row_difference, seeds, space_label, summarize, truthy, type_name, unchanged,
)

_FUNC = ("func",)
_NAMES = ("initial", "transition", "observation", "reward", "terminal", "state_info", "transition_info")
_TRANSFORMED = _NAMES[:-1]  # FUNC-011: transition_info may stay untransformed, as Gymnasium's transform leaves it
_RENDERED_STATES = 4


@checks("FUNC-001", floor=FACT, kinds=_FUNC)
def test_spaces_satisfy_space_protocol(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        func = case.make("func")
        for name in ("observation_space", "action_space"):
            try:
                space = func.get(name)
            except TargetError as error:
                case.fail(f"func.{name} cannot be read", expected=f"a Space as func.{name}", actual=str(error),
                          assertion=NoRaise(f"func.{name}"))
            missing = [member for member in SPACE_MEMBERS if not hasattr(space, member)]
            if missing:
                case.fail(f"func.{name} does not satisfy the Space protocol",
                          expected=f"members {', '.join(SPACE_MEMBERS)}",
                          actual=f"{type_name(space)} missing {missing}",
                          assertion=Holds(f"all(hasattr(func.{name}, member) for member in {SPACE_MEMBERS!r})",
                                          shown=f"[member for member in {SPACE_MEMBERS!r} if not hasattr(func.{name}, "
                                                "member)]"))

    case.once(body)


@checks("FUNC-002", floor=TRANSITIONS, kinds=_FUNC)
def test_inputs_not_mutated(conformance_case: Case) -> None:
    case = conformance_case

    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        func = case.make("func")
        params = func.get("default_params") if func.has("default_params") else None
        explicit = params is not None
        before: dict[str, Any] = {}

        def check(name: str, args: tuple[Any, ...], result: Any) -> None:
            for index, (arg, copy_) in enumerate(zip(args, before["args"])):
                found = unchanged(copy_, arg, f"argument {index}")
                if found is not None:
                    case.fail(f"func.{name} changed its {found}", expected="inputs left as they were passed",
                              actual=f"{summarize(arg)}, was {summarize(copy_)}",
                              assertion=Equal(f"inputs[{index}]", driver.src(arg),
                                              problem=f"func.{name} changed its argument {index}"))
            if explicit:
                found = unchanged(before["params"], params, "params")
                if found is not None:
                    case.fail(f"func.{name} changed the params it received ({found})", expected="params left as passed",
                              actual=summarize(params),
                              assertion=Equal("params_before", "params",
                                              problem=f"func.{name} changed the params it received"))

        def snapshot_inputs(name: str, args: tuple[Any, ...]) -> None:
            before["args"] = [arg if isinstance(arg, np.random.Generator) else deep_snapshot(arg) for arg in args]
            before["params"] = deep_snapshot(params)
            # The reproducer keeps copies too, for its assertion (a generator is meant to advance: kept as it is).
            kept = [driver.src(arg) if isinstance(arg, np.random.Generator) else f"copy.deepcopy({driver.src(arg)})"
                    for arg in args]
            case.note(f"inputs = [{', '.join(kept)}]", imports=("import copy",))
            if explicit:
                case.note("params_before = copy.deepcopy(params)")

        driver = Driver(case, func, **({"params": params} if explicit else {}), on_call=check,
                        before_call=snapshot_inputs)
        if explicit:
            case.note("params = func.default_params")
            driver.name(params, "params")
        steps = driver.episode(driver.rng(plan.seed), plan.actions())
        for step in steps[:1]:
            driver.call("state_info", step.state)
            driver.call("transition_info", step.state, step.action, step.next_state)

    case.explore(example, plans_for(case))


def _outputs(driver: Driver, rng: Any, state: Any, action: Any, order: list[str]) -> dict[str, tuple[Any, str]]:
    """Every function of one transition, each with its own equal copy of ``rng``, called in ``order``: name → (a
    snapshot of the result, its variable in the reproducer)."""
    results: dict[str, tuple[Any, str]] = {}
    next_state = None

    def call(name: str, *args: Any) -> Any:
        var = driver.fresh(name)
        value = driver.call(name, *args, out=var)
        results[name] = (deep_snapshot(value), var)
        return value

    for name in order:
        own = driver.copy_rng(rng, driver.fresh("rng"))
        if name == "transition":
            next_state = call("transition", state, action, own)
        elif name == "observation":
            call("observation", state, own)
        elif name == "state_info":
            call("state_info", state)
    if next_state is None:
        return results
    for name in order:
        own = driver.copy_rng(rng, driver.fresh("rng"))
        if name == "reward":
            call("reward", state, action, next_state, own)
        elif name == "terminal":
            call("terminal", next_state, own)
        elif name == "transition_info":
            call("transition_info", state, action, next_state)
    return results


@checks("FUNC-003", floor=TRANSITIONS, kinds=_FUNC)
def test_deterministic_given_inputs(conformance_case: Case) -> None:
    case = conformance_case
    order = ["transition", "observation", "state_info", "reward", "terminal", "transition_info"]

    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        driver = Driver(case, case.make("func"))
        rng = driver.rng(plan.seed)
        first = deep_snapshot(driver.call("initial", driver.copy_rng(rng, "rng_a"), out="state_a"))
        again = deep_snapshot(driver.call("initial", driver.copy_rng(rng, "rng_b"), out="state_b"))
        found = difference(first, again, "initial state")
        if found is not None:
            case.fail(f"initial with equal rngs gave different states ({found})", expected=summarize(first),
                      actual=summarize(again),
                      assertion=Equal("state_a", "state_b", problem="initial with equal rngs gave different states"))
        steps = driver.episode(rng, plan.actions())
        for step in steps:
            one = _outputs(driver, rng, step.state, step.action, order)
            two = _outputs(driver, rng, step.state, step.action, list(reversed(order)))
            for name in order:
                found = difference(one[name][0], two[name][0], name)
                if found is not None:
                    case.fail(f"func.{name} gave different results for equal arguments and equal rng copies "
                              f"({found}): it has hidden state", expected=summarize(one[name][0]),
                              actual=summarize(two[name][0]),
                              assertion=Equal(one[name][1], two[name][1],
                                              problem=f"func.{name} gave different results for equal "
                                              "arguments and equal rng copies: it has hidden state"))

    case.explore(example, plans_for(case, max_steps=min(case.profile.max_steps, 30)))


def _global_state() -> tuple[Any, Any]:
    return random.getstate(), np.random.get_state()


@checks("FUNC-004", floor=TRANSITIONS, kinds=_FUNC)
def test_randomness_only_from_rng(conformance_case: Case) -> None:
    case = conformance_case

    def run(plan: Plan, global_seed: int) -> list[Any]:
        case.note(f"np.random.seed({global_seed}); random.seed({global_seed})", imports=("import random",))
        np.random.seed(global_seed)
        random.seed(global_seed)
        before = _global_state()
        driver = Driver(case, case.make(f"func_{global_seed}"))
        steps = driver.episode(driver.rng(plan.seed, f"rng_{global_seed}"), plan.actions())
        after = _global_state()
        if before[0] != after[0] or difference(before[1], after[1]) is not None:
            which = "random" if before[0] != after[0] else "numpy's legacy global generator"
            case.fail(f"the functions advanced the global generator ({which})", expected="global generators untouched",
                      actual="their state changed",
                      assertion=Holds(f"random.getstate() == random.Random({global_seed}).getstate() and "
                                      f"difference(np.random.get_state(), np.random.RandomState({global_seed})"
                                      ".get_state()) is None",
                                      imports=("from conformance.equality import difference",),
                                      problem="the functions advanced the global generators"))
        # The run's results under a name of their own: the next run's calls reuse the names state_1, obs_1, ...
        kept = ", ".join(f"(state_{k}, obs_{k}, reward_{k}, terminal_{k})" for k in range(1, len(steps) + 1))
        case.note(f"episode_{global_seed} = copy.deepcopy([{kept}])", imports=("import copy",))
        return [deep_snapshot((s.next_state, s.observation, s.reward, s.terminal)) for s in steps]

    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        a, b = run(plan, 1), run(plan, 2)
        found = difference(a, b, "episode")
        if found is not None:
            case.fail(f"the episode depends on the global generators ({found})", expected="equal episodes",
                      actual=f"{summarize(a)} vs {summarize(b)}",
                      assertion=Equal("episode_1", "episode_2",
                                      problem="the episode (next state, observation, reward, terminal per "
                                      "step) depends on the global generators (seeded 1, then 2)"))
        _private_generator(case, plan)

    case.explore(example, plans_for(case))


# FUNC-004 (a private generator) and FUNC-013 (a generator not advanced) conclude from equal results: a function whose
# randomness is a coin gives equal results half the time, so they need this many alike (a coin: 2**-19).
_REPEATS = 20


def _private_generator(case: Case, plan: Plan) -> None:
    """Fail when ``initial`` or ``transition`` builds a generator of its own and ignores ``rng`` for it.

    Output alone cannot tell such a function from a deterministic one (both give equal results for different
    rngs), so the generator factories are watched while they run: a function that built a generator, and whose
    result is still the same for two different rngs, drew its randomness from that generator, not from ``rng``.
    """
    driver = Driver(case, case.make("func_private"))
    state = _same_despite_rng(case, driver, "initial", plan.seed, ())
    actions = plan.actions()
    if not actions or state is None:
        return
    _same_despite_rng(case, driver, "transition", plan.seed + _REPEATS, (state, actions[0]))


def _same_despite_rng(case: Case, driver: Driver, name: str, seed: int, args: tuple[Any, ...]) -> Any:
    """Fail when ``func.name(*args, rng)`` built a generator and gave one result for :data:`_REPEATS` different rngs
    (a function drawing a coin from its rng, which may derive a generator from it, gives equal results for two);
    return the first result."""
    results: list[Any] = []
    rngs = [driver.rng(seed + k, f"{name}_rng_{k}") for k in range(_REPEATS)]  # made before the factories are watched
    with generators_built() as made:
        for k, rng in enumerate(rngs):
            results.append(deep_snapshot(driver.call(name, *args, rng, out=f"{name}_{k}")))
            if k and (not made or difference(results[0], results[k]) is not None):
                return results[0]
    if not made:
        return results[0]
    values = ", ".join(f"{name}_{k}" for k in range(_REPEATS))
    # Passes once the function draws from rng (its results then differ for different rngs).
    case.fail(f"func.{name} builds its own generator ({made[0]}) and ignores rng: its result is the same for "
              f"{_REPEATS} different rngs", expected=f"func.{name} draws its randomness from the rng it is given",
              actual=f"{len(made)} generator(s) built during the calls; equal results {summarize(results[0])}",
              assertion=Holds(f"any(difference({name}_0, value) is not None for value in [{values}])",
                              shown=f"{name}_0", imports=("from conformance.equality import difference",),
                              problem=f"func.{name} gives the same result for different rngs (it builds its own "
                                      "generator)"))


@checks("FUNC-005", floor=TRANSITIONS, kinds=_FUNC)
def test_adapter_agrees_with_direct_calls(conformance_case: Case) -> None:
    case = conformance_case

    def example(plan: Plan) -> None:
        from reference.functional import FunctionalEnv  # late: only this check adapts the target to an Env

        case.set_seed(plan.seed)
        func = case.make("func")
        keyed = rng_kind(case).is_jax
        if keyed:
            # The reference adapter passes NumPy generators; a JAX target sees each call's key drawn from them.
            func = case.wrap(KeyedFuncEnv(func.raw), "func", "KeyedFuncEnv(func)",
                             imports=("from conformance._kit.func_rng import KeyedFuncEnv",))
        source = case.target.constructor_source()

        def build() -> Any:
            target: Any = case.target.construct()
            wrapped: Any = KeyedFuncEnv(target) if keyed else target
            return FunctionalEnv(wrapped)

        try:
            built = case.watchdog.call("FunctionalEnv(func)", build)
        except Exception as exc:  # noqa: BLE001 - no adapter, nothing to compare with
            case.not_checkable(f"the reference FunctionalEnv cannot wrap the target ({describe_exception(exc)})")
        expression = f"FunctionalEnv(KeyedFuncEnv({source}))" if keyed else f"FunctionalEnv({source})"
        adapter = case.wrap(built, "adapter", expression, imports=("from reference.functional import FunctionalEnv",))
        driver = Driver(case, func, kind=NUMPY)
        rng = driver.rng(plan.seed)
        state = driver.initial(rng)
        episode_rng = driver.child_rng(rng, "episode_rng")
        expected: Any = (driver.call("observation", state, episode_rng, out="obs_0"),
                         driver.call("state_info", state, out="info_0"))
        actual: Any = adapter.reset(seed=plan.seed)
        _agree(case, "reset", expected, actual, "[obs_0, info_0]")
        for k, action in enumerate(plan.actions(), start=1):
            next_state = driver.call("transition", state, action, episode_rng, out=f"state_{k}")
            reward = driver.call("reward", state, action, next_state, episode_rng, out=f"reward_{k}")
            terminal = driver.call("terminal", next_state, episode_rng, out=f"terminal_{k}")
            obs = driver.call("observation", next_state, episode_rng, out=f"obs_{k}")
            info = driver.call("transition_info", state, action, next_state, out=f"info_{k}")
            actual = adapter.step(action)
            _agree(case, f"step {k}", (obs, float(reward), truthy(terminal), False, info), actual,
                   f"[obs_{k}, float(reward_{k}), bool(terminal_{k}), False, info_{k}]")
            state = next_state
            if truthy(terminal):
                break

    case.explore(example, plans_for(case))


def _agree(case: Case, where: str, expected: tuple[Any, ...], actual: Any, direct: str) -> None:
    """Fail unless the adapter's result ``actual`` equals ``expected``, the direct calls' (``direct``: their source,
    a list, for the reproducer's assertion on the adapter's latest result)."""
    if not is_tuple(actual) or len(actual) != len(expected):
        case.fail(f"the adapter's {where} returned {summarize(actual)}", expected=summarize(expected),
                  actual=summarize(actual),
                  assertion=Holds(f"isinstance({returned('adapter')}[-1], tuple) and len({returned('adapter')}[-1]) == "
                                  f"{len(expected)}", shown=f"{returned('adapter')}[-1]",
                                  problem=f"the adapter's {where} returned another shape of result"))
    found = difference(deep_snapshot(list(expected)), deep_snapshot(list(actual)), where)
    if found is not None:
        case.fail(f"the reference FunctionalEnv's {where} differs from direct calls with the same rngs ({found})",
                  expected=f"direct: {summarize(expected)}", actual=f"adapter: {summarize(actual)}",
                  assertion=Equal(direct, f"list({returned('adapter')}[-1])",
                                  problem=f"the reference FunctionalEnv's {where} differs from direct calls with the "
                                          "same rngs"))


def _observation_rule(case: Case, *, initial_only: bool) -> None:
    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        func = case.make("func")
        space = read(case, func, "observation_space", "FUNC-001")
        driver = Driver(case, func)
        rng = driver.rng(plan.seed)
        if initial_only:
            states = [(0, driver.initial(rng))]
        else:
            states = [(k, step.next_state) for k, step in enumerate(driver.episode(rng, plan.actions()), start=1)]
        for k, reached in states:
            obs = driver.call("observation", reached, rng, out="obs")
            ok, note = contains(case, space, obs)
            if not ok:
                which = "the initial state" if k == 0 else f"the state after {k} transitions"
                case.fail(f"the observation of {which} is outside observation_space{note}",
                          expected=f"an element of {space_label(space)}", actual=summarize(obs),
                          assertion=Member("func.observation_space", "obs",
                                           problem=f"the observation of {which} is outside observation_space"))

    case.explore(example, plans_for(case, max_steps=0 if initial_only else None))


@checks("FUNC-006", floor=SAMPLES, kinds=_FUNC)
def test_initial_observation_in_space(conformance_case: Case) -> None:
    _observation_rule(conformance_case, initial_only=True)


@checks("FUNC-007", floor=TRANSITIONS, kinds=_FUNC, owns=("transition", "observation"))
def test_reachable_observations_in_space(conformance_case: Case) -> None:
    _observation_rule(conformance_case, initial_only=False)


def _episode_rule(case: Case, check: Any, batched: Callable[[Case, BatchedStep], None] | None = None) -> None:
    """Check every step of episodes; with ``batched``, also one step of a batch (when the FuncEnv takes batches)."""

    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        driver = Driver(case, case.make("func"))
        for k, step in enumerate(driver.episode(driver.rng(plan.seed), plan.actions()), start=1):
            check(case, driver, k, step)
        if batched is None:
            return
        try:
            batch = _batched(case, plan.seed, what="the rule")
        except NotCheckable:
            return  # a NumPy FuncEnv without batches: the single-state checks above are the rule's
        batched(case, batch)

    case.explore(example, plans_for(case))


def _batched(case: Case, seed: int, *, what: str) -> BatchedStep:
    func = case.make("func_batch")
    space = read(case, func, "action_space", "FUNC-001")
    return batched_step(case, func, seed, lambda: case.watchdog.call("action_space.sample", space.sample), what=what)


def _shape(value: Any) -> tuple[int, ...] | None:
    array = value if is_array(value) else as_numpy(value)
    return None if array is None else tuple(array.shape)


def _dtype_kind(value: Any) -> str:
    array = value if is_array(value) else as_numpy(value)
    return "" if array is None else array.dtype.kind


def _scalar(value: Any) -> Any:
    """The scalar a 0-d array holds (NumPy's, or a foreign one such as a ``jax.Array``); other values as they are."""
    array = value if is_array(value) else as_numpy(value)
    return array[()] if array is not None and array.ndim == 0 else value


@checks("FUNC-008", floor=TRANSITIONS, kinds=_FUNC, owns=("reward",))
def test_reward_is_real_finite_scalar(conformance_case: Case) -> None:
    def check(case: Case, driver: Driver, k: int, step: Any) -> None:
        reward = step.reward
        scalar = _scalar(reward)
        real = isinstance(scalar, (int, float, np.integer, np.floating)) and not isinstance(scalar, (bool, np.bool_))
        value = f"np.asarray(reward_{k})"
        if not real:
            case.fail(f"reward of transition {k} is {type_name(reward)}",
                      expected="a real scalar (int, float, a NumPy integer/floating scalar, or a 0-d array of one, "
                      "NumPy's or the target's array library's)", actual=summarize(reward),
                      assertion=Holds(f"{value}.ndim == 0 and {value}.dtype.kind in 'iuf'", shown=f"reward_{k}",
                                      problem=f"reward of transition {k} is not a real scalar"))
        if not is_finite(scalar):
            case.fail(f"reward of transition {k} is not finite", expected="a finite number", actual=summarize(reward),
                      assertion=Holds(f"np.isfinite({value})", shown=f"reward_{k}"))

    def check_batch(case: Case, step: BatchedStep) -> None:
        rewards = step.rewards
        if _shape(rewards) != (BATCH,) or _dtype_kind(rewards) not in ("i", "u", "f"):
            case.fail(f"reward of a batch of {BATCH} states is {type_name(rewards)} {_shape(rewards)}",
                      expected=f"a real array of shape ({BATCH},): one reward per state", actual=summarize(rewards),
                      assertion=Holds(f"np.asarray(rewards).shape == ({BATCH},) and np.asarray(rewards).dtype.kind in "
                                      "'iuf'",
                                      shown="(type(rewards).__name__, np.asarray(rewards).dtype, "
                                            "np.asarray(rewards).shape)",
                                      problem=f"reward of a batch of {BATCH} states is not a real array with one "
                                              "reward per state"))

    _episode_rule(conformance_case, check, check_batch)


@checks("FUNC-009", floor=TRANSITIONS, kinds=_FUNC, owns=("terminal",))
def test_terminal_is_bool_like(conformance_case: Case) -> None:
    def check(case: Case, driver: Driver, k: int, step: Any) -> None:
        flag = step.terminal
        if not is_bool(_scalar(flag)):
            case.fail(f"terminal after transition {k} is {type_name(flag)}",
                      expected="bool, numpy.bool_ or a 0-d bool array, NumPy's or the target's array library's "
                      "(one state)", actual=summarize(flag),
                      assertion=Holds(f"np.asarray(terminal_{k}).ndim == 0 and np.asarray(terminal_{k}).dtype == "
                                      "np.bool_", shown=f"terminal_{k}",
                                      problem=f"terminal after transition {k} is not a bool"))

    def check_batch(case: Case, step: BatchedStep) -> None:
        flags = step.terminals
        if _shape(flags) != (BATCH,) or _dtype_kind(flags) != "b":
            case.fail(f"terminal of a batch of {BATCH} states is {type_name(flags)} {_shape(flags) or ''}".rstrip(),
                      expected=f"a bool array of shape ({BATCH},): one flag per state", actual=summarize(flags),
                      assertion=Holds(f"np.asarray(terminals).shape == ({BATCH},) and np.asarray(terminals).dtype == "
                                      "np.bool_",
                                      shown="(type(terminals).__name__, np.asarray(terminals).dtype, "
                                            "np.asarray(terminals).shape)",
                                      problem=f"terminal of a batch of {BATCH} states is not a bool array with one "
                                              "flag per state"))

    _episode_rule(conformance_case, check, check_batch)


@checks("FUNC-010", floor=TRANSITIONS, kinds=_FUNC, owns=("state_info", "transition_info"))
def test_infos_are_dicts(conformance_case: Case) -> None:
    def check(case: Case, driver: Driver, k: int, step: Any) -> None:
        for name, args in (("state_info", (step.next_state,)),
                           ("transition_info", (step.state, step.action, step.next_state))):
            value = driver.call(name, *args, out=f"{name}_{k}")
            if not isinstance(value, dict):
                case.fail(f"func.{name} after transition {k} returned {type_name(value)}", expected="a dict",
                          actual=summarize(value),
                          assertion=Holds(f"isinstance({name}_{k}, dict)", shown=f"{name}_{k}",
                                          problem=f"func.{name} after transition {k} returned no dict"))

    _episode_rule(conformance_case, check)


_TRACER = '''calls = []
def trace(f):
    def traced(*args, **kwargs):
        calls.append(f)
        return f(*args, **kwargs)
    return traced'''


@checks("FUNC-011", floor=Floor(steps=1), kinds=_FUNC, owns=("transform",))
def test_transform_applies_to_every_function(conformance_case: Case) -> None:
    case = conformance_case

    def example(seed: int) -> None:
        case.set_seed(seed)
        probe = Driver(case, case.make("plain"))
        rng = probe.rng(seed)
        state = probe.initial(rng)
        action = read(case, probe.func, "action_space", "FUNC-001").sample()
        calls: list[Any] = []

        def trace(fn: Any) -> Any:
            def traced(*args: Any, **kwargs: Any) -> Any:
                calls.append(fn)
                return fn(*args, **kwargs)

            return traced

        func = case.make("func")
        for line in _TRACER.splitlines():
            case.note(line)
        case.note("func.transform(trace)")
        func.call("transform", trace, record=False)
        driver = Driver(case, func)
        driver.name(state, "state_0")
        driver.name(rng, "rng")
        arguments = {
            "initial": (rng,), "transition": (state, action, rng), "observation": (state, rng),
            "reward": (state, action, state, rng), "terminal": (state, rng), "state_info": (state,),
        }
        for name in _TRANSFORMED:
            calls.clear()
            case.note("calls.clear()")
            driver.call(name, *arguments[name])
            if not calls:
                case.fail(f"func.{name} does not go through the transformation after func.transform(trace)",
                          expected=f"func.{name} is trace(original {name})", actual="calls == [] after the call",
                          assertion=Holds("calls", shown="calls"))

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, 3))


@checks("FUNC-012", floor=Floor(renders=1), kinds=_FUNC, owns=("render_init", "render_image", "render_close"))
def test_render_image_frames(conformance_case: Case) -> None:
    case = conformance_case

    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        func = case.make("func")
        driver = Driver(case, func)
        steps = driver.episode(driver.rng(plan.seed), plan.actions())
        states = [driver.initial(driver.rng(plan.seed))] + [step.next_state for step in steps]
        try:
            render_state = driver.call("render_init", out="render_state")
        except TargetError as error:
            if isinstance(error.error, (NotImplementedError, AttributeError)):
                case.not_checkable(f"the env does not render ({error})")
            raise
        for k, state in enumerate(states):
            result = driver.call("render_image", state, render_state, out="rendered")
            if not is_tuple(result) or len(result) != 2:
                case.fail(f"render_image of state {k} returned {summarize(result)}",
                          expected="a 2-tuple (render_state, frame)", actual=summarize(result),
                          assertion=Holds("isinstance(rendered, tuple) and len(rendered) == 2", shown="rendered",
                                          problem=f"render_image of state {k} returned no 2-tuple"))
            render_state, frame = result
            driver.name(render_state, "render_state")
            pixels = frame if is_array(frame) else as_numpy(frame)
            if not (pixels is not None and pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3):
                case.fail(f"render_image of state {k} returned a frame {summarize(frame)}",
                          expected="a uint8 array of shape (H, W, 3)", actual=summarize(frame),
                          assertion=Holds("np.asarray(rendered[1]).dtype == np.uint8 and "
                                          "np.asarray(rendered[1]).ndim == 3 and np.asarray(rendered[1]).shape[2] == 3",
                                          shown="(np.asarray(rendered[1]).dtype, np.asarray(rendered[1]).shape)",
                                          problem=f"render_image of state {k} returned a frame "
                                          "that is not a uint8 array of shape (H, W, 3)"))
        driver.call("render_close", render_state)

    case.explore(example, plans_for(case, max_steps=_RENDERED_STATES), max_examples=min(case.profile.max_examples, 3))


@checks("FUNC-013", floor=Floor(steps=1), kinds=_FUNC)
def test_fresh_randomness_from_rng(conformance_case: Case) -> None:
    case = conformance_case

    def example(plan: Plan) -> None:
        case.set_seed(plan.seed)
        driver = Driver(case, case.make("func"))
        if driver.kind.is_jax:
            case.not_checkable("the rule is about stateful generators: a JAX key is an immutable value, and the "
                               "caller splits a fresh one for each step (FUNC-004 covers a function that ignores "
                               "its key)")
        state = driver.initial(driver.rng(plan.seed, "rng_0"))
        actions = plan.actions()
        action = actions[0] if actions else read(case, driver.func, "action_space", "FUNC-001").sample()
        next_state = driver.call("transition", state, action, driver.rng(plan.seed, "rng_1"), out="next_state")
        arguments: dict[str, tuple[Any, ...]] = {
            "initial": (), "transition": (state, action), "observation": (state,),
            "reward": (state, action, next_state), "terminal": (next_state,),
        }
        for name, args in arguments.items():
            # Only a function whose result depends on its rng draws from it; a deterministic one has nothing to show.
            one = deep_snapshot(driver.call(name, *args, driver.rng(plan.seed + 1, f"{name}_rng_a")))
            other = deep_snapshot(driver.call(name, *args, driver.rng(plan.seed + 2, f"{name}_rng_b")))
            if difference(one, other) is None:
                continue
            # Equal results of two calls are no evidence by themselves: a function that draws a coin from rng gives
            # one result of two every time. Only all of _REPEATS calls alike is (a coin: 2**-19).
            shared = driver.rng(plan.seed + 1, f"{name}_rng")
            first = deep_snapshot(driver.call(name, *args, shared, out=f"{name}_draw_0"))
            same = True
            for k in range(1, _REPEATS):
                later = deep_snapshot(driver.call(name, *args, shared, out=f"{name}_draw_{k}"))
                if difference(first, later) is not None:
                    same = False
                    break
            if same:
                draws = ", ".join(f"{name}_draw_{k}" for k in range(_REPEATS))
                case.fail(f"func.{name} draws the same randomness on every call with one generator: it draws from "
                          "a copy of rng, or rewinds it",
                          expected=f"later func.{name}(..., rng) calls with the same generator draw new values "
                          "(rng advanced by the earlier ones)",
                          actual=f"all {_REPEATS} calls returned {summarize(first)}",
                          assertion=Holds(f"any(difference({name}_draw_0, draw) is not None for draw in [{draws}])",
                                          shown=f"{name}_draw_0",
                                          imports=("from conformance.equality import difference",),
                                          problem=f"func.{name} draws the same randomness on every call with one "
                                                  "generator"))

    case.explore(example, plans_for(case, max_steps=1), max_examples=min(case.profile.max_examples, 10))


@checks("FUNC-014", floor=Floor(steps=1), kinds=_FUNC)
def test_batch_rows_independent(conformance_case: Case) -> None:
    case = conformance_case
    names = ("initial", "transition", "reward", "terminal", "observation")

    def example(seed: int) -> None:
        case.set_seed(seed)
        step = _batched(case, seed, what="FUNC-014")
        batch = (step.states, step.next_states, step.rewards, step.terminals, step.observations)
        # Rewards and flags of another shape than one per row are FUNC-008's and FUNC-009's findings.
        shaped = {"reward": _shape(step.rewards) == (BATCH,), "terminal": _shape(step.terminals) == (BATCH,)}
        for i, single in enumerate(step.singles):
            for name, batched, alone in zip(names, batch, single):
                if not shaped.get(name, True):
                    continue
                try:
                    found = row_difference(row(batched, i, jax=step.jax), alone, f"row {i}", jax=step.jax)
                except (IndexError, TypeError, ValueError) as exc:
                    # A result with no row i (a scalar for a batch): FUNC-008/009 report the shapes.
                    case.not_checkable(f"func.{name} of a batch has no row {i} ({exc}; FUNC-008/009 check shapes)")
                if found is not None:
                    how = "through jax.vmap" if step.jax else "on a batch"
                    batch_var, row_var = ROW_VARS[name]
                    headline = (f"{case.rule.id}: func.{name} {how} differs in row {i} from the result for state {i} "
                                "alone: ")
                    case.expect(f"found = row_difference(row({batch_var}, {i}, jax={step.jax}), "
                                f"{row_var.format(i)}, 'row {i}', jax={step.jax})",
                                f"assert found is None, {headline!r} + found",
                                imports=("from conformance._kit.func_batch import row, row_difference",))
                    case.fail(f"func.{name} {how} does not treat the rows independently: row {i} of the batch "
                              f"differs from the result for state {i} alone ({found})",
                              expected=f"row {i} of func.{name}(batch) equals func.{name}(row {i}) with row {i}'s rng",
                              actual=f"batch row: {summarize(row(batched, i, jax=step.jax))}, "
                              f"alone: {summarize(alone)}")

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, 5))
