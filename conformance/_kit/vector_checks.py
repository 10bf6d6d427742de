"""Building blocks shared by the VEC and AUTORESET checks: what a vector target exposes, rollouts, the model.

A vector target's facts (``num_envs``, single spaces, declared autoreset mode) are read from each fresh instance
through its :class:`~conformance._engine.handles.Handle`, so a target whose ``num_envs`` differs from the requested one
(a spec that fixes it, say) is still checked against what it actually is.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance._engine.case import Case
from conformance._engine.describe import describe_exception, is_array, summarize
from conformance._engine.handles import Handle, TargetError
from conformance._engine.outcomes import NotCheckable
from conformance._kit import vector_rollout
from conformance._kit.arrays import as_numpy, jax_declared
from conformance._kit.assertions import contains, read, space_label
from conformance._engine.record import returned, source
from conformance._kit.autoreset_model import LATEST, Problem, VectorModel
from conformance._kit.batching import SplitError, batch_problem, first_rows, split
from conformance._kit.expectations import Holds, NoRaise, expect_equal, expect_true, expect_unequal
from conformance._kit.own_model import own_copies
from conformance._kit.strategies import Plan, sampler
from conformance._kit.vector_rollout import VecRecord, declared_mode, ended_flags
from conformance.equality import value_difference
from gymspec import AutoresetMode

__all__ = [
    "VecFacts",
    "batch_array",
    "batched_space_rule",
    "expect_prediction",
    "feed",
    "model_envs",
    "new_model",
    "promised_factories",
    "require_mode",
    "run_plan",
    "split_rows",
    "static_facts",
    "sub_env_factories",
    "vector_facts",
]

_SAMPLES = 10


def batch_array(facts: VecFacts, value: Any) -> tuple[Any, str]:
    """``value`` as the NumPy array VEC-012/013 inspect, and how the rules name the array type due.

    A NumPy array is itself. A vector env that declares ``metadata["jax"] = True`` may return JAX arrays
    (Gymnasium's ``VectorEnv`` is generic in its array type, and ``FunctionalJaxVectorEnv`` does): those are read
    through ``np.asarray``/DLPack; a foreign array from an env that declares nothing stays unconverted (``None``),
    so the rule reports it.
    """
    if is_array(value):
        return value, "a NumPy array" if not facts.jax else "a NumPy or JAX array"
    if facts.jax:
        return as_numpy(value), "a NumPy or JAX array"
    return None, "a NumPy array"

@dataclass(frozen=True)
class VecFacts:
    """What one vector env instance declares.

    Attributes:
        n: ``num_envs``.
        single_obs: ``single_observation_space``.
        single_act: ``single_action_space``.
        obs_space: ``observation_space`` (batched).
        act_space: ``action_space`` (batched).
        mode: The declared autoreset mode (``NextStep`` when undeclared).
        declared: Whether ``metadata["autoreset_mode"]`` exists.
        jax: Whether ``metadata["jax"] is True``: the env returns JAX arrays (Gymnasium's convention).
    """

    n: int
    single_obs: Any
    single_act: Any
    obs_space: Any
    act_space: Any
    mode: AutoresetMode
    declared: bool
    jax: bool = False


def vector_facts(case: Case, env: Handle) -> VecFacts:
    """Read the facts of a fresh instance; not checkable when they cannot be read (VEC-001 reports that)."""
    n = read(case, env, "num_envs", owner="VEC-001")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        try:
            n = int(n)
        except (TypeError, ValueError):
            case.not_checkable(f"num_envs is {n!r}, not a positive int (reported by VEC-001)")
        if n < 1:
            case.not_checkable(f"num_envs is {n!r}, not a positive int (reported by VEC-001)")
    names = ("single_observation_space", "single_action_space", "observation_space", "action_space")
    spaces = [read(case, env, name, owner="VEC-001") for name in names]
    metadata = env.get("metadata") if env.has("metadata") else None
    mode, declared = declared_mode(metadata)
    single_obs, single_act, obs_space, act_space = spaces
    return VecFacts(int(n), single_obs, single_act, obs_space, act_space, mode, declared, jax_declared(metadata))


_STATIC: weakref.WeakKeyDictionary[Any, VecFacts] = weakref.WeakKeyDictionary()


def static_facts(case: Case) -> VecFacts:
    """The facts of the target, read once per process from a throwaway instance (for drawing strategies).

    Hypothesis strategies are built before any example runs, so sizes that depend on ``num_envs`` (seed lists,
    reset masks) come from here; each example still checks its own instance's facts.
    """
    found = _STATIC.get(case.state)
    if found is not None:
        return found
    case.probe()

    def body() -> VecFacts:
        env = case.make("probe")
        try:
            return vector_facts(case, env)
        finally:
            try:
                env.call("close", record=False)
            except TargetError:
                pass

    try:
        facts = case.watchdog.run(body)
    except TargetError as error:
        case.not_checkable(f"{error} (reported by the construction check)")
    _STATIC[case.state] = facts
    return facts


def require_mode(case: Case, *modes: AutoresetMode) -> AutoresetMode:
    """Skip the item unless the target declares one of ``modes`` (undeclared counts as ``NextStep``)."""
    mode, declared = declared_mode(case.probe().metadata)
    shown = mode.value if declared else f"{mode.value} (by default: no metadata['autoreset_mode'])"
    case.require(mode in modes, f"the rule is about {' / '.join(m.value for m in modes)}; the target declares {shown}")
    return mode


def run_plan(
    case: Case,
    env: Handle,
    facts: VecFacts,
    plan: Plan,
    actions: Sequence[Any] | None = None,
    **hooks: Any,
) -> list[VecRecord]:
    """Run a plan on a vector env (the seed goes into the failure header)."""
    return vector_rollout.run(env, plan.seed, plan.actions() if actions is None else actions, facts.n, facts.mode,
                              **hooks)


def sub_env_factories(case: Case, env: Handle, n: int) -> list[Callable[[], Any]] | None:
    """The target's ``env_fns`` (one zero-argument factory per sub-env), or ``None`` when it exposes none."""
    if not env.has("env_fns"):
        return None
    fns = env.get("env_fns")
    try:
        listed = list(fns)
    except TypeError:
        return None
    if len(listed) != n or not all(callable(fn) for fn in listed):
        return None
    return listed


def promised_factories(case: Case, env: Handle, n: int) -> list[Callable[[], Any]]:
    """The sub-env factories of a target that promises ``SyncVectorEnv``/``AsyncVectorEnv`` semantics; the item is
    not applicable to any other vector env.

    The promise is known by duck typing: the target exposes ``env_fns``, one zero-argument factory per sub-env,
    as both of Gymnasium's (and the reference's) Sync and Async vector envs do. ``VectorEnv.reset`` itself
    documents only ``seed: int | None``; seed lists, the ``s + i`` convention and ``reset_mask`` are documented
    on those two classes (see ``gymspec.vector.VectorEnv.reset``'s calibration note)."""
    fns = sub_env_factories(case, env, n)
    case.require(fns is not None, "the target does not promise SyncVectorEnv/AsyncVectorEnv semantics (it exposes "
                                  "no env_fns, one factory per sub-env); VectorEnv.reset documents seed: int | None "
                                  "only")
    return fns if fns is not None else []


@contextmanager
def model_envs(case: Case, env: Handle, facts: VecFacts) -> Generator[Sequence[Handle] | None, None, None]:
    """One single env per sub-env, made with the target's own factories (``None`` when unavailable).

    The envs are recorded in the reproducer (``sub_0 = env.env_fns[0]()``) and closed on exit. A target that
    declares ``spec.nondeterministic`` gets no model envs: exact predictions would be meaningless. A target without
    factories (a vector env written directly) gets its own ``num_envs=1`` copies
    (:class:`~conformance._kit.own_model.OwnCopies`, made on first use), unless they are known to be no model of it;
    a JAX target gets none (its copies would each compile the target anew, and ``CartPoleJaxVectorEnv`` splits one
    key across its sub-envs, so they are no model of it).
    """
    if case.probe().nondeterministic:
        yield None
        return
    fns = sub_env_factories(case, env, facts.n)
    if fns is None:
        copies = None if facts.jax else own_copies(case, env, facts.n, facts.mode, (facts.single_obs, facts.single_act))
        try:
            yield copies
        finally:
            if copies is not None:
                copies.close()
        return
    handles: list[Handle] = []
    try:
        case.note("# the model: each sub-env's factory, driven alone by the declared mode's rules")
        for i, fn in enumerate(fns):
            try:
                sub = case.watchdog.call(f"env.env_fns[{i}]", fn)
            except Exception as exc:  # noqa: BLE001 - no model then; the structural checks still run
                case.note(f"# env.env_fns[{i}]() raised {describe_exception(exc)}: structural checks only")
                break
            handles.append(case.wrap(sub, f"sub_{i}", f"{env.var}.env_fns[{i}]()", counted=False))
        yield handles if len(handles) == facts.n else None
    finally:
        for handle in handles:
            try:
                handle.call("close", record=False)
            except TargetError:
                pass


def new_model(facts: VecFacts, subs: Sequence[Handle] | None) -> VectorModel:
    """A model of the declared mode for one instance."""
    return VectorModel(facts.mode, facts.n, facts.single_obs, subs)


def feed(model: VectorModel, facts: VecFacts, record: VecRecord) -> list[Problem]:
    """Let the model follow one rollout record; return its disagreements."""
    where = record.where()
    if record.kind == "reset":
        return model.reset(record.arg, record.obs_copy, record.info_copy, where)
    if record.kind == "partial":
        return model.partial(record.arg, record.obs_copy, record.info_copy, where)
    result = (record.obs_copy, record.rewards, record.terminations, record.truncations, record.info_copy)
    return model.step(record.arg, facts.single_act, result, where)


def expect_prediction(case: Case, problem: Problem) -> None:
    """End the reproducer with the problem's claim (the model's prediction written out) on what the disagreeing
    call returned: the last of ``env``'s, since every disagreement is reported right after the call."""
    claim = problem.claim
    if claim is None:
        return
    given = (f"{LATEST} = {returned('env')}[-1]  # the call that disagrees",)
    # The root-cause gate's fresh instances (env_again) ran after that call: they leave the replay.
    case.expect(imports=claim.imports, drop=("env_again",))
    if claim.kind == "equal":
        expect_equal(case, claim.left, claim.right, claim.problem, exact=False, given=given)
    elif claim.kind == "unequal":
        expect_unequal(case, claim.left, claim.right, claim.problem, given=given)
    else:
        expect_true(case, claim.left, claim.problem, claim.right, given=given)


def split_rows(case: Case, facts: VecFacts, obs: Any) -> list[Any]:
    """Split a batch of observations into rows; not checkable when it does not split (VEC-011 reports that)."""
    try:
        return split(facts.single_obs, obs, facts.n, "observations")
    except SplitError as exc:
        case.not_checkable(f"{exc} (reported by VEC-011)")


def batched_space_rule(case: Case, single_name: str, batched_name: str) -> None:
    """VEC-002/VEC-003: the batched space has the batched structure, and its samples split into single elements."""

    def body() -> None:
        env = case.make()
        facts = vector_facts(case, env)
        single, batched = read(case, env, single_name, "VEC-001"), read(case, env, batched_name, "VEC-001")
        problem = batch_problem(single, batched, facts.n, f"env.{batched_name}")
        # The assertions call the suite's own batching logic (conformance._kit.batching), which says what departs.
        imports = ("from conformance._kit.batching import batch_problem, split",)
        if problem is not None:
            headline = f"{case.rule.id}: env.{batched_name} is not env.{single_name} batched: "
            case.expect(f"problem = batch_problem(env.{single_name}, env.{batched_name}, {facts.n}, "
                        f"'env.{batched_name}')", f"assert problem is None, {headline!r} + problem", imports=imports)
            case.fail(f"env.{batched_name} is not env.{single_name} batched num_envs={facts.n} times: {problem}",
                      expected=f"the batched form of {space_label(single)}", actual=space_label(batched))
        draw, rng = sampler(batched), np.random.default_rng(0)
        for _ in range(_SAMPLES):
            value = draw(rng)
            element = f"split(env.{single_name}, {source(value)}, {facts.n}, 'element')"
            try:
                parts = split(single, value, facts.n, "element")
            except SplitError as exc:
                case.fail(f"an element of env.{batched_name} does not split into num_envs elements: {exc}",
                          expected=f"{facts.n} elements of {space_label(single)}", actual=summarize(value),
                          assertion=NoRaise(element, imports=imports,
                                            problem=f"an element of env.{batched_name} does not split into num_envs "
                                            "elements"))
            for i, part in enumerate(parts):
                ok, note = contains(case, single, part)
                if not ok:
                    case.fail(f"element {i} of a sample of env.{batched_name} is outside env.{single_name}{note}",
                              expected=f"an element of {space_label(single)}", actual=summarize(part),
                              assertion=Holds(f"env.{single_name}.contains({element}[{i}])", shown=f"{element}[{i}]",
                                              imports=imports, problem=f"element {i} of a sample of "
                                                               f"env.{batched_name} is outside env.{single_name}"))

    case.once(body)


# shared_stream: how many seeds it tries (each window ends at the extra sub-env's first end, often after a few steps).
_SHARED_TRIES = 8


def shared_stream(case: Case, facts: VecFacts) -> bool:
    """Whether the target's sub-envs draw from one generator, shown model-free: constructions with ``num_envs=n``
    and ``n+1``, reset with one seed and given the same actions (the extra sub-env its own), must run the first ``n``
    sub-envs alike until the extra sub-env's first end, if each sub-env draws its own randomness (no sub-env of either
    resets otherwise: the first ``n`` end alike); a stream shared by the sub-envs is interleaved differently with one
    more. Tried with :data:`_SHARED_TRIES` seeds. Used before a disagreement of a sub-env with its copy is blamed on
    an AUTORESET rule (an autoreset touching other sub-envs): one slip generator shared by the sub-envs, whose first
    steps happened to agree with the copies', is VEC-023's, not that rule's."""
    found = _SHARED.get(case.state)
    if found is None:
        found = any(_differs_with_one_more(case, facts, seed) for seed in range(_SHARED_TRIES))
        _SHARED[case.state] = found
    return found


def _differs_with_one_more(case: Case, facts: VecFacts, seed: int) -> bool:
    try:
        narrow, wider = case.make("narrow"), case.make("wider", num_envs=facts.n + 1)
        wide = vector_facts(case, wider)
    except (TargetError, NotCheckable):
        return False
    if wide.n != facts.n + 1:
        return False
    draw, rng = sampler(wide.act_space), np.random.default_rng(seed)
    widened = [draw(rng) for _ in range(case.profile.max_steps)]
    mine: list[VecRecord] = []
    theirs: list[VecRecord] = []

    def extra_ended(record: VecRecord) -> bool:
        return bool(ended_flags(record.terminations, record.truncations, wide.n)[facts.n])

    try:
        vector_rollout.run(wider, seed, widened, wide.n, wide.mode, on_record=theirs.append, stop=extra_ended)
        narrowed = [first_rows(facts.single_act, action, facts.n) for action in widened[: len(theirs) - 1]]
        vector_rollout.run(narrow, seed, narrowed, facts.n, facts.mode, on_record=mine.append)
    except (TargetError, NotCheckable):
        return False
    for a, b in zip(mine, theirs[:-1]):  # the extra sub-env's ending step is left out: its reset may follow it
        try:
            ours = split(facts.single_obs, a.obs_copy, facts.n, "observations")
            wide_rows = split(wide.single_obs, b.obs_copy, wide.n, "observations")[: facts.n]
        except SplitError:
            return False
        if any(value_difference(x, y) is not None for x, y in zip(ours, wide_rows)):
            return True
    return False


_SHARED: weakref.WeakKeyDictionary[Any, bool] = weakref.WeakKeyDictionary()
