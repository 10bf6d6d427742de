"""Lock-step differential rollouts of a reference environment against Gymnasium's.

Both environments are reset with the same seed and fed the same actions; every reset and step output is compared
exactly (observation values and dtype, reward value and kind, flags, info). When an episode ends both are reset
again without a seed, so the comparison also covers how the random stream continues across episodes.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
from hypothesis import strategies as st

from tests.reference._equality import assert_equal_values, assert_identical

_Env: TypeAlias = Any  # a reference or Gymnasium environment (or wrapper)
_Value: TypeAlias = Any

__all__ = [
    "box_actions",
    "discrete_actions",
    "policy_actions",
    "run_lockstep",
    "sampled_actions",
]


def _integral(reward: _Value) -> bool:
    return isinstance(reward, (int, np.integer)) and not isinstance(reward, bool)


def run_lockstep(
    ours: _Env, theirs: _Env, seed: int, actions: Iterable[_Value], *, options: Mapping[str, _Value] | None = None
) -> int:
    """Reset both environments with ``seed`` and step them with ``actions``, comparing everything.

    Args:
        ours: The reference environment.
        theirs: The Gymnasium environment.
        seed: The reset seed.
        actions: The actions, applied to both.
        options: Reset options for the first (seeded) reset.

    Returns:
        The number of episodes that ended during the rollout.
    """
    opts = dict(options) if options is not None else None
    obs_a, info_a = ours.reset(seed=seed, options=opts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        obs_b, info_b = theirs.reset(seed=seed, options=opts)
    assert_identical(obs_a, obs_b, "seeded reset: observation")
    assert_identical(info_a, info_b, "seeded reset: info")
    endings = 0
    for index, action in enumerate(actions):
        obs_a, rew_a, term_a, trunc_a, info_a = ours.step(action)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            obs_b, rew_b, term_b, trunc_b, info_b = theirs.step(action)
        where = f"step {index}"
        assert_identical(obs_a, obs_b, f"{where}: observation")
        # Python and NumPy scalar rewards are interchangeable (Gymnasium mixes them); integral vs floating is not.
        assert_equal_values(rew_a, rew_b, f"{where}: reward")
        assert _integral(rew_a) == _integral(rew_b), f"{where}: reward kind {type(rew_a)} != {type(rew_b)}"
        assert type(term_a) is bool and term_a == term_b, f"{where}: terminated {term_a!r} != {term_b!r}"
        assert type(trunc_a) is bool and trunc_a == trunc_b, f"{where}: truncated {trunc_a!r} != {trunc_b!r}"
        assert_identical(info_a, info_b, f"{where}: info")
        if term_a or trunc_a:
            endings += 1
            obs_a, info_a = ours.reset()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                obs_b, info_b = theirs.reset()
            assert_identical(obs_a, obs_b, f"unseeded reset after step {index}: observation")
            assert_identical(info_a, info_b, f"unseeded reset after step {index}: info")
    return endings


def discrete_actions(n: int, *, min_size: int = 50, max_size: int = 200) -> st.SearchStrategy[list[_Value]]:
    """Action sequences for ``Discrete(n)``: Python ints, with some NumPy integers mixed in.

    Args:
        n: The number of actions.
        min_size: The shortest sequence (long enough to cross episode ends; Hypothesis favours short lists).
        max_size: The longest sequence.

    Returns:
        A strategy of action lists.
    """
    action = st.integers(0, n - 1)
    return st.lists(st.one_of(action, action.map(np.int64)), min_size=min_size, max_size=max_size)


def box_actions(
    low: float, high: float, *, margin: float = 1.0, min_size: int = 50, max_size: int = 200
) -> st.SearchStrategy[list[_Value]]:
    """Action sequences of ``(1,)`` float32 arrays, including values up to ``margin`` outside the bounds.

    Args:
        low: The action space's lower bound.
        high: The action space's upper bound.
        margin: How far outside the bounds values may go (they exercise clipping).
        min_size: The shortest sequence.
        max_size: The longest sequence.

    Returns:
        A strategy of action lists.
    """
    value = st.floats(low - margin, high + margin, width=32, allow_nan=False)
    return st.lists(value.map(lambda v: np.array([v], dtype=np.float32)), min_size=min_size, max_size=max_size)


def sampled_actions(space: _Env, seed: int, count: int) -> Sequence[_Value]:
    """``count`` actions sampled from a Gymnasium action space seeded with ``seed``."""
    space.seed(seed)
    return [space.sample() for _ in range(count)]


def policy_actions(
    env: _Env,
    seed: int,
    policy: Callable[[_Value], _Value],
    steps: int,
    *,
    options: Mapping[str, _Value] | None = None,
) -> list[_Value]:
    """Record the actions a feedback policy takes in ``env`` (continuing across episodes like run_lockstep).

    Feeding the recorded list to :func:`run_lockstep` exercises the states a good policy reaches (goals,
    terminations) that random actions rarely do.

    Args:
        env: A fresh environment to roll the policy out in.
        seed: The reset seed (the same one given to run_lockstep).
        policy: Maps an observation to an action.
        steps: How many actions to record.
        options: Reset options for the first reset.

    Returns:
        The actions, in order.
    """
    obs, _ = env.reset(seed=seed, options=dict(options) if options is not None else None)
    actions = []
    for _ in range(steps):
        action = policy(obs)
        actions.append(action)
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()
    return actions
