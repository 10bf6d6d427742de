"""FUNC-rule checks for a batch-capable functional environment, on single states and on batches.

``check_rollout`` walks an episode (resetting at terminal states) and at every transition checks: inputs are not
mutated (FUNC-002), equal copies of the rng give equal results whatever the call order (FUNC-003), the global
generators are neither used nor advanced (FUNC-004), observations are in the space (FUNC-006/007), rewards are
finite reals (FUNC-008), flags bool-like (FUNC-009) and infos dicts (FUNC-010). ``check_batch_matches_rows``
checks that a batched call equals the per-row single calls exactly (dtypes and values).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from typing_extensions import TypeAlias

from reference.functional import BatchedGenerator
from tests.reference._equality import assert_identical

__all__ = ["check_batch_matches_rows", "check_batched_initial", "check_rollout"]

_FuncEnv: TypeAlias = Any
_Value: TypeAlias = Any


def check_rollout(func_env: _FuncEnv, seed: int, actions: Sequence[_Value]) -> None:
    """Drive ``func_env`` through ``actions`` from ``initial(seed)`` and check the FUNC rules at each step."""
    params = func_env.default_params
    legacy_before: _Value = np.random.get_state()
    python_before = random.getstate()
    rng = np.random.default_rng(seed)
    state = func_env.initial(rng, params)
    assert func_env.observation_space.contains(func_env.observation(state, rng, params))  # FUNC-006
    for action in actions:
        state_copy, action_copy, params_copy = copy.deepcopy((state, action, params))
        rng_copy = copy.deepcopy(rng)
        next_state = func_env.transition(state, action, rng, params)
        reward = func_env.reward(state, action, next_state, rng, params)
        terminal = func_env.terminal(next_state, rng, params)
        obs = func_env.observation(next_state, rng, params)
        info = func_env.transition_info(state, action, next_state, params)
        # FUNC-002: nothing the functions received has changed.
        assert_identical(state, state_copy, "FUNC-002 state")
        assert_identical(action, action_copy, "FUNC-002 action")
        assert params == params_copy
        # FUNC-003: equal rng copies, reversed call order, same results.
        obs_again = func_env.observation(next_state, copy.deepcopy(rng_copy), params)
        terminal_again = func_env.terminal(next_state, copy.deepcopy(rng_copy), params)
        reward_again = func_env.reward(state, action, next_state, copy.deepcopy(rng_copy), params)
        next_again = func_env.transition(state, action, copy.deepcopy(rng_copy), params)
        assert_identical(next_again, next_state, "FUNC-003 transition")
        assert_identical(reward_again, reward, "FUNC-003 reward")
        assert_identical(terminal_again, terminal, "FUNC-003 terminal")
        assert_identical(obs_again, obs, "FUNC-003 observation")
        assert func_env.observation_space.contains(obs)  # FUNC-007
        assert isinstance(reward, (float, np.floating)) and np.isfinite(reward)  # FUNC-008
        assert isinstance(terminal, (bool, np.bool_))  # FUNC-009
        assert isinstance(info, dict) and isinstance(func_env.state_info(next_state, params), dict)  # FUNC-010
        state = func_env.initial(rng, params) if terminal else next_state
    # FUNC-004: the global generators were not advanced.
    assert random.getstate() == python_before
    legacy_now: _Value = np.random.get_state()
    assert np.array_equal(legacy_now[1], legacy_before[1]) and legacy_now[2:] == legacy_before[2:]


def check_batch_matches_rows(func_env: _FuncEnv, states: np.ndarray[Any, Any], actions: _Value) -> None:
    """Batched calls equal the per-row single calls (results and dtypes), and leave the batch untouched."""
    params = func_env.default_params
    kept = states.copy()
    batch_next = func_env.transition(states, actions, None, params)
    batch_reward = func_env.reward(states, actions, batch_next, None, params)
    batch_terminal = func_env.terminal(batch_next, None, params)
    batch_obs = func_env.observation(batch_next, None, params)
    assert_identical(states, kept, "the batch passed in")
    assert batch_reward.shape == batch_terminal.shape == (len(states),) and batch_terminal.dtype == np.bool_
    for i in range(len(states)):
        row_next = func_env.transition(states[i], actions[i], None, params)
        row_reward = func_env.reward(states[i], actions[i], row_next, None, params)
        # A batch element is a NumPy scalar where a row call may return a 0-d array: compare them as arrays.
        assert_identical(batch_next[i], row_next, f"row {i}: transition")
        assert_identical(np.asarray(batch_reward[i]), np.asarray(row_reward), f"row {i}: reward")
        terminal = func_env.terminal(row_next, None, params)
        assert_identical(np.asarray(batch_terminal[i]), np.asarray(terminal), f"row {i}: terminal")
        assert_identical(batch_obs[i], func_env.observation(row_next, None, params), f"row {i}: observation")


def check_batched_initial(func_env: _FuncEnv, seeds: Sequence[int]) -> None:
    """``initial`` on a BatchedGenerator draws, row by row, what it draws from each generator."""
    batch = BatchedGenerator.from_generators([np.random.default_rng(s) for s in seeds])
    draws = [func_env.initial(batch, func_env.default_params) for _ in range(3)]
    assert all(states.shape[0] == len(seeds) for states in draws)
    singles = [np.random.default_rng(s) for s in seeds]
    for _ in range(2):
        [func_env.initial(g, func_env.default_params) for g in singles]
    for i, gen in enumerate(singles):
        assert_identical(draws[-1][i], func_env.initial(gen, func_env.default_params), f"row {i}: initial")
