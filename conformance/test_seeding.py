"""SEED rules: seeded resets replay, unseeded resets continue, and nothing but the env's own generator matters.

Comparisons are exact (types included) over observations, rewards, flags and infos. Rules about the *first*
episode compare only that episode, so an env that breaks one seeding rule does not fail the others as well.
Targets whose spec declares ``nondeterministic=True`` skip the determinism rules.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from hypothesis import strategies as st

from conformance._kit.api import (
    FIRST_EPISODES, RESET, Actions, Case, Equal, Floor, FreshProcessError, Handle, Holds, Plan, Record, TargetError,
    checks, compare_rollouts, copied, difference, expect_equal, expect_true, first_episode, global_generators,
    is_tuple, plans_for, read, rollout, sampler, seeds, snapshot, summarize,
)

_UNSEEDED_RESETS = 5
# SEED-004: unseeded starts after one seeded reset, and seeded starts that show the start is random; the
# false-positive bound this gives is derived in gymspec.env.SupportsReset.reset.
_RESTART_RUN = 20
_RESTART_EXAMPLES = 3
_SEED_RANGE = 2**32
# SEED-006: fresh instances whose unseeded starts must all be alike for a finding (each stops at the first that
# differs), once SEED-004's test (20 seeded starts, none in half of them) shows the start is random: a correct env
# then fails with probability below 2e-5 (p**15 * P[Binomial(20, p) <= 9], largest near p = 0.5).
_FRESH_INSTANCES = 16
# SEED-012: the steps of the episode run in the fresh interpreter, and how long that interpreter may take (its
# start and the target's import and construction included).
_FRESH_STEPS = 50
_FRESH_SECONDS = 120.0
# SEED-013: how many unseeded episodes follow each of the two seeds.
_CONTINUATIONS = 10
# SEED-004 and SEED-013 compare episodes, not only starts: the start and this many steps under one action sequence
# (an env whose start is fixed, or drawn apart, may restart the randomness of its dynamics).
_EPISODE_STEPS = 5
_UNPICKLABLE = "<unpicklable>"


def _first_episode(env: Handle, seed: int | None, actions: Sequence[Any], **kwargs: Any) -> list[Record]:
    return rollout.run(env, seed, actions, max_episodes=1, **kwargs)


@checks("SEED-001", floor=FIRST_EPISODES)
def test_same_seed_same_episode(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = plan.actions()
        a = _first_episode(case.make("env_a"), plan.seed, actions)
        b = _first_episode(case.make("env_b"), plan.seed, actions)
        compare_rollouts(case, a, b, "two fresh instances with the same seed and actions diverge", ("env_a", "env_b"))

    case.explore(example, plans_for(case))


@checks("SEED-002", floor=FIRST_EPISODES)
def test_reseeding_replays(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = plan.actions()
        env = case.make()
        first = _first_episode(env, plan.seed, actions)
        again = _first_episode(env, plan.seed, actions)
        compare_rollouts(case, first, again, "reset(seed=s) a second time does not replay the episode",
                         ("first", "replay"), variables=("env", "env"))

    case.explore(example, plans_for(case))


def _unseeded_resets(env: Handle, seed: int, actions: Sequence[Any]) -> list[Record]:
    """Seeded reset, then the plan's actions split over several episodes started by unseeded resets."""
    records = rollout.run(env, seed, [], max_episodes=1)
    chunk = max(1, len(actions) // _UNSEEDED_RESETS)
    for start in range(0, _UNSEEDED_RESETS * chunk, chunk):
        records += rollout.run(env, None, actions[start : start + chunk], max_episodes=1)
    return records


@checks("SEED-003", floor=Floor(steps=10, unseeded_resets=10))
def test_unseeded_resets_continue_the_generator(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = plan.actions()
        a = _unseeded_resets(case.make("env_a"), plan.seed, actions)
        b = _unseeded_resets(case.make("env_b"), plan.seed, actions)
        compare_rollouts(case, a, b, "episodes after unseeded resets are not a function of the first seed",
                         ("env_a", "env_b"))

    case.explore(example, plans_for(case))


def _reset_obs(env: Handle, keep: Callable[[Any], Any] = snapshot, **kwargs: Any) -> Any:
    """The observation ``env.reset(**kwargs)`` returns, kept by ``keep`` (a copy by default)."""
    obs, _ = rollout.unpack_reset(env.reset(**kwargs))
    return keep(obs)


def _initial_state_varies(case: Case, seed: int) -> bool:
    """Whether the start is random: no start holds half of :data:`_RESTART_RUN` seeded resets or more (SEED-004's
    test; a start that varies at all among five seeds, once enough, let a start that is nearly always the same make
    two fresh instances agree by chance too often)."""
    probe = case.make("probe")
    groups: list[Any] = []
    for k in range(_RESTART_RUN):
        obs = _reset_obs(probe, seed=seed + k)
        group = next((group for group in groups if difference(group[0], obs) is None), None)
        if group is None:
            groups.append([obs])
            continue
        group.append(obs)
        if 2 * len(group) >= _RESTART_RUN:
            return False
    return True


def _join(groups: list[list[list[Record]]], episode: list[Record], starts: bool = False) -> int:
    """Put ``episode`` into the group of episodes identical to it (``starts``: whose first observations are) — a new
    one if none; return that group's size."""
    for group in groups:
        same = (difference(group[0][0].obs_copy, episode[0].obs_copy) is None if starts
                else rollout.first_difference(group[0], episode) is None)
        if same:
            group.append(episode)
            return len(group)
    groups.append([episode])
    return 1


def _kinds(episodes: Sequence[list[Record]]) -> tuple[int, int]:
    """How many different starts, and how many different episodes, ``episodes`` hold."""
    starts: list[list[list[Record]]] = []
    whole: list[list[list[Record]]] = []
    for episode in episodes:
        _join(starts, episode, starts=True)
        _join(whole, episode)
    return len(starts), len(whole)


def _mostly_alike(episodes: Sequence[list[Record]], starts: bool) -> bool:
    """Whether one start (``starts``) or one episode holds half of ``episodes`` or more: too little randomness to
    tell a restarted generator from a continued one (the bound is derived in gymspec.env)."""
    groups: list[list[list[Record]]] = []
    return any(2 * _join(groups, episode, starts=starts) >= len(episodes) for episode in episodes)


def _probe_actions(case: Case, seed: int) -> list[Any]:
    """The actions every compared episode takes (:data:`_EPISODE_STEPS` of them, drawn from ``seed``)."""
    space = case.probe().action_space
    if space is None:
        case.not_checkable("the target has no action_space (reported by ENV-001)")
    return Actions.drawn(sampler(space), seed, _EPISODE_STEPS)


def _episode(env: Handle, actions: list[Any], seed: int | None = None) -> list[Record]:
    """The episode a reset (``seed``: ``None`` for an unseeded one) starts, under ``actions``, up to its end."""
    return rollout.run(env, seed, actions, max_episodes=1)


def _episodes_of(expression: str, episodes: Sequence[list[Record]], first: int = 1) -> str:
    """Source of the list of ``episodes`` (of any lengths, in order from position ``first`` on) as slices of the
    reproducer's list ``expression`` of what the instance's calls returned."""
    slices: list[str] = []
    start = first
    for episode in episodes:
        slices.append(f"{expression}[{start}:{start + len(episode)}]")
        start += len(episode)
    return f"[{', '.join(slices)}]"


@checks("SEED-004", floor=Floor(unseeded_resets=2))
def test_unseeded_resets_do_not_restart(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()
    k = _RESTART_RUN

    def example(seed: int) -> None:
        case.set_seed(seed)
        actions = _probe_actions(case, seed)
        env = case.make()
        env.reset(seed=seed)
        unseeded: list[list[Record]] = []
        starts: list[list[list[Record]]] = []
        for _ in range(k):
            unseeded.append(_episode(env, actions))
            if _join(starts, unseeded[-1], starts=True) < len(unseeded):
                return  # two different unseeded starts: the generator was not restarted
        # Every unseeded start is one: a restart, if starts are random; a fixed start may still hide one in its steps
        # (the randomness of the dynamics replayed), which whole episodes show. The seeded episodes say what is
        # random (a seeded reset of a costly env reloads it, ALE's does: only a start that repeats gets here).
        probe = case.make("probe")
        seeded = [_episode(probe, actions, (seed + i) % _SEED_RANGE) for i in range(k)]
        restarted_starts = not _mostly_alike(seeded, starts=True)
        if not restarted_starts and _kinds(unseeded)[1] > 1:
            return  # a fixed start and unseeded episodes that differ: the generator was not restarted
        case.require(restarted_starts or not _mostly_alike(seeded, starts=False),
                     f"the env is not random enough to tell: {k} seeded episodes under one action sequence start "
                     "alike and are one episode half the time or more")
        what = "start from the same state" if restarted_starts else "start the same episode"
        length = len(unseeded[0])
        runs = _episodes_of(copied("env"), unseeded)
        first, each = (f"{runs}[0][0]", "run[0]") if restarted_starts else (f"{runs}[0]", "run")
        expect_true(case, f"any(difference({first}, {each}) is not None for run in {runs}[1:])",
                    f"{k} unseeded resets after reset(seed={seed}) all {what}", first,
                    imports=("from conformance.equality import difference",))
        different = _kinds(seeded)[0 if restarted_starts else 1]
        steps = "" if restarted_starts else f" (one start and the same {length - 1} steps under one action sequence)"
        case.fail(f"{k} unseeded resets after reset(seed={seed}) all {what}{steps}",
                  expected=f"different {'starts' if restarted_starts else 'episodes'} (the generator continues; "
                           f"resets with {k} different seeds gave {different} different ones)",
                  actual=f"always {summarize(unseeded[0][0].obs_copy)}" if restarted_starts
                  else f"always the episode starting {summarize(unseeded[0][0].obs_copy)}")

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, _RESTART_EXAMPLES))


@checks("SEED-005", floor=FIRST_EPISODES)
def test_reseeding_after_any_history(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(history: Plan, plan: Plan) -> None:
        env = case.make()
        rollout.run(env, history.seed, history.actions())
        actions = plan.actions()
        after_history = _first_episode(env, plan.seed, actions)
        fresh = _first_episode(case.make("fresh"), plan.seed, actions)
        compare_rollouts(case, fresh, after_history, "reset(seed=s) after a history differs from a fresh instance's",
                         ("fresh", "env"))

    case.explore(example, plans_for(case), plans_for(case))


@checks("SEED-006", floor=Floor(constructions=2))
def test_fresh_instances_seed_from_entropy(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def body() -> None:
        case.require(_initial_state_varies(case, 0), "the initial state is not random: resets with seeds 0 to 4 "
                                                     "start from one state")
        # Instance by instance, stopping at the first that starts elsewhere: the verdict is then certain, and a
        # target costly to construct (seconds an instance) builds two instances, not eight.
        observations = [_reset_obs(case.make("env_0"))]
        for i in range(1, _FRESH_INSTANCES):
            observations.append(_reset_obs(case.make(f"env_{i}")))
            if difference(observations[0], observations[-1]) is not None:
                return
        if all(difference(observations[0], obs) is None for obs in observations[1:]):
            first = f"{copied('env_0', part='[0]')}[0]"
            starts = ", ".join(f"{copied(f'env_{i}', part='[0]')}[0]" for i in range(1, _FRESH_INSTANCES))
            case.fail(f"{_FRESH_INSTANCES} fresh instances reset without a seed start from the same state",
                      expected="different initial states (entropy seeding)",
                      actual=f"always {summarize(observations[0])}",
                      assertion=Holds(f"any(difference({first}, start) is not None for start in ({starts}))",
                                      shown=first, imports=("from conformance.equality import difference",)))

    case.once(body)


@checks("SEED-007", floor=RESET, owns=("reset",))
def test_large_seeds_accepted(conformance_case: Case) -> None:
    case = conformance_case
    large = st.one_of(st.sampled_from([2**32, 2**63, 2**64]), st.integers(2**32, 2**128))

    def example(seed: int) -> None:
        case.make().reset(seed=seed)

    case.explore(example, large, max_examples=min(case.profile.max_examples, 5))


def _until_first_end(records: list[Record]) -> list[Record]:
    """The records of the first episode (later episodes are SEED-003's subject)."""
    for index, record in enumerate(records[1:], start=1):
        if record.kind == "reset":
            return records[:index]
    return records


# SEED-008: whole first episodes (a global draw may come late in one: mo-gymnasium's minecart mines), or long ones.
_WHOLE_EPISODES = Floor(ends=2) | Floor(steps=1000)


@checks("SEED-008", floor=_WHOLE_EPISODES)
def test_global_generators_irrelevant(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def pin(global_seed: int) -> tuple[Any, Any]:
        case.note(f"np.random.seed({global_seed}); random.seed({global_seed})", imports=("import random",))
        case.note("global_before = (random.getstate(), np.random.get_state())")
        np.random.seed(global_seed)
        random.seed(global_seed)
        return global_generators.state()

    def built(var: str, global_seed: int) -> tuple[Handle, str]:
        """An instance constructed with the global generators pinned (a construction that draws its task from
        them then gives the same task under the same global seed), and which generator it advanced, if any."""
        before = pin(global_seed)
        env = case.make(var)
        return env, global_generators.advanced(before, global_generators.state())

    def run(env: Handle, plan: Plan, actions: list[Any], global_seed: int) -> list[Record]:
        before = pin(global_seed)
        records = rollout.run(env, plan.seed, actions)
        which = global_generators.advanced(before, global_generators.state())
        if which:
            case.fail(f"reset/step advanced the global generator ({which})", expected="global generators untouched",
                      actual="their state changed",
                      assertion=Equal("global_before", "(random.getstate(), np.random.get_state())",
                                      problem="reset/step advanced the global generators"))
        return records

    def example(plan: Plan) -> None:
        actions = plan.actions()
        env_a, drew = built("env_a", 1)
        a = _until_first_end(run(env_a, plan, actions, 1))
        env_b, _ = built("env_b", 2)
        b = _until_first_end(run(env_b, plan, actions, 2))
        # Constructions made under the same global seed are the baseline: a target that draws at construction
        # reproduces itself so, and the difference a global seed makes is this rule's to report, not the gate's.
        problem = "the first episode depends on the global generators"
        if drew:
            problem = (f"constructing the env advanced the global generator ({drew}), and the first episode "
                       "depends on the global generators")
        compare_rollouts(case, a, b, problem, ("env_a", "env_b"),
                         baseline=lambda: _until_first_end(run(built("env_a_again", 1)[0], plan, actions, 1)))

    case.explore(example, plans_for(case))


@checks("SEED-010", floor=FIRST_EPISODES)
def test_space_sampling_does_not_change_dynamics(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = plan.actions()
        plain = _first_episode(case.make("plain"), plan.seed, actions)
        env = case.make()
        names = ("action_space", "observation_space")
        spaces = [case.wrap(read(case, env, name), name, f"env.{name}") for name in names]

        def sample_spaces(position: int) -> None:
            for space in spaces:
                space.call("sample")

        sampled = _first_episode(env, plan.seed, actions, between=sample_spaces)
        compare_rollouts(case, plain, sampled, "sampling the env's spaces between steps changes the trajectory",
                         ("plain", "with sampling"), variables=("plain", "env"),
                         baseline=lambda: _first_episode(case.make("plain_again"), plan.seed, actions))

    case.explore(example, plans_for(case))


@checks("SEED-011", floor=RESET)
def test_np_random_seed_reports_the_seed(conformance_case: Case) -> None:
    case = conformance_case

    def example(seed: int) -> None:
        env = case.make()
        env.reset(seed=seed)
        if not env.has("np_random_seed"):
            case.not_checkable("the env does not expose np_random_seed (the rule applies only when it does)")
        reported = env.get("np_random_seed")
        if reported != seed:
            case.fail(f"np_random_seed after reset(seed={seed}) is {reported!r}", expected=repr(seed),
                      actual=repr(reported),
                      assertion=Equal("env.np_random_seed", repr(seed),
                                      problem=f"np_random_seed after reset(seed={seed})"))

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, 5))


def _masked(value: Any, row_value: Any) -> Any:
    """``value``, or the marker the fresh interpreter sent in place of a value it could not pickle."""
    # `isinstance` first: a real value may be a pair of arrays (a two-agent observation), which `==` cannot test.
    unpicklable = (is_tuple(row_value) and len(row_value) == 2 and isinstance(row_value[0], str)
                   and row_value[0] == _UNPICKLABLE)
    return _UNPICKLABLE if unpicklable else value


def _as_records(rows: list[tuple[Any, ...]], here: list[Record]) -> tuple[list[Record], list[Record]]:
    """The fresh interpreter's rows as records, and ``here`` with the values it could not send masked alike."""
    theirs: list[Record] = []
    ours: list[Record] = []
    for index, row in enumerate(rows):
        kind, obs, reward, terminated, truncated, info = row
        theirs.append(Record(index, kind, None, _masked(obs, obs), _masked(obs, obs), _masked(reward, reward),
                             _masked(terminated, terminated), _masked(truncated, truncated), _masked(info, info),
                             _masked(info, info)))
        if index < len(here):
            mine = here[index]
            ours.append(dataclasses.replace(
                mine, obs=_masked(mine.obs_copy, obs), obs_copy=_masked(mine.obs_copy, obs),
                reward=_masked(mine.reward, reward), terminated=_masked(mine.terminated, terminated),
                truncated=_masked(mine.truncated, truncated), info=_masked(mine.info_copy, info),
                info_copy=_masked(mine.info_copy, info),
            ))
    return ours + here[len(rows):], theirs


_SALTS = ("1", "2", "3")
# SEED-012's assertion: the script runs itself again under each salt (the variable names a file: a child run writes
# what env returned there, pickled, or its repr when it does not pickle) and compares what the runs returned. The
# child gets this run's import path: the target's module may be importable here only through the current directory
# or a path a runner inserted, neither of which a child started on the script's file would see.
_SALTED_RUNS = (
    "def run_salted(hash_seed):",
    "    with tempfile.TemporaryDirectory() as workdir:",
    "        path = os.path.join(workdir, 'results.pickle')",
    "        salted = {**os.environ, 'PYTHONHASHSEED': hash_seed, 'SALTED_RESULTS': path,",
    "                  'PYTHONPATH': os.pathsep.join(entry or os.getcwd() for entry in sys.path)}",
    "        subprocess.run([sys.executable, __file__], env=salted, check=True)",
    "        with open(path, 'rb') as file:",
    "            return pickle.load(file)",
    "if 'SALTED_RESULTS' in os.environ:  # a run made by run_salted: hand over what env returned",
    "    try:",
    "        data = pickle.dumps(results['env'])",
    "    except Exception:  # noqa: BLE001 - what does not pickle is compared as its repr",
    "        data = pickle.dumps(repr(results['env']))",
    "    with open(os.environ['SALTED_RESULTS'], 'wb') as file:",
    "        file.write(data)",
    "    sys.exit(0)",
    f"runs = [run_salted(hash_seed) for hash_seed in {_SALTS!r}]",
)


@checks("SEED-012", floor=Floor(processes=1))
def test_episodes_reproducible_across_hash_salts(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = dataclasses.replace(plan, length=min(_FRESH_STEPS, case.profile.max_steps)).actions()
        here = _first_episode(case.make(), plan.seed, actions)
        try:
            episode = first_episode(case.target.imports, case.target.constructor_source(), plan.seed,
                                    actions[: len(here) - 1], timeout=_FRESH_SECONDS)
        except FreshProcessError as error:
            case.not_checkable(f"the first episode could not be run in a fresh interpreter: {error}")
        case.tally.another_process()
        ours, theirs = _as_records(episode.rows, here)
        # The reproducer runs itself under fixed salts (run as a file: python this_script.py) and compares.
        expect_equal(case, f"[runs[0]] * {len(_SALTS) - 1}", "runs[1:]",
                     f"the first episode differs between PYTHONHASHSEED={_SALTS[0]} and {' or '.join(_SALTS[1:])} "
                     "(randomness drawn from hash() of a str, or from the order of a set of strings?)",
                     given=_SALTED_RUNS)
        case.expect(imports=("import os", "import pickle", "import subprocess", "import sys", "import tempfile"))
        compare_rollouts(case, ours, theirs,
                         f"the first episode differs in a process with PYTHONHASHSEED={episode.hash_seed} (randomness "
                         "drawn from hash() of a str, or from the order of a set of strings?)",
                         ("this process", f"PYTHONHASHSEED={episode.hash_seed}"),
                         baseline=lambda: _first_episode(case.make("env_again"), plan.seed, actions))

    case.explore(example, plans_for(case), max_examples=1)


def _continuations(env: Handle, seed: int, actions: list[Any]) -> list[list[Record]]:
    env.reset(seed=seed)
    return [_episode(env, actions) for _ in range(_CONTINUATIONS)]


def _random(case: Case, seed: int, actions: list[Any]) -> tuple[bool, bool, tuple[int, int]]:
    """Whether the env's starts, and its episodes under ``actions``, are random, and how many different ones the
    seeded resets gave: ``k`` seeded episodes, none in half of them or more; or (an env that ignores the seed's
    value) unseeded episodes after one seeded reset that differ."""
    probe = case.make("probe")
    seeded = [_episode(probe, actions, (seed + i) % _SEED_RANGE) for i in range(_RESTART_RUN)]
    random_starts, random_episodes = not _mostly_alike(seeded, starts=True), not _mostly_alike(seeded, starts=False)
    if not random_episodes:
        probe.reset(seed=seed)
        unseeded = [_episode(probe, actions) for _ in range(_UNSEEDED_RESETS)]
        kinds = _kinds(unseeded)
        random_starts, random_episodes = kinds[0] > 1, kinds[1] > 1
    return random_starts, random_episodes, _kinds(seeded)


@checks("SEED-013", floor=Floor(unseeded_resets=20))
def test_different_seeds_continue_differently(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(seed: int) -> None:
        case.set_seed(seed)
        actions = _probe_actions(case, seed)
        other = (seed + 1) % _SEED_RANGE
        a = _continuations(case.make("env_a"), seed, actions)
        b = _continuations(case.make("env_b"), other, actions)
        same_starts = all(difference(x[0].obs_copy, y[0].obs_copy) is None for x, y in zip(a, b))
        if not same_starts and any(rollout.first_difference(x, y) is not None for x, y in zip(a, b)):
            return
        random_starts, random_episodes, (starts, episodes) = _random(case, seed, actions)
        # The starts after the two seeds may be one sequence (a start stream every seed shares) while the steps
        # differ, or whole episodes may be (a fixed start, and the dynamics' stream shared).
        on_starts = same_starts and random_starts
        if not on_starts and not (random_episodes and all(rollout.first_difference(x, y) is None
                                                          for x, y in zip(a, b))):
            return  # (nearly) fixed: equal continuations say nothing
        restarted = (all(difference(a[0][0].obs_copy, x[0].obs_copy) is None for x in a[1:]) if on_starts
                     else all(rollout.first_difference(a[0], x) is None for x in a[1:]))
        if restarted:
            # Every unseeded reset starts one state (or one episode): the generator restarts (SEED-004's finding),
            # and a stream that restarts has no sequence to depend on the seed; equal for both seeds is that again.
            case.not_checkable(f"the {_CONTINUATIONS} unseeded resets after reset(seed={seed}) all start the same "
                               "episode: the generator restarts on an unseeded reset (reported by SEED-004)")
        what = "start from the same states as" if on_starts else "are the same episodes as"
        a_runs, b_runs = _episodes_of(copied("env_a"), a), _episodes_of(copied("env_b"), b)
        compared = (f"[run[0] for run in {a_runs}], [run[0] for run in {b_runs}]" if on_starts
                    else f"{a_runs}, {b_runs}")
        case.fail(f"the {_CONTINUATIONS} unseeded resets after reset(seed={seed}) {what} those after "
                  f"reset(seed={other})",
                  expected=f"different {'starts' if on_starts else 'episodes'} (the seed decides the generator's "
                  f"stream; {_RESTART_RUN} seeded resets gave {starts if on_starts else episodes} different "
                  "ones)", actual=f"the same sequence, starting {summarize(a[0][0].obs_copy)}",
                  assertion=Holds(f"difference({compared}) is not None", shown=f"{a_runs}[0]",
                                  imports=("from conformance.equality import difference",),
                                  problem=f"the unseeded resets after reset(seed={seed}) {what} those after "
                                          f"reset(seed={other})"))

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, _RESTART_EXAMPLES))


@checks("ENV-031", floor=Floor(seeded_resets=1, unseeded_resets=1), owns=("reset",))
def test_reset_accepts_empty_options(conformance_case: Case) -> None:
    case = conformance_case

    def example(seed: int) -> None:
        env = case.make()
        # ENV-004's calls first: a reset that takes no ``options`` at all (or rejects ``None``) rejects ``{}`` for
        # that one cause, which ENV-004 reports; only a reset that takes ``options=None`` can break this rule.
        try:
            env.reset(seed=seed, options=None)
            env.reset(options=None)
        except TargetError as error:
            case.not_checkable(f"{error}: reset does not take options=None (reported by ENV-004)")
        env.reset(seed=seed, options={})
        env.reset(options={})

    case.explore(example, seeds(), max_examples=min(case.profile.max_examples, 3))


@checks("SEED-014", floor=FIRST_EPISODES)
def test_empty_options_mean_no_options(conformance_case: Case) -> None:
    case = conformance_case
    case.skip_if_nondeterministic()

    def example(plan: Plan) -> None:
        actions = plan.actions()
        plain = _first_episode(case.make("plain"), plan.seed, actions)
        try:
            empty = _first_episode(case.make("with_options"), plan.seed, actions, reset_kwargs={"options": {}})
        except TargetError as error:
            if error.method != "reset":
                raise
            # ENV-031 reports a reset that rejects ``{}``, ENV-004 one that takes no ``options`` at all.
            case.not_checkable(f"{error} (reported by ENV-031 or ENV-004)")
        compare_rollouts(case, plain, empty, "reset(seed=s, options={}) starts another episode than reset(seed=s)",
                         ("plain", "with_options"),
                         baseline=lambda: _first_episode(case.make("plain_again"), plan.seed, actions))

    case.explore(example, plans_for(case), max_examples=min(case.profile.max_examples, 3))
