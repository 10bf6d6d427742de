"""ENV rules about what an episode end means and what ``step`` does with its argument: the declared step limit is a
truncation, the two flags keep their meanings, ``step`` never restarts the episode by itself, and the caller's action
comes back unchanged.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from conformance._kit.api import (
    ROLLOUT, Case, Floor, Handle, Holds, NotCheckable, Plan, Record, TargetError, Unequal, View, Watch, checks,
    describe_exception, difference, expect_equal, plans_for, returned, rollout, snapshot, source, summarize,
    value_difference, watcher,
)

# ENV-023's patterns: how many terminal steps, all with both flags true, and how many episodes reaching the limit,
# all terminated there, make the pattern (a correct env may coincide once or twice, never on every one).
_TERMINAL_ENDS = 3
_LIMIT_ENDS = 2
_AT_LIMIT = "episodes at the declared limit"


def _flag(value: Any) -> bool | None:
    try:
        return bool(value)
    except Exception:  # noqa: BLE001 - ENV-013/ENV-014 report flags that are no truth values
        return None


def _declared_limit(case: Case, env: Handle) -> int | None:
    """``env.spec.max_episode_steps`` when the env declares a positive int limit, else ``None``."""
    try:
        spec = env.get("spec") if env.has("spec") else None
    except TargetError:
        return None
    limit = getattr(spec, "max_episode_steps", None)
    if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
        return limit
    return None


@checks("ENV-022", floor=Floor(judged={_AT_LIMIT: 1}))
def test_declared_limit_is_truncation(conformance_case: Case) -> None:
    case = conformance_case
    case.require(case.target.env_id is None, "the target is made from a registered id: REG-004 checks that the "
                                             "registry truncates at the spec's limit")

    def example(plan: Plan) -> None:
        env = case.make()
        limit = _declared_limit(case, env)
        case.require(limit is not None, "the env declares no step limit (spec.max_episode_steps)")
        reach = limit or 0
        actions = plan.actions()
        if len(actions) == case.profile.max_steps and len(actions) < reach:
            # The full example (Hypothesis' first) runs one episode to the limit, however long.
            actions.more(reach - len(actions))
        if len(actions) < reach:
            return  # a rollout shorter than the limit cannot reach it
        records = rollout.run(env, plan.seed, actions[:reach], max_episodes=1)
        last = records[-1]
        if last.kind != "step" or last.index != reach:
            case.exhausted(f"an episode ended before the declared limit of {limit} steps")
            return  # nothing to see in this example
        case.judged(_AT_LIMIT)
        if _flag(last.truncated) is not True:
            case.fail(f"the {limit}-th step of an episode reached spec.max_episode_steps={limit} with truncated "
                      f"{last.truncated!r} (terminated {last.terminated!r}): the declared limit was not reported as "
                      "a truncation", expected=f"truncated True on step {limit} (the limit is outside the MDP)",
                      actual=f"terminated {last.terminated!r}, truncated {last.truncated!r}",
                      assertion=Holds(f"bool({returned(env.var)}[-1][3])", shown=f"{returned(env.var)}[-1][2:4]",
                                      problem=f"the {limit}-th step reached "
                                      f"spec.max_episode_steps={limit} without truncated True (terminated, truncated)"))

    case.explore(example, plans_for(case), max_examples=min(case.profile.max_examples, 3))


class _FlagMeanings(Watch):
    """ENV-023: over one rollout, not every terminal step also truncated, and not every episode that reaches the
    declared limit terminated there."""

    def __init__(self, view: View) -> None:
        super().__init__(view)
        self.limit = _declared_limit(view.case, view.env)
        self.steps = 0
        self.terminal: list[Record] = []
        self.at_limit: list[Record] = []

    def record(self, record: Record) -> None:
        if record.kind == "reset":
            self.steps = 0
            return
        self.steps += 1
        at_limit = self.limit is not None and self.steps == self.limit
        # A terminal state on the declared limit's step sets both flags legally; every episode ending there is the
        # second pattern's concern, so the first counts the terminal steps before the limit (or with none declared).
        if _flag(record.terminated) and not at_limit:
            self.terminal.append(record)
        if at_limit:
            self.at_limit.append(record)
            self.view.case.judged(_AT_LIMIT)

    def _expect(self, records: list[Record], condition: str, problem: str) -> None:
        """End the reproducer with ``condition`` (over ``result``) holding for one of ``records``' results, the
        positions written out."""
        view = self.view
        positions = tuple(record.index for record in records)
        view.case.expect(
            f"ends = [results[{view.env.var!r}][position] for position in {positions!r}]",
            f"assert any({condition} for result in ends), {f'{view.rule.id}: {problem}: '!r} + repr(ends)",
        )

    def end(self) -> None:
        terminal, at_limit = self.terminal, self.at_limit
        if len(terminal) >= _TERMINAL_ENDS and all(_flag(r.truncated) for r in terminal):
            where = ", ".join(str(r.index) for r in terminal)
            self._expect(terminal, "not (bool(result[2]) and bool(result[3]))",
                         f"every terminal step of the rollout (positions {where}) also reported truncated")
            self.view.fail(f"every terminal step of the rollout (positions {where}) also reported truncated: the "
                           "flags carry one meaning between them",
                           expected="terminated for terminal states of the MDP, truncated for ends outside it "
                                    "(a time limit)",
                           actual=f"terminated True and truncated True on all {len(terminal)} terminal steps")
        if len(at_limit) >= _LIMIT_ENDS and all(_flag(r.terminated) for r in at_limit):
            where = ", ".join(str(r.index) for r in at_limit)
            self._expect(at_limit, "not bool(result[2])", f"every episode that reached the declared limit "
                         f"spec.max_episode_steps={self.limit} reported terminated there (positions {where})")
            self.view.fail(f"every episode that reached the declared limit spec.max_episode_steps={self.limit} "
                           f"reported terminated there (positions {where}): a time limit reported as a terminal "
                           "state", expected="terminated False at the limit (truncated True)",
                           actual=f"terminated True on all {len(at_limit)} steps at the limit")


# ENV-023's patterns need terminal steps before the limit, or episodes that reach it; the rollouts go on until either
# pattern has its count (an env that never terminates reaches the limit; one that always does, terminal steps).
_PATTERNS = Floor(steps=30, terminated=_TERMINAL_ENDS) | Floor(steps=30, judged={_AT_LIMIT: _LIMIT_ENDS})
test_flags_keep_their_meanings = watcher("ENV-023", _FlagMeanings, floor=_PATTERNS,
                                         name="test_flags_keep_their_meanings")


def _moved(records: list[Record]) -> bool:
    """Whether the episode's observations change at all (a constant observation tells no start from an end)."""
    first = records[0].obs_copy
    return any(value_difference(first, record.obs_copy) is not None for record in records[1:])


def _start_before(case: Case, var: str, seed: int, actions: list[Any]) -> tuple[Handle, Handle]:
    """A fresh instance ``var`` reset with ``seed`` and given ``actions``, and a deep copy of it taken then (named
    ``clone`` for ``again``, else ``<var>_clone``): the copy's unseeded reset says what a reset from that state starts
    with."""
    env = case.make(var)
    env.reset(seed=seed)
    for action in actions:
        env.step(action)
    try:
        made = case.watchdog.call(f"copy.deepcopy({var})", lambda: copy.deepcopy(env.raw))
    except Exception as exc:  # noqa: BLE001 - no copy, no prediction of the env's next start
        case.not_checkable(f"the env cannot be deep-copied ({describe_exception(exc)}), which the check needs to "
                           "predict the start an internal reset would draw")
    name = "clone" if var == "again" else f"{var}_clone"
    return env, case.wrap(made, name, f"copy.deepcopy({var})", imports=("import copy",))


def _step_draws_as_reset(case: Case, seed: int, actions: list[Any], position: int) -> bool:
    """Whether the ``position``-th step of the episode (one that did not end it) also returned what an unseeded
    reset from the state before it starts with: then step and reset draw the same next value by design (a contextual
    bandit's observations are fresh draws from its generator), and a terminal step that does so shows nothing."""
    control, clone = _start_before(case, "control", seed, actions[: position - 1])
    obs = rollout.unpack_step(control.step(actions[position - 1]))[0]
    start, _ = rollout.unpack_reset(clone.reset())
    return value_difference(snapshot(obs), snapshot(start)) is None


# ENV-024: how many perturbations of the generator the terminal observation must follow (a correct env whose terminal
# observation equals a reset's draw by chance, one of six cells say, does so again with probability 1/6 each time).
_PERTURBATIONS = 6


def _perturb(generator: np.random.Generator, steps: int) -> None:
    """Move ``generator`` to another state, ``steps`` jumps ahead: every kind of draw then differs (advancing it by
    a few doubles would leave a buffered 32-bit half, which the next small ``integers`` draw uses, unchanged)."""
    bits = generator.bit_generator
    jumped = getattr(bits, "jumped", None)
    if callable(jumped):
        ahead: Any = jumped(steps)
        bits.state = ahead.state
        return
    generator.random(steps)
    state = dict(bits.state)
    if "has_uint32" in state:
        state["has_uint32"] = 0
        bits.state = state


def _follows_the_draw(case: Case, before: Any, action: Any, start: Any) -> bool:
    """Whether the terminal observation keeps being what a reset draws when the env's generator is moved on first:
    from copies of the state before the terminal step (``before``), each with ``np_random`` advanced by a few draws,
    the step's observation must equal the copy's own reset draw every time, and some draw must differ from
    ``start`` (the unperturbed one). A start the generator does not decide (a fixed start), or an env without
    ``np_random``, cannot show it: an episode may end where every episode starts."""
    decided = False
    for draws in range(1, _PERTURBATIONS + 1):
        try:
            moved = case.watchdog.call("copy.deepcopy(env)", lambda: copy.deepcopy(before))
            generator = getattr(moved, "np_random", None)
            if not isinstance(generator, np.random.Generator):
                return False
            _perturb(generator, draws)
            twin = case.watchdog.call("copy.deepcopy(env)", lambda: copy.deepcopy(moved))
            obs = rollout.unpack_step(case.watchdog.call("env.step", lambda: moved.step(action)))[0]
            drawn = rollout.unpack_reset(case.watchdog.call("env.reset", lambda: twin.reset()))[0]
        except Exception:  # noqa: BLE001 - a copy that cannot step or reset shows nothing
            return False
        if value_difference(snapshot(obs), snapshot(drawn)) is not None:
            return False
        decided = decided or value_difference(snapshot(drawn), start) is not None
    return decided


_REPLAYED = "terminal steps replayed"


@checks("ENV-024", floor=Floor(judged={_REPLAYED: 1}))
def test_no_reset_inside_step(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = plan.actions()
        env = case.make("first")
        records = rollout.run(env, plan.seed, actions, max_episodes=1)
        last = records[-1]
        if last.kind == "step" and _flag(last.truncated) and not _flag(last.terminated):
            case.exhausted("an episode ended truncated, not terminated")
        if last.kind != "step" or _flag(last.terminated) is not True or not _moved(records):
            return  # no terminating step in this example, or observations that cannot tell a start from an end
        length = last.index
        again, clone = _start_before(case, "again", plan.seed, actions[: length - 1])
        try:
            before = case.watchdog.call("copy.deepcopy(again)", lambda: copy.deepcopy(again.raw))
        except Exception:  # noqa: BLE001 - _start_before copied it once; a second copy that fails shows nothing
            return
        obs, _, terminated, _, _ = rollout.unpack_step(again.step(actions[length - 1]))
        end = snapshot(obs)
        if value_difference(end, last.obs_copy) is not None or _flag(terminated) is not True:
            case.not_checkable("the env does not replay its episode (reported by SEED-001/SEED-002)")
        start, _ = rollout.unpack_reset(clone.reset())
        case.judged(_REPLAYED)
        if value_difference(end, snapshot(start)) is not None:
            return
        # Equal is evidence only where the terminal observation follows the reset's draw when the generator moves
        # (not a chance match, nor an episode ending where every one starts), and where a step that ends nothing does
        # not return a reset's start too (the step before the terminal one is that control; an episode of one step
        # has none, and shows nothing).
        if not _follows_the_draw(case, before, actions[length - 1], snapshot(start)):
            return
        if length < 2 or _step_draws_as_reset(case, plan.seed, actions, length - 1):
            return
        case.fail(f"the observation returned with terminated=True on step {length} is the one an unseeded reset "
                  f"from the state before that step starts with, while step {length - 1}'s is not the one a reset "
                  "from the state before it starts with: step reset the env by itself",
                  expected="the terminal state's observation (the caller resets)",
                  actual=f"{summarize(end)}, equal to clone.reset()'s first observation",
                  assertion=Unequal(f"{returned(again.var)}[-1][0]", f"{returned(clone.var)}[-1][0]",
                                    problem=f"the observation returned with terminated=True on step {length} is the "
                                    "first one of an unseeded reset from the state before that step (clone.reset()): "
                                    "step reset the env by itself"))

    case.explore(example, plans_for(case), max_examples=min(case.profile.max_examples, 5))


@checks("ENV-027", floor=ROLLOUT)
def test_step_keeps_the_action(conformance_case: Case) -> None:
    case = conformance_case

    def example(plan: Plan) -> None:
        actions = plan.actions()
        try:
            passed = copy.deepcopy(actions)
        except Exception as exc:  # noqa: BLE001 - the plan's own actions: elements of the action space
            raise NotCheckable(f"the actions cannot be copied ({describe_exception(exc)})") from None
        position = iter(range(len(actions)))
        given = list(passed)  # the objects passed: one the env rejected is replaced in `passed`, and not compared

        def check(record: Record) -> None:
            if record.kind != "step":
                return
            k = next(position)
            if passed[k] is not given[k]:
                return
            found = difference(passed[k], actions[k], "action")
            if found is not None:
                # The action as the check passed it, to a step of its own after a reset (the one it was given may
                # have ended the episode).
                expect_equal(case, "action", "kept", "the step changed the action it was given",
                             given=(f"{env.var}.reset(seed={plan.seed})", f"action = {source(actions[k])}",
                                    "kept = copy.deepcopy(action)", f"{env.var}.step(action)"))
                case.expect(imports=("import copy",))
                case.fail(f"the {record.where()} changed the action it was given ({found})",
                          expected=f"the action as passed: {summarize(actions[k])}",
                          actual=f"after step: {summarize(passed[k])}")

        env = case.make()
        rollout.run(env, plan.seed, passed, on_record=check)

    case.explore(example, plans_for(case), max_examples=min(case.profile.max_examples, 5))
