"""Vector reward wrappers that keep state across steps.

* :class:`NormalizeReward` scales rewards so that each sub-env's discounted return has roughly unit variance.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import ActType, ObsType
from reference.utils.record_constructor import RecordConstructorArgs
from reference.vector.vector_env import AutoresetMode, VectorEnv, VectorWrapper
from reference.wrappers._shared import StatisticsToggle, require_real
from reference.wrappers.utils import BoundError, RunningMeanStd
from reference.wrappers.vector._utils import declared_autoreset_mode, reset_mask

__all__ = ["NormalizeReward"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Seed: TypeAlias = "int | list[int | None] | None"
_Floats: TypeAlias = NDArray[np.float64]
_Bools: TypeAlias = NDArray[np.bool_]
_Batch: TypeAlias = NDArray[Any]


class NormalizeReward(
    VectorWrapper[ObsType, ActType, ObsType, ActType, _Batch], RecordConstructorArgs, StatisticsToggle
):
    """Divide rewards by the running standard deviation of the sub-environments' discounted returns.

    Each sub-environment keeps an exponentially discounted return (``gamma``), restarted after a terminating step;
    the returns of every counted step update one shared running variance. The ``NextStep`` reset step after an
    episode end is not counted; under ``SameStep`` every step counts and the return restarts in the step that ends
    the episode. A partial ``reset(options={"reset_mask": mask})`` restarts only the masked sub-environments'
    returns (Gymnasium 1.4 restarts all of them). Set :attr:`update_running_mean` to ``False`` to freeze the
    statistics.

    The returns are stored as float32 and the statistics in float64, exactly as in Gymnasium, so results match it
    bit for bit.

    Args:
        env: The vector environment to wrap.
        gamma: The discount factor, in ``[0, 1]``.
        epsilon: Added to the variance before the square root; positive.

    Raises:
        InvalidBound: ``gamma`` or ``epsilon`` is out of range (also a ``ValueError``).
        ValueError: The environment declares an unknown autoreset mode.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = NormalizeReward(SyncVectorEnv([CartPoleEnv] * 2), gamma=0.9)
        >>> _ = envs.reset(seed=0)
        >>> envs.step(np.array([0, 1]))[1].round(2)
        array([100., 100.])
        >>> envs.close()
    """

    return_rms: RunningMeanStd
    accumulated_reward: NDArray[np.float32]
    gamma: float
    epsilon: float

    def __init__(self, env: VectorEnv[ObsType, ActType, _Batch], gamma: float = 0.99, epsilon: float = 1e-8) -> None:
        require_real("NormalizeReward", "gamma", gamma)
        require_real("NormalizeReward", "epsilon", epsilon)
        if not 0 <= gamma <= 1:
            raise BoundError(f"NormalizeReward gamma must be in [0, 1], got {gamma!r}")
        if not epsilon > 0:
            raise BoundError(f"NormalizeReward epsilon must be > 0, got {epsilon!r}")
        RecordConstructorArgs.__init__(self, gamma=gamma, epsilon=epsilon)
        VectorWrapper.__init__(self, env)
        self._autoreset_mode = declared_autoreset_mode(type(self).__name__, env)
        self.return_rms = RunningMeanStd(shape=())
        self.accumulated_reward = np.zeros(self.num_envs, dtype=np.float32)
        self.gamma = gamma
        self.epsilon = epsilon
        self._update_running_mean = True
        self._prev_dones = np.zeros(self.num_envs, dtype=np.bool_)

    def reset(self, *, seed: _Seed = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the environment and restart the discounted returns of the reset sub-environments.

        Args:
            seed: Passed through.
            options: Passed through; ``options["reset_mask"]`` restricts the restart to the masked sub-envs.

        Returns:
            The wrapped environment's ``(observations, info)``.
        """
        mask = reset_mask(type(self).__name__, options, self.num_envs)
        result = self.env.reset(seed=seed, options=options)
        selected = slice(None) if mask is None else mask
        self.accumulated_reward[selected] = 0.0
        self._prev_dones[selected] = False
        return result

    def step(self, actions: ActType) -> tuple[ObsType, _Floats, _Bools, _Bools, _Info]:
        """Step the environment and normalise its rewards.

        Args:
            actions: Passed through.

        Returns:
            The step result with the normalised rewards.
        """
        obs, rewards, terminations, truncations, info = self.env.step(actions)
        if self._autoreset_mode is AutoresetMode.SAME_STEP:
            active = np.ones(self.num_envs, dtype=np.bool_)
        else:
            # The NextStep reset step belongs to no episode; its zero reward must not enter the return.
            active = ~self._prev_dones
        self.accumulated_reward[active] = (
            self.accumulated_reward[active] * self.gamma * (1 - terminations[active]) + rewards[active]
        )
        if self._update_running_mean and active.any():
            self.return_rms.update(self.accumulated_reward[active])
        self._prev_dones = np.logical_or(terminations, truncations)
        if self._autoreset_mode is AutoresetMode.SAME_STEP:
            self.accumulated_reward[self._prev_dones] = 0.0
        normalised: _Floats = rewards / np.sqrt(self.return_rms.var + self.epsilon)
        return obs, normalised, terminations, truncations, info
