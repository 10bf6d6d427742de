"""Wrappers that transform each reward (stateless).

* :class:`TransformReward` applies any function.
* :class:`ClipReward` clips into ``[min_reward, max_reward]``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat, TypeAlias

import numpy as np
from numpy.typing import NDArray

import gymspec
from reference.core import ActType, ObsType, RewardWrapper
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import is_int
from reference.wrappers.utils import BoundError

__all__ = ["ClipReward", "TransformReward"]

_Bound: TypeAlias = "float | np.ndarray[Any, Any] | None"


def _check_bound(name: str, bound: _Bound) -> None:
    """Reject a bound ``np.clip`` cannot use (a non-number) or would apply silently wrong (NaN clips to NaN)."""
    if bound is None:
        return
    if is_int(bound):
        return  # no integer is NaN (and a huge one need not fit a NumPy type)
    try:
        values: NDArray[Any] = np.asarray(bound)
    except (TypeError, ValueError):  # a ragged sequence
        values = np.asarray(None)
    if values.dtype.kind not in "iuf":
        raise TypeError(f"ClipReward {name} must be a real number, an array of them or None, got {describe(bound)}")
    if np.any(np.isnan(values)):
        raise BoundError(f"ClipReward {name} must not be NaN, got {describe(bound)}")


def _inverted(min_reward: _Bound, max_reward: _Bound) -> bool:
    try:
        return bool(np.any(np.subtract(np.asarray(max_reward), np.asarray(min_reward)) < 0))
    except ValueError:
        raise ValueError(
            f"ClipReward min_reward and max_reward must have broadcastable shapes, got min_reward="
            f"{describe(min_reward)} max_reward={describe(max_reward)}"
        ) from None


class TransformReward(RewardWrapper[ObsType, ActType], RecordConstructorArgs):
    """Apply ``func`` to every reward from ``step``.

    Args:
        env: The environment to wrap.
        func: Maps the inner reward to the wrapper's reward.

    Raises:
        TypeError: If ``func`` is not callable.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = TransformReward(CartPoleEnv(), lambda r: 2 * r)
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[1]
        2.0
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], func: Callable[[SupportsFloat], SupportsFloat]) -> None:
        if not callable(func):
            raise TypeError(f"{type(self).__name__} func must be callable, got {func!r}")
        RecordConstructorArgs.__init__(self, func=func)
        RewardWrapper.__init__(self, env)
        self.func = func

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        """Transform a reward with ``func``.

        Args:
            reward: The inner reward.

        Returns:
            ``func(reward)``.
        """
        return self.func(reward)


class ClipReward(TransformReward[ObsType, ActType], RecordConstructorArgs):
    """Clip rewards into ``[min_reward, max_reward]`` (either bound may be ``None``, not both).

    Args:
        env: The environment to wrap.
        min_reward: The lower bound, or ``None``.
        max_reward: The upper bound, or ``None``.

    Raises:
        InvalidBound: If both bounds are ``None`` or ``min_reward > max_reward`` (also a ``ValueError``).

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = ClipReward(CartPoleEnv(), min_reward=0.0, max_reward=0.5)
        >>> _ = env.reset(seed=0)
        >>> float(env.step(0)[1])
        0.5
    """

    def __init__(
        self, env: gymspec.Env[ObsType, ActType], min_reward: _Bound = None, max_reward: _Bound = None
    ) -> None:
        if min_reward is None and max_reward is None:
            raise BoundError("ClipReward min_reward and max_reward must not both be None, got None and None")
        _check_bound("min_reward", min_reward)
        _check_bound("max_reward", max_reward)
        if min_reward is not None and max_reward is not None and _inverted(min_reward, max_reward):
            raise BoundError(
                f"ClipReward min_reward must be <= max_reward, got min_reward={min_reward!r} max_reward={max_reward!r}"
            )
        for name, bound in (("min_reward", min_reward), ("max_reward", max_reward)):
            if bound is not None and np.ndim(bound):
                # np.clip would broadcast the float reward to an array, which no caller of step expects.
                raise ValueError(f"ClipReward {name} must be a single number (a reward is one float), got {describe(bound)}")
        RecordConstructorArgs.__init__(self, min_reward=min_reward, max_reward=max_reward)
        TransformReward.__init__(self, env=env, func=lambda r: np.clip(float(r), a_min=min_reward, a_max=max_reward))
