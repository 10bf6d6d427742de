"""Check a vector env against independent single envs, each modelled the way SyncVectorEnv would run it.

Sub-env ``i`` is a single env reset with seed ``s + i`` (or the list entry), stepped with its column of the
actions, truncated after ``max_episode_steps`` and, under ``NEXT_STEP``, reset (without a seed) on the step after
its episode ended, returning reward 0 and false flags. Every output must be identical (types, dtypes, values).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from typing_extensions import TypeAlias

from tests.reference._equality import assert_identical

__all__ = ["SingleModel", "check_info_row"]

_Env: TypeAlias = Any
_Value: TypeAlias = Any


def check_info_row(vector_info: dict[str, Any], index: int, single_info: dict[str, Any], where: str) -> None:
    """Sub-env ``index``'s entries of a batched info dict (``_k`` masks) equal its single info dict."""
    reported = {
        key
        for key, value in vector_info.items()
        if not key.startswith("_") and bool(vector_info[f"_{key}"][index])
    }
    assert reported == set(single_info), f"{where}: info keys {sorted(reported)} != {sorted(single_info)}"
    for key, want in single_info.items():
        got = vector_info[key]
        if isinstance(want, dict):
            check_info_row(got, index, want, f"{where}[{key!r}]")
        else:
            # A batched info stores a row's value as an array element: compare as arrays (dtype, shape, value).
            assert_identical(np.asarray(got[index]), np.asarray(want), f"{where}[{key!r}]")


class SingleModel:
    """``num_envs`` single envs driven as a NEXT_STEP vector env of them would drive them."""

    def __init__(self, make_single: Callable[[], _Env], num_envs: int, max_episode_steps: int) -> None:
        self.envs = [make_single() for _ in range(num_envs)]
        self.max_episode_steps = max_episode_steps
        self.ended = [False] * num_envs
        self.steps = [0] * num_envs
        self.last_obs: list[_Value] = []

    def reset(self, seeds: Sequence[int | None], rows: Sequence[int]) -> dict[int, tuple[_Value, dict[str, Any]]]:
        out = {}
        for i in rows:
            out[i] = self.envs[i].reset(seed=seeds[i])
            self.ended[i] = False
            self.steps[i] = 0
        return out

    def step(self, i: int, action: _Value) -> tuple[_Value, float, bool, bool, dict[str, Any]]:
        env = self.envs[i]
        if self.ended[i]:
            obs, info = env.reset()
            self.ended[i] = False
            self.steps[i] = 0
            return obs, 0.0, False, False, info
        obs, reward, terminated, truncated, info = env.step(action)
        self.steps[i] += 1
        truncated = truncated or (self.max_episode_steps > 0 and self.steps[i] >= self.max_episode_steps)
        self.ended[i] = terminated or truncated
        return obs, reward, terminated, truncated, info

    def compare_reset(self, vec: _Env, seed: _Value, mask: np.ndarray[Any, Any] | None = None) -> None:
        n = len(self.envs)
        seeds = [seed + i for i in range(n)] if isinstance(seed, int) else (seed or [None] * n)
        rows = range(n) if mask is None else np.flatnonzero(mask).tolist()
        options = None if mask is None else {"reset_mask": mask}
        before = None if mask is None else list(self.last_obs)
        obs, info = vec.reset(seed=seed, options=options)
        singles = self.reset(seeds, rows)
        for i in range(n):
            if i in singles:
                assert_identical(obs[i], singles[i][0], f"reset obs[{i}]")
                if info or singles[i][1]:
                    check_info_row(info, i, singles[i][1], f"reset info[{i}]")
            elif before is not None:
                assert_identical(obs[i], before[i], f"unmasked reset obs[{i}]")
        self.last_obs = [obs[i].copy() for i in range(n)]

    def compare_step(self, vec: _Env, actions: _Value, where: str) -> None:
        obs, rewards, terminations, truncations, info = vec.step(actions)
        assert rewards.dtype == np.float64 and terminations.dtype == truncations.dtype == np.bool_
        for i in range(len(self.envs)):
            want_obs, want_reward, want_term, want_trunc, want_info = self.step(i, actions[i])
            at = f"{where} sub-env {i}"
            assert_identical(obs[i], want_obs, f"{at} obs")
            assert rewards[i] == want_reward, f"{at} reward {rewards[i]!r} != {want_reward!r}"
            assert terminations[i] == want_term and truncations[i] == want_trunc, f"{at} flags"
            if info or want_info:
                check_info_row(info, i, want_info, f"{at} info")
        self.last_obs = [obs[i].copy() for i in range(len(self.envs))]
