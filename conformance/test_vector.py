"""VEC rules: batched spaces, sub-env seeding, the shapes and types of batched results, info masks, closing.

Rollouts reset with the plan's seed and step with batched actions drawn from ``action_space``; under the
``"Disabled"`` autoreset mode they reset the ended sub-envs with ``reset_mask`` (the caller's part).

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance._kit.api import (
    CONSTRUCTION, FACT, OWN, RESET, ROLLOUT, SPACE_MEMBERS, CallResult, Case, Floor, Holds, NoRaise, Plan, Restarts,
    TargetError, UnsupportedSpace, VecFacts, VecRecord, VectorModel, View, Watch, batch_array, batch_info_problem,
    batched_space_rule, checks, compare_rollouts, contains, copied, describe_exception, difference, ended_flags,
    expect_equal, expect_member, expect_prediction, expect_raises, expect_true, feed, first_difference, is_array,
    is_mapping, is_tuple, mask_problem, model_envs, new_model, observer, plans_for, promised_factories, read,
    reference_sync, refusal, reproducibility_gate, returned, rollout, row_source, run_plan, sampler, snapshot, source,
    space_label, split_rows, static_facts, sub_env_factories, summarize, type_name, value_difference, vector_facts,
    vector_rollout, watcher,
)
from gymspec.errors import ClosedEnvironmentError, matches

_VECTOR = ("vector",)
_SEEDS = st.integers(0, 2**31)
# Steps taken after the reset that VEC-009 compares (enough to see a stale autoreset flag act).
_AFTER_RESET = 8


@checks("VEC-001", floor=FACT, kinds=_VECTOR)
def test_num_envs_and_spaces(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        env = case.make()
        try:
            n = env.get("num_envs")
        except TargetError as error:
            case.fail("env.num_envs cannot be read", expected="a positive int", actual=str(error),
                      assertion=NoRaise("env.num_envs"))
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool) or n < 1:
            case.fail("env.num_envs is not a positive int", expected="a positive int", actual=summarize(n),
                      assertion=Holds("isinstance(env.num_envs, (int, np.integer)) and "
                                      "not isinstance(env.num_envs, bool) and env.num_envs >= 1", shown="env.num_envs"))
        for name in ("single_observation_space", "single_action_space", "observation_space", "action_space"):
            try:
                space = env.get(name)
            except TargetError as error:
                case.fail(f"env.{name} cannot be read", expected=f"a Space as env.{name}", actual=str(error),
                          assertion=NoRaise(f"env.{name}"))
            missing = [member for member in SPACE_MEMBERS if not hasattr(space, member)]
            if missing:
                case.fail(f"env.{name} does not satisfy the Space protocol",
                          expected=f"members {', '.join(SPACE_MEMBERS)}",
                          actual=f"{type_name(space)} missing {missing}",
                          assertion=Holds(f"all(hasattr(env.{name}, member) for member in {SPACE_MEMBERS!r})",
                                          shown=f"[member for member in {SPACE_MEMBERS!r} if not hasattr(env.{name}, "
                                                "member)]"))

    case.once(body)


@checks("VEC-002", floor=FACT, kinds=_VECTOR)
def test_observation_space_is_batched(conformance_case: Case) -> None:
    batched_space_rule(conformance_case, "single_observation_space", "observation_space")


@checks("VEC-003", floor=FACT, kinds=_VECTOR)
def test_action_space_is_batched(conformance_case: Case) -> None:
    batched_space_rule(conformance_case, "single_action_space", "action_space")


@checks("VEC-004", floor=FACT, kinds=_VECTOR)
def test_autoreset_mode_declared(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        metadata = read(case, case.make(), "metadata", "VEC-001")
        if not is_mapping(metadata) or "autoreset_mode" not in metadata:
            case.fail("metadata has no 'autoreset_mode' (consumers then assume 'NextStep')",
                      expected="metadata['autoreset_mode'] = an AutoresetMode or its string value",
                      actual=summarize(metadata),
                      assertion=Holds("'autoreset_mode' in env.metadata", shown="env.metadata",
                                      problem="metadata has no 'autoreset_mode'"))

    case.once(body)


@observer("VEC-005", floor=RESET, on="any", raw=True, kinds=_VECTOR, owns=("reset",))
def test_reset_returns_observations_and_info(view: View, result: tuple[int, str, Any]) -> None:
    index, kind, value = result
    if kind == "step":
        return
    facts = view.facts
    where = f"the {'partial reset' if kind == 'partial' else 'reset'} at position {index}"
    if not is_tuple(value) or len(value) != 2:
        expect_true(view.case, f"isinstance({returned(view.env.var)}[-1], tuple) and len({returned(view.env.var)}[-1]) "
                    "== 2", f"{where} returned no 2-tuple", f"{returned(view.env.var)}[-1]")
        view.fail(f"{where} returned {type_name(value)}", expected="a 2-tuple (observations, info)",
                  actual=summarize(value))
    obs, info = value
    ok, note = contains(view.case, facts.obs_space, obs)
    if not ok:
        expect_member(view.case, f"{view.env.var}.observation_space", f"{returned(view.env.var)}[-1][0]",
                      f"{where} returned observations outside observation_space")
        view.fail(f"{where} returned observations outside observation_space{note}",
                  expected=f"an element of {space_label(facts.obs_space)}", actual=summarize(obs))
    if not isinstance(info, dict):
        expect_true(view.case, f"isinstance({returned(view.env.var)}[-1][1], dict)", f"{where} returned a non-dict info",
                    f"{returned(view.env.var)}[-1][1]")
        view.fail(f"{where} returned a non-dict info", expected="a dict", actual=summarize(info))


def _alone(case: Case, fns: list[Any], i: int, seed: int | None) -> Any:
    """Sub-env ``i``'s first observation when its own factory's env is reset alone with ``seed``."""
    try:
        made = case.watchdog.call(f"env.env_fns[{i}]", fns[i])
    except Exception as exc:  # noqa: BLE001 - the yardstick cannot be built: nothing to compare with
        case.not_checkable(f"env.env_fns[{i}]() raised {describe_exception(exc)}")
    sub = case.wrap(made, f"sub_{i}", f"env.env_fns[{i}]()")
    try:
        obs, _ = rollout.unpack_reset(sub.reset(seed=seed))
        return snapshot(obs)
    finally:
        try:
            sub.call("close", record=False)
        except TargetError:
            pass


def _compare_with_alone(
    case: Case, fns: list[Any], i: int, seed: int, row: Any, call: str, again: Callable[[], Any]
) -> None:
    """Fail unless sub-env ``i``'s row equals its own factory's env reset alone with ``seed`` — unless either side
    does not reproduce itself (the root-cause gate: VEC-008 reports that): ``again`` makes the row again, from a
    fresh target and the same call."""
    alone = _alone(case, fns, i, seed)
    found = value_difference(alone, row)
    if found is None:
        return
    reproducibility_gate(case, lambda: [CallResult("reset", _alone(case, fns, i, seed))],
                         [CallResult("reset", alone)], vector=True)
    reproducibility_gate(case, lambda: [CallResult("reset", again())], [CallResult("reset", row)], vector=True)
    if is_array(row):  # an array batch: row i is obs[i] (a composite one splits in the suite's own way)
        expect_equal(case, f"{returned(f'sub_{i}')}[-1][0]", f"{returned('env')}[-1][0][{i}]",
                     f"sub-env {i}'s observation after {call} is not that of env.env_fns[{i}]() reset alone with "
                     f"seed={seed}", exact=False)
    case.fail(f"sub-env {i}'s observation after {call} is not that of env.env_fns[{i}]() reset alone with "
              f"seed={seed} ({found})", expected=summarize(alone), actual=summarize(row))


def _fresh_row(case: Case, facts: VecFacts, seed: Any, i: int) -> Any:
    """Row ``i`` of a fresh target's ``reset(seed=seed)`` (the baseline of VEC-006/007's gate)."""
    obs, _ = vector_rollout.unpack_reset(case.make("env_again").reset(seed=seed))
    return split_rows(case, facts, snapshot(obs))[i]


@checks("VEC-006", floor=RESET, kinds=_VECTOR)
def test_int_seed_seeds_consecutively(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(seed: int) -> None:
        case.set_seed(seed)
        env = case.make()
        facts = vector_facts(case, env)
        fns = promised_factories(case, env, facts.n)
        obs, _ = vector_rollout.unpack_reset(env.reset(seed=seed))
        rows = split_rows(case, facts, snapshot(obs))
        # Each sub-env against its own factory's env (a multi-task vector env's sub-envs are different tasks).
        for i in range(facts.n):
            _compare_with_alone(case, fns, i, seed + i, rows[i], f"reset(seed={seed})",
                                partial(_fresh_row, case, facts, seed, i))

    case.explore(example, _SEEDS, max_examples=min(case.profile.max_examples, 5))


@checks("VEC-007", floor=RESET, kinds=_VECTOR, owns=("reset",))
def test_seed_lists(conformance_case: Case) -> None:
    case = conformance_case
    deterministic = not case.probe().nondeterministic

    n = static_facts(case).n

    def example(seeds: list[int | None]) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        fns = promised_factories(case, env, facts.n)
        obs, _ = vector_rollout.unpack_reset(env.reset(seed=seeds))
        rows = split_rows(case, facts, snapshot(obs))
        for i, seed in enumerate(seeds):
            if seed is None or not deterministic:
                continue
            _compare_with_alone(case, fns, i, seed, rows[i], f"reset(seed={seeds})",
                                partial(_fresh_row, case, facts, seeds, i))
        for length in (facts.n - 1, facts.n + 1):
            wrong = list(range(length))

            def expect() -> None:
                expect_raises(case, f"env.reset(seed={wrong!r})", f"reset(seed=<list of {length} seeds>) with "
                              f"num_envs={facts.n} did not raise ValueError", accepted="isinstance(raised, ValueError)")

            try:
                # Unrecorded: the reproducer's assertion makes this call itself (a fixed env raises there).
                result = env.call("reset", seed=wrong, record=False)
            except TargetError as error:
                if not isinstance(error.error, ValueError):
                    expect()
                    case.fail(f"reset(seed=<list of {length}>) raised {describe_exception(error.error)}",
                              expected=f"ValueError (num_envs={facts.n})", actual=type_name(error.error))
                continue
            expect()
            case.fail(f"reset(seed=<list of {length} seeds>) with num_envs={facts.n} returned",
                      expected="ValueError", actual=summarize(result))

    # Ints first: the simplest list (an item of a costly target may run no other) seeds every sub-env.
    case.explore(example, st.lists(st.one_of(_SEEDS, st.none()), min_size=n, max_size=n),
                 max_examples=min(case.profile.max_examples, 5))


@checks("VEC-008", floor=Floor(steps=60), kinds=_VECTOR)
def test_reproducible(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = plan.actions()
        env_a, env_b = case.make("env_a"), case.make("env_b")
        a = run_plan(case, env_a, vector_facts(case, env_a), plan, actions)
        b = run_plan(case, env_b, vector_facts(case, env_b), plan, actions)
        compare_rollouts(case, a, b, "two fresh instances with the same seed and actions diverge", ("env_a", "env_b"))

    case.explore(example, plans_for(case))


@checks("VEC-009", floor=Floor(seeded_resets=2, steps=10), kinds=_VECTOR)
def test_reset_resets_every_sub_env(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan, seed: int, cut_after_an_end: bool) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        actions = plan.actions()

        def stop(record: VecRecord) -> bool:
            return cut_after_an_end and bool(ended_flags(record.terminations, record.truncations, facts.n).any())

        run_plan(case, env, facts, plan, actions, stop=stop)
        after = vector_rollout.run(env, seed, actions[:_AFTER_RESET], facts.n, facts.mode)
        fresh = case.make("fresh")
        expected = vector_rollout.run(fresh, seed, actions[:_AFTER_RESET], facts.n, facts.mode)
        compare_rollouts(case, expected, after, f"reset(seed={seed}) after a history differs from a fresh instance's",
                         ("fresh", "env"), vector=True,
                         baseline=lambda: vector_rollout.run(case.make("fresh_again"), seed, actions[:_AFTER_RESET],
                                                             facts.n, facts.mode))

    case.explore(example, plans_for(case), _SEEDS, st.booleans())


@observer("VEC-010", floor=ROLLOUT, raw=True, kinds=_VECTOR)
def test_step_returns_five_tuple(view: View, result: tuple[int, str, Any]) -> None:
    index, _, value = result
    if not is_tuple(value) or len(value) != 5:
        expect_true(view.case, f"isinstance({returned(view.env.var)}[-1], tuple) and len({returned(view.env.var)}[-1]) "
                    "== 5", f"the step at position {index} returned no 5-tuple", f"{returned(view.env.var)}[-1]")
        view.fail(f"the step at position {index} returned {type_name(value)}",
                  expected="a 5-tuple (observations, rewards, terminations, truncations, info)",
                  actual=summarize(value))


@observer("VEC-011", floor=ROLLOUT, kinds=_VECTOR)
def test_step_observations_in_space(view: View, record: VecRecord) -> None:
    facts = view.facts
    ok, note = contains(view.case, facts.obs_space, record.obs)
    if not ok:
        expect_member(view.case, f"{view.env.var}.observation_space", f"{returned(view.env.var)}[-1][0]",
                      f"the {record.where()} returned observations outside observation_space")
        view.fail(f"the {record.where()} returned observations outside observation_space{note}",
                  expected=f"an element of {space_label(facts.obs_space)}", actual=summarize(record.obs))


@observer("VEC-012", floor=ROLLOUT, kinds=_VECTOR)
def test_rewards_array(view: View, record: VecRecord) -> None:
    n, rewards = view.facts.n, record.rewards
    array, due = batch_array(view.facts, rewards)
    if not (array is not None and array.shape == (n,) and array.dtype.kind in "iuf"):
        value = f"np.asarray({returned(view.env.var)}[-1][1])"
        expect_true(view.case, f"{value}.shape == ({n},) and {value}.dtype.kind in 'iuf'",
                    f"the {record.where()} returned rewards that are not a real array of shape ({n},)",
                    f"{returned(view.env.var)}[-1][1]")
        view.fail(f"the {record.where()} returned rewards {summarize(rewards)}",
                  expected=f"{due} of shape ({n},) with an integer or floating dtype",
                  actual=summarize(rewards))


@observer("VEC-013", floor=ROLLOUT, kinds=_VECTOR)
def test_flags_arrays(view: View, record: VecRecord) -> None:
    n = view.facts.n
    for name in ("terminations", "truncations"):
        flags = getattr(record, name)
        array, due = batch_array(view.facts, flags)
        if not (array is not None and array.shape == (n,) and array.dtype == np.bool_):
            value = f"{returned(view.env.var)}[-1][{2 if name == 'terminations' else 3}]"
            expect_true(view.case, f"np.asarray({value}).shape == ({n},) and np.asarray({value}).dtype == np.bool_",
                        f"the {record.where()} returned {name} that are not a bool array of shape ({n},)", value)
            view.fail(f"the {record.where()} returned {name} {summarize(flags)}",
                      expected=f"{due.replace(' array', ' bool array')} of shape ({n},)", actual=summarize(flags))


def _info(view: View, record: VecRecord, problem_of: Any) -> None:
    problem = problem_of(record.info_copy, view.facts.n)
    if problem is not None:
        # The assertion calls the suite's own batching logic (conformance._kit.batching), which says what departs.
        name = problem_of.__name__
        info = f"{returned(view.env.var)}[-1][{4 if record.kind == 'step' else 1}]"
        headline = f"{view.case.rule.id}: the {record.where()}'s info breaks the _key mask convention: "
        view.case.expect(f"problem = {name}({info}, {view.facts.n})", f"assert problem is None, {headline!r} + problem",
                         imports=(f"from conformance._kit.batching import {name}",))
        view.fail(f"the {record.where()}: {problem}", expected="the _key mask convention of batched infos",
                  actual=summarize(record.info_copy))


@observer("VEC-014", floor=Floor(steps=30, ends=2), on="any", kinds=_VECTOR)
def test_info_masks(view: View, record: VecRecord) -> None:
    _info(view, record, mask_problem)


@observer("VEC-015", floor=Floor(steps=30, ends=2), on="any", kinds=_VECTOR)
def test_info_values_batched(view: View, record: VecRecord) -> None:
    _info(view, record, batch_info_problem)


@observer("VEC-016", floor=ROLLOUT, kinds=_VECTOR, owns=("step",))
def test_step_accepts_every_action(view: View, record: VecRecord) -> None:
    """A step that raises is the violation; the translation of the exception reports it (the replayed step raises
    it too: no reproducer assertion to add)."""


class _ObservationsUnaliased(Watch):
    """VEC-017: returned observation batches keep their values through later calls (each batch is verified at the
    next call and the last at the end: a vector env that reuses its buffer shows at the next call)."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        self.previous: VecRecord | None = None

    def verify(self, record: VecRecord, now: str) -> None:
        found = difference(record.obs, record.obs_copy, "observations")
        if found is not None:
            # Every observation batch the script's resets and steps returned, beside the copy it took of each at once.
            var = self.view.env.var
            expect_equal(self.view.case, f"[result[0] for result in {returned(var)}]", copied(var, "step", "[0]"),
                         "an observation batch reset or step returned changed later (each batch against the copy "
                         "taken when it was returned)")
            self.view.fail(f"the observations returned by the {record.where()} changed later, by {now} ({found})",
                           expected="returned observations keep their values",
                           actual=f"{summarize(record.obs)}, was {summarize(record.obs_copy)}")

    def record(self, record: VecRecord) -> None:
        if self.previous is not None:
            self.verify(self.previous, f"the {record.where()}")
        self.previous = record

    def end(self) -> None:
        if self.previous is not None:
            self.verify(self.previous, "the end of the rollout")


test_observations_not_mutated_later = watcher(
    "VEC-017", _ObservationsUnaliased, floor=ROLLOUT, name="test_observations_not_mutated_later", kinds=_VECTOR
)


@checks("VEC-018", floor=ROLLOUT, kinds=_VECTOR)
def test_matches_reference_sync(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        fns = sub_env_factories(case, env, facts.n)
        if fns is None:
            case.not_checkable("the target exposes no sub-env factories (env_fns), which the comparison needs (a "
                               "vector env written directly is compared with its own num_envs=1 copies by VEC-023 "
                               "and the AUTORESET rules)")
        try:
            built = case.watchdog.call("reference_sync", lambda: reference_sync(fns, facts.mode))
        except UnsupportedSpace as exc:
            case.not_checkable(f"the sub-envs' spaces cannot be given to the reference SyncVectorEnv ({exc})")
        except Exception as exc:  # noqa: BLE001 - the yardstick cannot be built: nothing to compare with
            case.not_checkable(f"the reference SyncVectorEnv over env.env_fns cannot be built "
                               f"({describe_exception(exc)})")
        imports = ("from conformance._kit.reference_sync import reference_sync", "from gymspec import AutoresetMode")
        reference = case.wrap(built, "reference", f"reference_sync(env.env_fns, AutoresetMode.{facts.mode.name})",
                              imports=imports)
        try:
            actions = plan.actions()
            ours = run_plan(case, env, facts, plan, actions)
            theirs = vector_rollout.run(reference, plan.seed, actions, facts.n, facts.mode)
        finally:
            try:
                reference.call("close", record=False)
            except TargetError:
                pass
        found = first_difference(theirs, ours)
        if found is not None:

            def baseline() -> list[VecRecord]:
                again = case.make("env_again")  # a fresh instance each time the gate makes the baseline
                return run_plan(case, again, vector_facts(case, again), plan, actions)

            reproducibility_gate(case, baseline, ours, vector=True)
        compare_rollouts(case, theirs, ours, "the target differs from a reference SyncVectorEnv over the same sub-env "
                         "factories", ("reference", "env"))

    case.explore(example, plans_for(case))


@checks("VEC-019", floor=Floor(constructions=1, steps=1), kinds=_VECTOR, owns=("close",))
def test_close_is_idempotent(conformance_case: Case) -> None:
    case = conformance_case

    def example(plan: Plan) -> None:
        fresh = case.make("fresh")
        fresh.close()
        fresh.close()  # a second close() raising is the finding: the replayed close() raises it (no assertion)
        env = case.make()
        run_plan(case, env, vector_facts(case, env), plan)
        env.close()
        env.close()

    case.explore(example, plans_for(case, max_steps=min(case.profile.max_steps, 20)),
            max_examples=min(case.profile.max_examples, 3))


@checks("VEC-020", floor=CONSTRUCTION, kinds=_VECTOR)
def test_calls_after_close_raise(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        env = case.make()
        facts = vector_facts(case, env)
        actions = sampler(facts.act_space)(np.random.default_rng(0))
        env.reset(seed=0)
        env.close()
        for call, method, args in (("reset()", "reset", ()), ("step(actions)", "step", (actions,))):

            def expect() -> None:
                shown = ", ".join(source(arg) for arg in args)
                expect_raises(case, f"env.{method}({shown})", f"{call} after close() did not raise "
                              "ClosedEnvironmentError", accepted="matches(raised, ClosedEnvironmentError)",
                              imports=("from gymspec.errors import ClosedEnvironmentError, matches",))

            try:
                # Unrecorded: the reproducer's assertion makes this call itself (a fixed env raises there).
                result = env.call(method, *args, record=False)
            except TargetError as error:
                if not matches(error.error, ClosedEnvironmentError):
                    expect()
                    case.fail(f"{call} after close() raised {describe_exception(error.error)}",
                              expected="ClosedEnvironmentError", actual=type_name(error.error))
                continue
            expect()
            case.fail(f"{call} after close() returned", expected="ClosedEnvironmentError", actual=summarize(result))

    case.once(body)


# VEC-021 follows the unseeded reset with this many steps (a generator re-seeded from entropy shows in the first
# observations already; the steps catch one that re-seeds the dynamics' noise only).
_UNSEEDED_STEPS = 8
# VEC-022: how many seeded resets must all give identical rows, and how many distinct first rows across them show
# that the start is random.
_INDEPENDENCE_RESETS = 5
_RANDOM_STARTS = 3


# VEC-021's autoreset part: the rollout's length, in rollouts of the profile (it stops once decided), and the seeded
# resets that show the start is random (SEED-004's test).
_RESTART_ROLLOUTS = 4
_RESTART_SEEDS = 20


def _random_start(case: Case, seed: int) -> bool:
    """Whether sub-env 0's start is random: no start holds half of :data:`_RESTART_SEEDS` seeded resets or more."""
    env = case.make("probe")
    facts = vector_facts(case, env)
    groups: list[list[Any]] = []
    for k in range(_RESTART_SEEDS):
        obs, _ = vector_rollout.unpack_reset(env.reset(seed=seed + 7919 * k))
        row = split_rows(case, facts, snapshot(obs))[0]
        group = next((group for group in groups if value_difference(group[0], row) is None), None)
        if group is None:
            groups.append([row])
        else:
            group.append(row)
            if 2 * len(group) >= _RESTART_SEEDS:
                return False
    return True


def _autoresets_continue(case: Case, seed: int) -> None:
    """VEC-021 on the sub-envs' own resets: after autoresets (or partial resets), a sub-env's episodes do not all
    start where its first did. Model-free: a vector env written directly that re-creates a sub-env's generator from
    its reset seed does so in its num_envs=1 copies too, so no model shows it."""
    env = case.make("env_long")
    facts = vector_facts(case, env)
    draw, rng = sampler(facts.act_space), np.random.default_rng(seed)
    actions = [draw(rng) for _ in range(_RESTART_ROLLOUTS * case.profile.max_steps)]
    starts = Restarts(facts.n, facts.mode, facts.single_obs)
    vector_rollout.run(env, seed, actions, facts.n, facts.mode, on_record=starts.add, stop=lambda _: starts.decided)
    if not starts.restarted() or not _random_start(case, seed):
        return
    batch = copied(env.var)
    pairs = ", ".join(f"({row_source(facts.single_obs, f'{batch}[0][0]', i)}, "
                      f"{row_source(facts.single_obs, f'{batch}[{position}][0]', i)})"
                      for position, i in starts.later)
    expect_true(case, f"any(difference(first, start) is not None for first, start in [{pairs}])",
                f"every sub-env's episodes after its autoresets start where its first did ({len(starts.later)} "
                "starts)", f"{batch}[0][0]", imports=("from conformance.equality import difference",))
    sub_envs = sorted({i for _, i in starts.later})
    case.fail(f"after reset(seed={seed}), each of the {len(starts.later)} episodes that sub-envs {sub_envs} started by "
              "themselves starts where that sub-env's first episode did, while the start is random: their "
              "generators restart at each autoreset (re-created from the reset seed?) instead of continuing",
              expected="later episodes that start elsewhere (the generators continue, as a single env's do on an "
                       "unseeded reset, SEED-004)",
              actual=f"sub-env {sub_envs[0]} always starts at {summarize(starts.first[sub_envs[0]])}")


@checks("VEC-021", floor=Floor(unseeded_resets=1, steps=10), kinds=_VECTOR)
def test_unseeded_reset_continues_generators(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()
    restarts_checked: list[bool] = []

    def example(plan: Plan) -> None:
        if not restarts_checked:
            restarts_checked.append(True)
            _autoresets_continue(case, plan.seed)
        actions = plan.actions()[:_UNSEEDED_STEPS]
        seeded: list[list[VecRecord]] = []
        unseeded: list[list[VecRecord]] = []
        for var in ("env_a", "env_b"):
            env = case.make(var)
            facts = vector_facts(case, env)
            seeded.append(vector_rollout.run(env, plan.seed, [], facts.n, facts.mode))
            unseeded.append(vector_rollout.run(env, None, actions, facts.n, facts.mode))
        if first_difference(seeded[0], seeded[1]) is not None:
            case.not_checkable("two fresh instances reset with the same seed differ already (reported by VEC-008)")
        if first_difference(unseeded[0], unseeded[1]) is not None:
            # The same steps after a seeded reset must agree first: a target whose steps draw entropy is not
            # reproducible at all (VEC-008's finding), not one whose unseeded reset re-seeds.
            replays: list[list[VecRecord]] = []
            for var in ("replay_a", "replay_b"):
                env = case.make(var)
                facts = vector_facts(case, env)
                replays.append(vector_rollout.run(env, plan.seed, actions, facts.n, facts.mode))
            if first_difference(replays[0], replays[1]) is not None:
                case.not_checkable("two fresh instances given the same seed and actions differ already, without any "
                                   "unseeded reset (reported by VEC-008)")
        compare_rollouts(case, unseeded[0], unseeded[1], f"after reset(seed={plan.seed}), an unseeded reset() and "
                         "the steps after it differ between two instances: the unseeded reset took new entropy "
                         "instead of continuing the generators", ("env_a", "env_b"))

    case.explore(example, plans_for(case), max_examples=min(case.profile.max_examples, 3))


def _identical_rows(case: Case, seeded: bool) -> None:
    """VEC-022 (``seeded``) and VEC-024: fail when the sub-envs of each of :data:`_INDEPENDENCE_RESETS` resets (with
    seeds, or without: a fresh instance's first) all start from the same observation, while the start is random (at
    least :data:`_RANDOM_STARTS` distinct first rows over as many seeds). One instance takes both kinds of reset, the
    unseeded ones first (a second live instance of a vector env served from the shelf may own worker processes of
    another process)."""
    env = case.make()
    facts = vector_facts(case, env)
    case.require(facts.n >= 2, f"num_envs is {facts.n}")
    if seeded:
        case.require(sub_env_factories(case, env, facts.n) is None,
                     "the target exposes env_fns: VEC-006 checks each sub-env's seed against its own factory")
    rows: list[Any] = []
    for _ in range(0 if seeded else _INDEPENDENCE_RESETS):
        obs, _ = vector_rollout.unpack_reset(env.reset())
        rows = split_rows(case, facts, snapshot(obs))
        if any(value_difference(rows[0], row) is not None for row in rows[1:]):
            return
    firsts: list[Any] = []
    for k in range(_INDEPENDENCE_RESETS):
        obs, _ = vector_rollout.unpack_reset(env.reset(seed=7919 * (k + 1)))
        seeded_rows = split_rows(case, facts, snapshot(obs))
        if seeded and any(value_difference(seeded_rows[0], row) is not None for row in seeded_rows[1:]):
            return
        if all(value_difference(seeded_rows[0], seen) is not None for seen in firsts):
            firsts.append(seeded_rows[0])
    case.require(len(firsts) >= _RANDOM_STARTS, f"the start is not random: {_INDEPENDENCE_RESETS} seeds gave "
                                               f"{len(firsts)} distinct starts")
    how, resets = ("seeded", f"[-{_INDEPENDENCE_RESETS}:]") if seeded else ("unseeded", f"[:{_INDEPENDENCE_RESETS}]")
    if is_array(firsts[-1]):  # an array batch: the rows are obs[i] (a composite one splits in the suite's own way)
        expect_true(case, f"any(value_difference(obs[0], obs[i]) is not None for obs, _ in "
                    f"{returned(env.var)}{resets} for i in range(1, {facts.n}))",
                    f"all {facts.n} sub-envs started from the same observation in each of {_INDEPENDENCE_RESETS} "
                    f"{how} resets", imports=("from conformance.equality import value_difference",))
    case.fail(f"all {facts.n} sub-envs started from the same observation in each of {_INDEPENDENCE_RESETS} {how} "
              f"resets, while the start differs from seed to seed ({len(firsts)} distinct starts): the sub-envs "
              "are copies of one stream, not independent",
              expected="independent sub-envs (different rows for a random start)",
              actual=f"identical rows, e.g. {summarize(rows[0] if rows else firsts[-1])} in every sub-env")


@checks("VEC-022", floor=RESET, kinds=_VECTOR)
def test_sub_envs_are_independent(conformance_case: Case) -> None:
    conformance_case.once(lambda: _identical_rows(conformance_case, seeded=True))


@checks("VEC-024", floor=Floor(unseeded_resets=1), kinds=_VECTOR)
def test_unseeded_sub_envs_are_independent(conformance_case: Case) -> None:
    conformance_case.once(lambda: _identical_rows(conformance_case, seeded=False))


@checks("VEC-023", floor=ROLLOUT, kinds=_VECTOR)
def test_sub_envs_draw_their_own(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()
    models: list[VectorModel] = []

    def example(plan: Plan) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        case.require(sub_env_factories(case, env, facts.n) is None,
                     "the target exposes env_fns: VEC-018 compares it with a SyncVectorEnv over them")
        case.require(not facts.jax, "the target declares metadata['jax']: its num_envs=1 copies are not built (each "
                                    "would compile the target anew)")
        actions = plan.actions()
        with model_envs(case, env, facts) as copies:
            refused = refusal(case)
            case.require(copies is not None and refused is None,
                         f"its own num_envs=1 copies are no model of its sub-envs: {refused}")
            model = new_model(facts, copies)
            models.append(model)

            def on_record(record: VecRecord) -> None:
                for problem in feed(model, facts, record):
                    if OWN in problem.rules:

                        def baseline() -> list[VecRecord]:
                            again = case.make("env_again")
                            return run_plan(case, again, vector_facts(case, again), plan, actions)

                        reproducibility_gate(case, baseline, baseline(), vector=True)
                        expect_prediction(case, problem)
                        case.fail(f"{problem.where}: {problem.what}: sub-envs seeded as copies (s + i) do not go on "
                                  "as their copies (randomness shared between sub-envs?)",
                                  expected=problem.expected, actual=problem.actual)

            run_plan(case, env, facts, plan, actions, on_record=on_record)

    def then() -> None:
        refused = refusal(case)
        case.require(refused is None, f"its own num_envs=1 copies are no model of its sub-envs: {refused}")
        case.require(any(model.ever_exact for model in models),
                     models[-1].why_not_exact() if models else "no example ran")

    case.explore(example, plans_for(case), then=then)
