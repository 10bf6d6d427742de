"""Reward wrappers that keep state across steps.

* :class:`NormalizeReward` scales rewards so their discounted return has roughly unit variance.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias

import numpy as np

import gymspec
from reference.core import ActType, ObsType, Wrapper
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import StatisticsToggle, require_real
from reference.wrappers.utils import BoundError, RunningMeanStd

__all__ = ["NormalizeReward"]

_Info: TypeAlias = dict[str, Any]


class NormalizeReward(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs, StatisticsToggle):
    """Divide rewards by the running standard deviation of the discounted return.

    The discounted return restarts (is not carried over) after a terminating step. Set
    :attr:`update_running_mean` to ``False`` to freeze the statistics.

    Args:
        env: The environment to wrap.
        gamma: The discount factor, in ``[0, 1]``.
        epsilon: Added to the variance before the square root; positive.

    Raises:
        InvalidBound: If ``gamma`` or ``epsilon`` is out of range (also a ``ValueError``).

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = NormalizeReward(CartPoleEnv(), gamma=0.9)
        >>> _ = env.reset(seed=0)
        >>> round(float(env.step(0)[1]), 2)
        70.71
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], gamma: float = 0.99, epsilon: float = 1e-8) -> None:
        require_real("NormalizeReward", "gamma", gamma)
        require_real("NormalizeReward", "epsilon", epsilon)
        if not 0 <= gamma <= 1:
            raise BoundError(f"NormalizeReward gamma must be in [0, 1], got {gamma!r}")
        if not epsilon > 0:
            raise BoundError(f"NormalizeReward epsilon must be > 0, got {epsilon!r}")
        RecordConstructorArgs.__init__(self, gamma=gamma, epsilon=epsilon)
        Wrapper.__init__(self, env)
        self.return_rms = RunningMeanStd(shape=())
        self.discounted_reward: np.ndarray[Any, Any] = np.array([0.0])
        self.gamma = gamma
        self.epsilon = epsilon
        self._update_running_mean = True

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment and normalise its reward.

        Args:
            action: Passed through.

        Returns:
            The step result with the normalised reward.
        """
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.discounted_reward = self.discounted_reward * self.gamma * (1 - terminated) + float(reward)
        if self._update_running_mean:
            self.return_rms.update(self.discounted_reward)
        normalized = float(reward) / np.sqrt(self.return_rms.var + self.epsilon)
        return obs, normalized, terminated, truncated, info
