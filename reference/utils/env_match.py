"""Check that two environments behave identically: the same spaces, and the same data step by step.

Useful when porting an environment (a new version, another backend): seed both the same way, drive them with the
same actions, and compare every observation, reward, flag, info and rendered frame.

Example:
    >>> from reference.envs.classic_control.cartpole import CartPoleEnv
    >>> from reference.utils.env_match import check_environments_match
    >>> check_environments_match(CartPoleEnv(), CartPoleEnv(), num_steps=20)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reference.core import Env
from reference.utils._check_errors import CheckValueError
from reference.utils.env_checker import data_equivalence

__all__ = ["check_environments_match"]

_INFO_COMPARISONS = ("equivalence", "superset", "keys-equivalence", "keys-superset", "skip")
_AnyEnv = Env[Any, Any]
_Info = dict[str, Any]


def _require(condition: object, message: str) -> None:
    # Gymnasium's version asserts; ours raises an AssertionError subclass that is also a ValueError.
    if not condition:
        raise CheckValueError(message)


def _compare_infos(info_a: _Info, info_b: _Info, how: str, when: str) -> None:
    if how == "equivalence":
        _require(
            data_equivalence(info_a, info_b), f"{when} info is not equivalent, info_a = {info_a}, info_b = {info_b}"
        )
    elif how == "superset":
        for key in info_a:
            _require(
                key in info_b and data_equivalence(info_a[key], info_b[key]),
                f"{when} info is not a superset, key {key} present in info_a with value = {info_a[key]}, "
                f"in info_b with value = {info_b.get(key)}",
            )
    elif how == "keys-equivalence":
        _require(
            info_a.keys() == info_b.keys(),
            f"{when} info keys are not equivalent, info_a's keys are {info_a.keys()}, info_b's keys are "
            f"{info_b.keys()}",
        )
    elif how == "keys-superset":
        _require(
            info_b.keys() >= info_a.keys(),
            f"{when} info keys are not a superset, keys not present in info_b are: {info_a.keys() - info_b.keys()}",
        )


def check_environments_match(
    env_a: _AnyEnv,
    env_b: _AnyEnv,
    num_steps: int,
    seed: int = 0,
    skip_obs: bool = False,
    skip_rew: bool = False,
    skip_terminal: bool = False,
    skip_truncated: bool = False,
    skip_render: bool = False,
    info_comparison: str = "equivalence",
) -> None:
    """Check that ``env_a`` and ``env_b`` are identical for ``num_steps`` seeded random steps.

    Both are reset with ``seed``; the actions are sampled from ``env_a.action_space`` seeded with ``seed``; both
    are reset again (with ``seed``) whenever either episode ends.

    Args:
        env_a: The first environment.
        env_b: The second environment.
        num_steps: How many steps to compare (``0``: only the reset).
        seed: The seed for the resets and the actions.
        skip_obs: Do not compare observation spaces and observations.
        skip_rew: Do not compare rewards.
        skip_terminal: Do not compare ``terminated``.
        skip_truncated: Do not compare ``truncated``.
        skip_render: Do not compare frames (always skipped unless both render modes are set and not ``"human"``).
        info_comparison: ``"equivalence"`` (equal infos), ``"superset"`` (``info_b`` holds ``info_a``'s items),
            ``"keys-equivalence"``, ``"keys-superset"`` (the same on keys only) or ``"skip"``.

    Raises:
        ValueError: If ``info_comparison`` is not one of those.
        AssertionError: At the first difference (also a ``ValueError``); the message says where.
    """
    if info_comparison not in _INFO_COMPARISONS:
        raise ValueError(
            f"check_environments_match info_comparison must be one of {list(_INFO_COMPARISONS)}, "
            f"got {info_comparison!r}"
        )
    skip_render = skip_render or any(env.unwrapped.render_mode in (None, "human") for env in (env_a, env_b))
    _require(
        env_a.action_space == env_b.action_space,
        f"action spaces differ: {env_a.action_space} and {env_b.action_space}",
    )
    _require(
        skip_obs or env_a.observation_space == env_b.observation_space,
        f"observation spaces differ: {env_a.observation_space} and {env_b.observation_space}",
    )

    def compare_resets(when: str) -> None:
        obs_a, info_a = env_a.reset(seed=seed)
        obs_b, info_b = env_b.reset(seed=seed)
        _require(
            skip_obs or data_equivalence(obs_a, obs_b),
            f"{when} observation is not equivalent, observation_a = {obs_a}, observation_b = {obs_b}",
        )
        _compare_infos(info_a, info_b, info_comparison, when)
        _require(skip_render or np.all(env_a.render() == env_b.render()), f"{when} render is not equivalent")

    env_a.action_space.seed(seed)
    compare_resets("resetting")
    for step in range(num_steps):
        action = env_a.action_space.sample()
        obs_a, rew_a, terminal_a, truncated_a, info_a = env_a.step(action)
        obs_b, rew_b, terminal_b, truncated_b, info_b = env_b.step(action)
        when = f"stepping (step = {step})"
        _require(
            skip_obs or data_equivalence(obs_a, obs_b),
            f"{when} observation is not equivalent, observation_a = {obs_a}, observation_b = {obs_b}",
        )
        _require(
            skip_rew or data_equivalence(rew_a, rew_b),
            f"{when} reward is not equivalent, reward_a = {rew_a}, reward_b = {rew_b}",
        )
        _require(
            skip_terminal or terminal_a == terminal_b,
            f"{when} terminal is not equivalent, terminal_a = {terminal_a}, terminal_b = {terminal_b}",
        )
        _require(
            skip_truncated or truncated_a == truncated_b,
            f"{when} truncated is not equivalent, truncated_a = {truncated_a}, truncated_b = {truncated_b}",
        )
        _compare_infos(info_a, info_b, info_comparison, when)
        _require(skip_render or np.all(env_a.render() == env_b.render()), f"{when} render is not equivalent")
        if terminal_a or truncated_a or terminal_b or truncated_b:
            compare_resets(f"resetting (step = {step})")
