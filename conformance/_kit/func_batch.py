"""Driving a ``FuncEnv`` on a batch of states, and the same rows one by one, for the batched FUNC checks.

The batched calling convention (:mod:`gymspec.functional`): states with a leading batch dimension, one action per
row, and one rng per row —

* NumPy: the target's own functions take the batch, with a ``BatchedGenerator`` as ``rng`` (what the reference
  ``FunctionalVectorEnv`` passes): row ``i`` draws exactly what generator ``i`` alone draws. A FuncEnv whose
  ``initial`` does not take such a batch (it raises, or returns no leading dimension of the batch's size) is not
  batch-capable, and the batched checks do not apply to it;
* JAX: every function is called through ``jax.vmap`` (what ``FunctionalJaxVectorEnv`` does with
  ``transform(jax.vmap)``) with one key per row, so every JAX FuncEnv is checked on batches.

:func:`batched_step` drives one step on a batch and the same step row by row, with equal rngs, so a check can
compare shapes (FUNC-008/009) and rows (FUNC-014).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance._engine.case import Case
from conformance._engine.describe import is_array, is_mapping
from conformance._engine.handles import Handle, TargetError
from conformance._kit.arrays import as_numpy
from conformance._kit.func_checks import Driver, deep_snapshot
from conformance._kit.func_rng import RngKind, rng_kind
from conformance.equality import array_difference, difference

__all__ = ["BATCH", "ROW_VARS", "BatchedStep", "VmappedFuncEnv", "batched_step", "row", "row_difference"]

BATCH = 3
"""Rows of a checked batch."""

ROW_VARS = {
    "initial": ("states", "state_{}"),
    "transition": ("next_states", "next_state_{}"),
    "reward": ("rewards", "reward_{}"),
    "terminal": ("terminals", "terminal_{}"),
    "observation": ("observations", "observation_{}"),
}
"""Per function, the reproducer's names of its result on the batch and on row ``i`` alone (:func:`batched_step`)."""


class VmappedFuncEnv:
    """A JAX ``FuncEnv`` whose functions are ``jax.vmap`` ped over their positional arguments (params unbatched).

    Args:
        func: The JAX functional env.
    """

    _BATCHED = frozenset({"initial", "transition", "observation", "reward", "terminal", "state_info",
                          "transition_info"})

    def __init__(self, func: Any) -> None:
        self.func = func

    def __getattr__(self, name: str) -> Any:
        found = getattr(self.func, name)
        if name not in self._BATCHED:
            return found
        return _jax().vmap(found)


@dataclass(frozen=True)
class BatchedStep:
    """One step of a batch and of its rows alone.

    Attributes:
        states: ``initial`` of the batch.
        next_states: ``transition`` of the batch.
        rewards: ``reward`` of the batch.
        terminals: ``terminal`` of the batch.
        observations: ``observation`` of ``next_states``.
        singles: Per row, ``(state, next_state, reward, terminal, observation)`` of the row alone.
        jax: Whether the batch ran through ``jax.vmap``.
    """

    states: Any
    next_states: Any
    rewards: Any
    terminals: Any
    observations: Any
    singles: list[tuple[Any, Any, Any, Any, Any]]
    jax: bool


def row(tree: Any, i: int, *, jax: bool) -> Any:
    """Row ``i`` of a batch (an array, or a tuple/list/dict of them; any JAX pytree for JAX)."""
    if jax:
        jax_module = _jax()

        def take(leaf: Any) -> Any:
            return leaf[i]

        return jax_module.tree_util.tree_map(take, tree)
    if is_array(tree):
        return tree[i]
    if isinstance(tree, (tuple, list)):
        items: list[Any] = [row(item, i, jax=False) for item in tree]  # pyright: ignore[reportUnknownVariableType]
        return tuple(items) if isinstance(tree, tuple) else items
    if is_mapping(tree):
        return {key: row(value, i, jax=False) for key, value in tree.items()}
    return tree[i]


def _leaves(tree: Any, *, jax: bool) -> list[Any]:
    if jax:
        return list(_jax().tree_util.tree_leaves(tree))
    if isinstance(tree, (tuple, list)):
        items: list[Any] = list(tree)  # pyright: ignore[reportUnknownArgumentType]
        return [leaf for item in items for leaf in _leaves(item, jax=False)]
    if is_mapping(tree):
        return [leaf for key in sorted(tree, key=str) for leaf in _leaves(tree[key], jax=False)]
    return [tree]


def _numeric(value: Any) -> Any:
    """A number or array as a NumPy array (a batch's row of rewards is a NumPy scalar where one state gives a
    ``float``: only the value counts); ``None`` for anything else."""
    if is_array(value):
        return value
    if isinstance(value, (bool, int, float, np.generic)):
        return np.asarray(value)
    return as_numpy(value)


def row_difference(batched_row: Any, single: Any, where: str, *, jax: bool) -> str | None:
    """Where a batch's row differs from the row's own result (``None`` when equal).

    Floats compare with a relative tolerance of 1e-5 under JAX (``vmap`` may order a row's float operations
    otherwise) and exactly for NumPy (a row-by-row implementation computes the same operations).
    """
    a_leaves, b_leaves = _leaves(batched_row, jax=jax), _leaves(single, jax=jax)
    if len(a_leaves) != len(b_leaves):
        return difference(batched_row, single, where)
    for index, (a, b) in enumerate(zip(a_leaves, b_leaves)):
        a_np, b_np = _numeric(a), _numeric(b)
        at = where if len(a_leaves) == 1 else f"{where} (leaf {index})"
        if a_np is None or b_np is None:
            found = difference(deep_snapshot(a), deep_snapshot(b), at)
            if found is not None:
                return found
            continue
        a_np, b_np = np.asarray(a_np), np.asarray(b_np)
        if a_np.shape != b_np.shape:
            return f"{at}: shape {a_np.shape} != {b_np.shape}"
        if jax and a_np.dtype.kind == "f" and b_np.dtype.kind == "f":
            equal = bool(np.allclose(a_np, b_np, rtol=1e-5, atol=1e-6, equal_nan=True))
        else:
            equal = bool(np.array_equal(a_np, b_np, equal_nan=a_np.dtype.kind == "f" and b_np.dtype.kind == "f"))
        if not equal:
            if a_np.ndim == 0:
                return f"{at}: {a_np!r} != {b_np!r}"
            return array_difference(a_np.reshape(-1), b_np.reshape(-1), at)
    return None


def _leading(tree: Any, *, jax: bool) -> int | None:
    leaves = _leaves(tree, jax=jax)
    sizes: set[int] = set()
    for leaf in leaves:
        shape = getattr(leaf, "shape", None)
        if not shape:
            return None
        sizes.add(int(shape[0]))
    return sizes.pop() if len(sizes) == 1 else None


def _takes_batches(case: Case, func: Handle, seed: int, sample: Callable[[], Any]) -> bool:
    """Whether a NumPy FuncEnv takes batches: ``initial`` and ``transition`` on 2 rows give 2 rows, unrecorded.

    The checked batch has :data:`BATCH` (3) rows; a single-state function that unpacks the state's last axis
    (``x, v = state``) can happen to run on a batch whose size equals that axis, so two sizes must both work.
    """
    from reference.functional import BatchedGenerator  # late: only NumPy FuncEnvs that may take batches need it

    try:
        rng = BatchedGenerator.from_generators([np.random.default_rng(seed + i) for i in range(2)])
        states = func.call("initial", rng, record=False)
        if _leading(states, jax=False) != 2:
            return False
        actions = np.stack([np.asarray(sample()) for _ in range(2)])
        return _leading(func.call("transition", states, actions, rng, record=False), jax=False) == 2
    except TargetError:
        return False


def batched_step(case: Case, func: Handle, seed: int, sample: Callable[[], Any], *, what: str) -> BatchedStep:
    """Drive ``initial`` then one step on a batch of :data:`BATCH` rows, and each row alone with equal rngs.

    Args:
        case: The item.
        func: A fresh instance of the target.
        seed: Row ``i``'s rng is made from ``seed + i`` (NumPy) or split from ``seed`` (JAX).
        sample: Draws one action.
        what: What the calling rule checks, for the not-checkable message of a FuncEnv without batches.

    Returns:
        The batched results and every row's own.

    Raises:
        NotCheckable: For a NumPy FuncEnv whose ``initial`` does not take a batch (through ``case``).
    """
    kind: RngKind = rng_kind(case)
    n = BATCH
    if not kind.is_jax and not _takes_batches(case, func, seed, sample):
        case.not_checkable(f"the FuncEnv does not take batches (initial and transition on a batch of 2 states, "
                           f"with a BatchedGenerator, raised or returned no batch of 2), so {what} on batched "
                           "states does not apply")
    if kind.is_jax:
        batched = case.wrap(VmappedFuncEnv(func.raw), "batched", f"VmappedFuncEnv({func.var})",
                            imports=("from conformance._kit.func_batch import VmappedFuncEnv",))
    else:
        batched = func
    driver = Driver(case, batched, kind=kind)
    single = Driver(case, func, kind=kind)
    batch_rng, rows, expr = kind.batch(seed, n)
    case.note(f"batch_rng = {expr}", imports=(*kind.imports, *(() if kind.is_jax else (
        "from reference.functional import BatchedGenerator",))))
    driver.name(batch_rng, "batch_rng")
    try:
        states = driver.call("initial", batch_rng, out="states")
    except TargetError as error:
        if kind.is_jax:
            raise
        case.not_checkable(f"the FuncEnv does not take batches ({error.call} raised "
                           f"{type(error.error).__name__}), so {what} on batched states does not apply")
    if _leading(states, jax=kind.is_jax) != n:
        if kind.is_jax:
            case.fail(f"initial under jax.vmap over {n} keys returned no batch of {n} states",
                      expected=f"states with leading dimension {n}", actual=repr(states)[:200])
        case.not_checkable(f"the FuncEnv does not take batches (initial with a BatchedGenerator of {n} rows "
                           f"returned no leading dimension {n}), so {what} on batched states does not apply")
    actions_list = [sample() for _ in range(n)]
    actions = np.stack([np.asarray(action) for action in actions_list])
    driver.name(actions, "actions")
    case.note(f"actions = np.array({actions.tolist()!r}, dtype=np.{actions.dtype.name})")
    try:
        next_states = driver.call("transition", states, actions, batch_rng, out="next_states")
        rewards = driver.call("reward", states, actions, next_states, batch_rng, out="rewards")
        terminals = driver.call("terminal", next_states, batch_rng, out="terminals")
        observations = driver.call("observation", next_states, batch_rng, out="observations")
    except TargetError as error:
        if kind.is_jax:
            raise  # every JAX FuncEnv is batched through vmap: the function's owner reports it
        # Without a declaration a NumPy FuncEnv's batch support is inferred, so a raise means "single states only".
        case.not_checkable(f"the FuncEnv does not take batches ({error.call} raised {type(error.error).__name__}), "
                           f"so {what} on batched states does not apply")
    singles: list[tuple[Any, Any, Any, Any, Any]] = []
    for i, own in enumerate(rows):
        # Row i's own rng: an equal generator (the batch drew from copies) or the batch's key i.
        made = f"np.random.default_rng({seed} + {i})" if not kind.is_jax else f"batch_rng[{i}]"
        case.note(f"row_rng_{i} = {made}")
        single.name(own, f"row_rng_{i}")
        state = single.call("initial", own, out=f"state_{i}")
        action = actions[i]
        single.name(action, f"actions[{i}]")
        next_state = single.call("transition", state, action, own, out=f"next_state_{i}")
        # Named, as the batch's results are, so a reproducer's assertion reads row i of both (ROW_VARS).
        reward = single.call("reward", state, action, next_state, own, out=f"reward_{i}")
        terminal = single.call("terminal", next_state, own, out=f"terminal_{i}")
        observation = single.call("observation", next_state, own, out=f"observation_{i}")
        singles.append((state, next_state, reward, terminal, observation))
    return BatchedStep(states, next_states, rewards, terminals, observations, singles, kind.is_jax)


def _jax() -> Any:
    """JAX, for a target that uses it (imported already); by name, as type checkers of a NumPy-only install cannot
    resolve this optional dependency."""
    return importlib.import_module("jax")
