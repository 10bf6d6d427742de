"""AUTORESET rules: each declared mode's exact semantics, against a model built from single-env semantics.

The mode is ``metadata["autoreset_mode"]`` (an enum of any library or its string value; undeclared means
``"NextStep"``). Rules of the other modes skip as not applicable. Exact predictions need single envs for the
sub-envs: the target's sub-env factories (``env_fns``), or for a vector env written directly its own ``num_envs=1``
copies, once a seeded reset shows they model it (:mod:`conformance._kit.own_model`). Without either, only the
structural predictions of the model are checked (masks, shapes, a reset step's zero reward), and rules that are only
observable exactly are not checkable, with the reason: AUTORESET-002 among them, since a ``final_obs`` equal to the
observation the step returned is no evidence that it is the next episode's first (issue 37 item 1).

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule

from conformance._kit.api import (
    FACT, GENERIC, OWN, RESET, ROLLOUT, SUB_ENV_ENDS, CallResult, Case, Equal, Floor, Handle, Holds, Plan, Problem,
    SplitError, TargetError, VecFacts, VecRecord, VectorModel, begin_program, checks, describe_exception, difference,
    drive, elements, end_program, ended_flags, expect_prediction, expect_raises, expect_same_results, feed,
    first_difference, is_mapping, model_envs, new_model, plans_for, program_length, promised_factories, read, refusal,
    replace_rows, replay_calls, reproducibility_gate, require_mode, row_source, run_machine, run_plan, sampler,
    shared_stream, snapshot, source, split, static_facts, sub_env_factories, summarize, type_name, value_difference,
    vector_facts, vector_rollout,
)
from gymspec import AutoresetMode, autoreset_mode_of

_VECTOR = ("vector",)
_NEXT, _SAME, _DISABLED = AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED
_SEEDS = st.integers(0, 2**31)
# How often the AUTORESET-009 driver resets a random extra set of sub-envs after a step.
_EXTRA_RESET_RATE = 0.3


def _fail(case: Case, problem: Problem) -> NoReturn:
    expect_prediction(case, problem)
    derived = [rule_id for rule_id in problem.rules if rule_id != case.rule.id]
    tags = f" [as {', '.join(derived)} states]" if derived and case.rule.id == "AUTORESET-012" else ""
    case.fail(f"{problem.where}: {problem.what}{tags}", expected=problem.expected, actual=problem.actual)


def _gate(case: Case, plan: Plan, actions: list[Any]) -> None:
    """The root-cause gate before a disagreement is blamed on the declared mode: fresh instances given the plan's
    rollout must reproduce each other (a target that does not is VEC-008's finding; its model, built from the same
    factories, cannot predict it)."""

    def baseline() -> list[VecRecord]:
        again = case.make("env_again")
        return run_plan(case, again, vector_facts(case, again), plan, actions)

    reproducibility_gate(case, baseline, baseline(), vector=True)


def _shared_instead(case: Case, model: VectorModel, facts: VecFacts, problem: Problem) -> None:
    """Stop as not checkable when a disagreement with a copy (a vector env written directly) is explained by a
    generator the sub-envs share, shown model-free (:func:`~conformance._kit.vector_checks.shared_stream`): that is
    VEC-023's finding, not an autoreset's, however many steps the sub-env agreed with its copy before."""
    if model.own is None or OWN in problem.rules or not shared_stream(case, facts):
        return
    case.not_checkable(f"{problem.where}: {problem.what}; but the sub-envs draw from one generator (the first "
                       f"{facts.n} sub-envs of a num_envs={facts.n + 1} construction given the same seed and actions "
                       "run otherwise), which explains it (reported by VEC-023)")


def _disagreement(case: Case, plan: Plan, actions: list[Any], problem: Problem,
                  model: VectorModel | None = None, facts: VecFacts | None = None) -> NoReturn:
    """Fail on a disagreement with the model, once the target is known to reproduce itself (:func:`_gate`) and the
    sub-envs are not known to share a generator (:func:`_shared_instead`)."""
    if model is not None and facts is not None:
        _shared_instead(case, model, facts, problem)
    _gate(case, plan, actions)
    _fail(case, problem)


def _no_model(case: Case) -> NoReturn:
    refused = refusal(case)
    if refused is not None:
        case.not_checkable(f"the target exposes no sub-env factories (env_fns), and its own num_envs=1 copies are no "
                           f"model of its sub-envs ({refused}); only exact predictions observe this rule")
    case.not_checkable("the target exposes no sub-env factories (env_fns) and no num_envs=1 copies model it, so the "
                       "sub-envs' own results are unknown; only exact predictions observe this rule")


def _exact_seen(case: Case, models: list[VectorModel]) -> None:
    """After every example: not checkable when no example predicted any sub-env exactly (never a silent pass)."""
    if models and not any(model.ever_exact for model in models):
        case.not_checkable(f"{models[-1].why_not_exact()}; only exact predictions observe this rule")


@checks("AUTORESET-001", floor=FACT, kinds=_VECTOR)
def test_declared_mode_is_known(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        metadata = read(case, case.make(), "metadata", "VEC-001")
        if not is_mapping(metadata) or "autoreset_mode" not in metadata:
            return  # undeclared: VEC-004's subject
        value = metadata["autoreset_mode"]
        if autoreset_mode_of(value) is None:
            case.fail("metadata['autoreset_mode'] names no autoreset mode",
                      expected="'NextStep', 'SameStep' or 'Disabled' (or an enum with one of these values)",
                      actual=f"{type_name(value)}: {value!r}",
                      assertion=Holds("autoreset_mode_of(env.metadata['autoreset_mode']) is not None",
                                      shown="env.metadata['autoreset_mode']",
                                      imports=("from gymspec import autoreset_mode_of",)))

    case.once(body)


def _model_rule(case: Case, *modes: AutoresetMode, exact: bool = True) -> None:
    """Rollouts followed by the model; the item fails on the first disagreement that names its rule."""
    if modes:
        require_mode(case, *modes)
    models: list[VectorModel] = []

    def example(plan: Plan) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        actions = plan.actions()
        with model_envs(case, env, facts) as subs:
            if exact and subs is None:
                _no_model(case)
            model = new_model(facts, subs)
            models.append(model)

            def on_record(record: VecRecord) -> None:
                for problem in feed(model, facts, record):
                    if case.rule.id in problem.rules:
                        _disagreement(case, plan, actions, problem, model, facts)

            run_plan(case, env, facts, plan, actions, on_record=on_record)

    case.explore(example, plans_for(case), then=(lambda: _exact_seen(case, models)) if exact else None)


@checks("AUTORESET-002", floor=SUB_ENV_ENDS, kinds=_VECTOR)
def test_final_step_is_real(conformance_case: Case) -> None:
    # Only a single env says what a sub-env's final step returns: a final_obs equal to the observation the step
    # returned is no evidence (an env may start its next episode where the last one ended), so without a model the
    # rule is not checkable, in every mode.
    _model_rule(conformance_case, _NEXT, _SAME, _DISABLED)


def _resetting_rows(records: list[VecRecord], n: int) -> dict[int, list[int]]:
    """Step position → the sub-envs a ``NextStep`` env resets on that step (they ended on the step before)."""
    rows: dict[int, list[int]] = {}
    previous: Any = None
    for position, record in enumerate(records):
        if record.kind != "step":
            previous = None
            continue
        if previous is not None and previous.any():
            rows[position] = np.flatnonzero(previous).tolist()
        previous = ended_flags(record.terminations, record.truncations, n)
    return rows


@checks("AUTORESET-003", floor=SUB_ENV_ENDS, kinds=_VECTOR)
def test_next_step_resets_after_end(conformance_case: Case) -> None:
    case = conformance_case
    require_mode(case, _NEXT)
    deterministic = not case.probe().nondeterministic

    def example(plan: Plan) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        actions = plan.actions()
        with model_envs(case, env, facts) as subs:
            model = new_model(facts, subs)

            def on_record(record: VecRecord) -> None:
                for problem in feed(model, facts, record):
                    if case.rule.id in problem.rules:
                        _disagreement(case, plan, actions, problem, model, facts)

            records = run_plan(case, env, facts, plan, actions, on_record=on_record)
        if not deterministic:
            return
        # The action of a sub-env being reset is ignored: other actions there must change nothing.
        alternative, rng = sampler(facts.act_space), np.random.default_rng(plan.tail_seed ^ 0xA5)
        changed = list(actions)
        step_positions = [index for index, record in enumerate(records) if record.kind == "step"]
        resetting = _resetting_rows(records, facts.n)
        if not resetting:
            return
        for position, rows in resetting.items():
            k = step_positions.index(position)
            changed[k] = replace_rows(facts.single_act, actions[k], alternative(rng), rows)
        again = run_plan(case, case.make("env_b"), facts, plan, changed)
        found = first_difference(records, again)
        if found is not None:
            _gate(case, plan, actions)
            index, what = found
            expect_same_results(case, ("env", "env_b"), records, again, "other actions for the sub-envs being reset "
                                "changed the outcome: their actions were not ignored")
            case.fail(f"other actions for the sub-envs being reset changed the outcome at position {index} "
                      f"({what}): their actions were not ignored",
                      expected=f"env: {summarize(records[index].values()) if index < len(records) else '(ended)'}",
                      actual=f"env_b: {summarize(again[index].values()) if index < len(again) else '(ended)'}")

    case.explore(example, plans_for(case))


@checks("AUTORESET-004", floor=SUB_ENV_ENDS, kinds=_VECTOR)
def test_next_step_steps_the_others(conformance_case: Case) -> None:
    _model_rule(conformance_case, _NEXT)


@checks("AUTORESET-005", floor=SUB_ENV_ENDS, kinds=_VECTOR)
def test_same_step_resets_within_step(conformance_case: Case) -> None:
    _model_rule(conformance_case, _SAME)


@checks("AUTORESET-006", floor=SUB_ENV_ENDS, kinds=_VECTOR)
def test_same_step_final_obs(conformance_case: Case) -> None:
    _model_rule(conformance_case, _SAME, exact=False)


@checks("AUTORESET-007", floor=SUB_ENV_ENDS, kinds=_VECTOR)
def test_same_step_final_info(conformance_case: Case) -> None:
    _model_rule(conformance_case, _SAME, exact=False)


def _reset_prediction(case: Case, sub: Handle) -> Any:
    """The observation sub-env ``sub`` would start its next episode with (from a deep copy), or ``None``."""
    try:
        clone = case.watchdog.call("copy.deepcopy(sub)", lambda: copy.deepcopy(sub.raw))
        obs, _ = vector_rollout.unpack_reset(case.watchdog.call("clone.reset", clone.reset))
        return snapshot(obs)
    except Exception:  # noqa: BLE001 - no prediction; the item then relies on the ending step's check
        return None


_STEPPED_AGAIN = "ended sub-envs stepped again"


@checks("AUTORESET-008", floor=Floor(judged={_STEPPED_AGAIN: 1}), kinds=_VECTOR)
def test_disabled_never_resets_by_itself(conformance_case: Case) -> None:
    case = conformance_case
    require_mode(case, _DISABLED)
    models: list[VectorModel] = []

    def example(plan: Plan) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        with model_envs(case, env, facts) as subs:
            if subs is None:
                _no_model(case)
            model = new_model(facts, subs)
            models.append(model)
            last: list[VecRecord] = []

            def on_record(record: VecRecord) -> None:
                last[:] = [record]
                for problem in feed(model, facts, record):
                    if case.rule.id in problem.rules:
                        _disagreement(case, plan, plan.actions(), problem, model, facts)

            def stop(record: VecRecord) -> bool:
                return bool(ended_flags(record.terminations, record.truncations, facts.n).any())

            run_plan(case, env, facts, plan, on_record=on_record, stop=stop)
            if not last or last[0].kind != "step" or not stop(last[0]):
                return
            ended = np.flatnonzero(ended_flags(last[0].terminations, last[0].truncations, facts.n)).tolist()
            predicted = {i: _reset_prediction(case, subs[i]) for i in ended if model.synced[i]}
            actions = sampler(facts.act_space)(np.random.default_rng(plan.tail_seed))
            case.judged(_STEPPED_AGAIN)
            try:
                # Unrecorded: the reproducer's assertion makes this step itself (a fixed env may raise there).
                result = env.call("step", actions, record=False)
            except TargetError:
                return  # refusing to step an ended sub-env keeps it ended
            _check_not_reset(case, facts, vector_rollout.unpack_step(result), predicted, source(actions))

    case.explore(example, plans_for(case), then=lambda: _exact_seen(case, models))


def _check_not_reset(case: Case, facts: VecFacts, result: tuple[Any, ...], predicted: dict[int, Any],
                     actions: str) -> None:
    obs, rewards, terms, truncs, _ = result
    try:
        rows = split(facts.single_obs, obs, facts.n, "observations")
    except SplitError:
        return
    for i, reset_obs in predicted.items():
        if reset_obs is None:
            continue
        quiet = float(np.asarray(rewards).reshape(-1)[i]) == 0.0 and not (
            bool(np.asarray(terms).reshape(-1)[i]) or bool(np.asarray(truncs).reshape(-1)[i]))
        if quiet and value_difference(rows[i], reset_obs) is None:
            # The step may raise (the sub-env stays ended) or continue the ended episode; only a fresh start with
            # reward 0 and both flags false is the finding.
            row = row_source(facts.single_obs, "latest[0]", i)
            fresh = (f"value_difference({row}, {source(reset_obs)}) is None "
                     f"and float(np.asarray(latest[1]).reshape(-1)[{i}]) == 0.0 and not "
                     f"np.asarray(latest[2]).reshape(-1)[{i}] and not np.asarray(latest[3]).reshape(-1)[{i}]")
            step = ("raised = latest = None", "try:", f"    latest = env.step({actions})",
                    "except Exception as error:  # noqa: BLE001 - refusing the step is allowed", "    raised = error")
            case.fail(f"sub-env {i} ended, was not reset by the caller, and the next step returned a fresh "
                      "episode's first observation with reward 0 and both flags false: it reset by itself",
                      expected="the sub-env stays ended (the step raises, or continues the ended episode)",
                      actual=f"observation {summarize(rows[i])} (what a reset gives), reward 0.0",
                      assertion=Holds(f"raised is not None or not ({fresh})", shown=row, given=step,
                                      imports=("from conformance.equality import value_difference",),
                                      problem=f"sub-env {i} ended, was not reset by the caller, and the next step "
                                      "returned a fresh episode's first observation: it reset by itself"))


@checks("AUTORESET-009", floor=Floor(steps=30, autoresets=2), kinds=_VECTOR)
def test_disabled_partial_reset(conformance_case: Case) -> None:
    case = conformance_case
    require_mode(case, _DISABLED)

    def example(plan: Plan) -> None:
        env = case.make()
        facts = vector_facts(case, env)
        rng = np.random.default_rng(plan.tail_seed ^ 0x9)
        with model_envs(case, env, facts) as subs:
            model = new_model(facts, subs)
            obs, info = vector_rollout.unpack_reset(env.reset(seed=plan.seed))
            batches = plan.actions()
            _check(case, model.reset(plan.seed, snapshot(obs), snapshot(info), "the reset at position 0"), plan,
                   batches, model, facts)
            for position, actions in enumerate(batches, start=1):
                step = vector_rollout.unpack_step(env.step(actions))
                _check(case, model.step(actions, facts.single_act, snapshot(step), f"the step at position {position}"),
                       plan, batches, model, facts)
                mask = ended_flags(step[2], step[3], facts.n) | (rng.random(facts.n) < _EXTRA_RESET_RATE)
                if mask.any():
                    obs, info = vector_rollout.unpack_reset(env.reset(options={"reset_mask": mask.copy()}))
                    _check(case, model.partial(mask, snapshot(obs), snapshot(info),
                                               f"the partial reset after position {position}"), plan, batches, model,
                           facts)
                drive(env, batches, position)

    case.explore(example, plans_for(case))


def _check(case: Case, problems: list[Problem], plan: Plan, actions: list[Any], model: VectorModel,
           facts: VecFacts) -> None:
    for problem in problems:
        if case.rule.id in problem.rules:
            _disagreement(case, plan, actions, problem, model, facts)


def _malformed_masks(n: int) -> st.SearchStrategy[Any]:
    flags = st.lists(st.booleans(), min_size=n, max_size=n)
    return st.one_of(
        flags,
        flags.map(lambda f: np.array(f, dtype=np.int64)),
        flags.map(lambda f: np.array(f, dtype=np.float64)),
        hnp.arrays(np.bool_, st.sampled_from([(n + 1,), (n, 1), (1, n), ()])),
        st.just(np.ones(max(n - 1, 0), dtype=np.bool_)),
        st.booleans(),
    )


@checks("AUTORESET-010", floor=RESET, kinds=_VECTOR)
def test_malformed_reset_mask_rejected(conformance_case: Case) -> None:
    case = conformance_case
    n = static_facts(case).n

    def example(mask: Any) -> None:
        env = case.make()
        promised_factories(case, env, n)  # reset_mask is SyncVectorEnv's and AsyncVectorEnv's
        env.reset(seed=0)

        def expect() -> None:
            expect_raises(case, f"env.reset(options={{'reset_mask': {source(mask)}}})", "reset accepted a malformed "
                          "reset_mask", accepted="isinstance(raised, (TypeError, ValueError))")

        try:
            # Unrecorded: the reproducer's assertion makes this call itself (a fixed env raises there).
            result = env.call("reset", options={"reset_mask": mask}, record=False)
        except TargetError as error:
            if not isinstance(error.error, (TypeError, ValueError)):
                expect()
                case.fail(f"reset(options={{'reset_mask': {summarize(mask)}}}) raised "
                          f"{describe_exception(error.error)}", expected="TypeError or ValueError",
                          actual=type_name(error.error))
            return
        expect()
        case.fail(f"reset accepted the malformed reset_mask {summarize(mask)}",
                  expected=f"TypeError or ValueError (a NumPy bool array of shape ({n},) is required)",
                  actual=f"returned {summarize(result)}")

    case.explore(example, _malformed_masks(n), max_examples=min(case.profile.max_examples, 10))


@checks("AUTORESET-011", floor=RESET, kinds=_VECTOR)
def test_options_not_mutated(conformance_case: Case) -> None:
    case = conformance_case
    n = static_facts(case).n

    def example(mask: Any, seed: int) -> None:
        env = case.make()
        promised_factories(case, env, n)  # reset_mask is SyncVectorEnv's and AsyncVectorEnv's
        env.reset(seed=seed)
        options = {"reset_mask": mask}
        before = {"reset_mask": mask.copy()}
        try:
            # Unrecorded: the reproducer's assertion makes this call itself, on an options dict it keeps.
            env.call("reset", options=options, record=False)
        except TargetError as error:
            case.not_checkable(f"{error}: this target does not take a reset_mask here")
        found = difference(options, before, "options")
        if found is not None:
            literal = f"{{'reset_mask': {source(before['reset_mask'])}}}"
            case.fail(f"reset changed the caller's options dict ({found})", expected=summarize(before),
                      actual=summarize(options),
                      assertion=Equal("options", literal, given=(f"options = {literal}", "env.reset(options=options)"),
                                      problem="reset changed the caller's options dict"))

    case.explore(example, hnp.arrays(np.bool_, (n,)).filter(lambda m: bool(m.any())), _SEEDS,
            max_examples=min(case.profile.max_examples, 5))


def _machine(case: Case, facts: VecFacts) -> type[RuleBasedStateMachine]:
    mode, n = facts.mode, facts.n
    seeds = st.one_of(st.none(), _SEEDS)

    class AutoresetMachine(RuleBasedStateMachine):
        """Steps, full resets and (under ``"Disabled"``) partial resets, in any order, against the model."""

        def __init__(self) -> None:
            super().__init__()
            begin_program(case)
            self.position = 0
            try:
                self.env = case.make()
            except TargetError as error:
                case.not_checkable(f"{error} (reported by the construction check)")
            self.facts = vector_facts(case, self.env)
            self.models = model_envs(case, self.env, self.facts)
            self.model: VectorModel = new_model(self.facts, self.models.__enter__())
            # The program so far and what the target returned, for the root-cause gate.
            self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
            self.results: list[CallResult] = []

        def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
            self.calls.append((method, snapshot(args), snapshot(kwargs)))
            try:
                result = self.env.call(method, *args, **kwargs)
            except TargetError as error:
                self.results.append(CallResult(method, f"raised {describe_exception(error.error)}"))
                self._gate()
                # The replayed call raises it too: no reproducer assertion to add.
                case.fail(f"{error.call} raised {describe_exception(error.error)} at a point the mode allows",
                          expected="the call returns", actual=describe_exception(error.error))
            self.results.append(CallResult(method, snapshot(result)))
            return result

        def _gate(self) -> None:
            """A disagreement is the mode's only when the target replays this program the same way (a target
            that does not reproduce itself is VEC-008's finding, not a broken autoreset). What comes before the
            first seeded reset is drawn from entropy: replayed, not compared; a program without a seeded reset is
            gated on its steps after ``reset(seed=0)``."""

            def again() -> Handle:
                return case.make("env_again")

            calls = list(self.calls)
            seeded = next((index for index, (method, _, kwargs) in enumerate(calls)
                           if method == "reset" and kwargs.get("seed") is not None), None)
            if seeded is None:
                calls = [("reset", (), {"seed": 0}), *(call for call in calls if call[0] == "step")]
                reproducibility_gate(case, lambda: replay_calls(again, calls), replay_calls(again, calls),
                                     vector=True)
            else:
                reproducibility_gate(case, lambda: replay_calls(again, calls)[seeded:], self.results[seeded:],
                                     vector=True)

        def _report(self, problems: list[Problem]) -> None:
            self.position += 1
            # A disagreement with a copy that a shared generator explains is VEC-023's (a SHOULD), not this rule's.
            problems = [problem for problem in problems if GENERIC in problem.rules]
            if problems:
                _shared_instead(case, self.model, self.facts, problems[0])
                self._gate()
                _fail(case, problems[0])

        @initialize(seed=seeds)
        def first_reset(self, seed: int | None) -> None:
            self.full_reset(seed)

        @rule(seed=seeds)
        def full_reset(self, seed: int | None) -> None:
            obs, info = vector_rollout.unpack_reset(self._call("reset", **({} if seed is None else {"seed": seed})))
            where = f"the reset at position {self.position}"
            self._report(self.model.reset(seed, snapshot(obs), snapshot(info), where))

        @precondition(lambda self: not (mode is _DISABLED and any(self.model.ended)))
        @rule(actions=elements(facts.act_space))
        def step(self, actions: Any) -> None:
            result = vector_rollout.unpack_step(self._call("step", actions))
            where = f"the step at position {self.position}"
            self._report(self.model.step(actions, self.facts.single_act, snapshot(result), where))

        @precondition(lambda self: mode is _DISABLED)
        @rule(mask=hnp.arrays(np.bool_, (n,)).filter(lambda m: bool(m.any())))
        def partial_reset(self, mask: Any) -> None:
            obs, info = vector_rollout.unpack_reset(self._call("reset", options={"reset_mask": mask.copy()}))
            where = f"the partial reset at position {self.position}"
            self._report(self.model.partial(mask, snapshot(obs), snapshot(info), where))

        def teardown(self) -> None:
            self.models.__exit__(None, None, None)
            end_program(case)

    return AutoresetMachine


@checks("AUTORESET-012", floor=ROLLOUT, kinds=_VECTOR, owns=("reset", "step"))
def test_agrees_with_model_in_any_interleaving(conformance_case: Case) -> None:
    case = conformance_case
    facts = static_facts(case)

    def shared() -> None:
        # Decided before the programs run, outside Hypothesis: a program that meets a disagreement only reads it
        # (its constructions inside a program made Hypothesis see its data generation change).
        env = case.make("probe")
        if sub_env_factories(case, env, facts.n) is None:
            shared_stream(case, facts)

    try:
        case.watchdog.run(shared)
    except TargetError:
        pass  # the construction check and the programs report what the target raised
    machine = _machine(case, facts)
    run_machine(case, machine, first=_scripted(case, machine, facts))


_RESET_EVERY = 25  # the scripted program's full resets: one every this many calls


def _scripted(case: Case, machine: type[RuleBasedStateMachine], facts: VecFacts) -> Callable[[], None]:
    """The program run before Hypothesis' ones: a seeded reset, then the program's length of steps (every ended
    sub-env reset by a partial reset first under ``"Disabled"``), with a full unseeded reset now and then; never fewer
    steps than the rule's floor. Hypothesis' first program is its simplest, which may take no step at all."""
    # Counted in steps, not calls: under "Disabled" a sub-env whose episodes last a step or two (a card game) needs a
    # partial reset before nearly every step, so a count of calls would leave the floor's steps unmet.
    steps = max(program_length(case), case.floor.steps)

    def program() -> None:
        run: Any = machine()
        draw, rng = sampler(facts.act_space), np.random.default_rng(0)
        try:
            run.first_reset(0)
            taken, call = 0, 0
            while taken < steps and call < 4 * steps:  # the cap: a target whose every step ends every sub-env
                call += 1
                ended = np.asarray(run.model.ended, dtype=bool)
                if call % _RESET_EVERY == 0:
                    run.full_reset(None)
                elif facts.mode is _DISABLED and ended.any():
                    run.partial_reset(ended)
                else:
                    run.step(draw(rng))
                    taken += 1
        finally:
            run.teardown()

    return program
