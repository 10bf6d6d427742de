"""Vector wrappers that transform every batch of rewards (stateless).

* :class:`TransformReward` applies a function to the whole reward array.
* :class:`VectorizeTransformReward` applies a single-env reward wrapper to each sub-env's reward;
  :class:`ClipReward` is that for the single-env :class:`reference.wrappers.ClipReward`.

The reward array returned by the inner environment is never modified in place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import ActType, ObsType, RewardWrapper
from reference.vector.vector_env import ArrayType, VectorEnv, VectorRewardWrapper
from reference.wrappers import transform_reward
from reference.wrappers.vector._utils import SingleEnv, check_callable, check_single_wrapper

__all__ = ["ClipReward", "TransformReward", "VectorizeTransformReward"]

_Value: TypeAlias = Any
_Rewards: TypeAlias = NDArray[Any]
_Bound: TypeAlias = "float | NDArray[Any] | None"
_SingleWrapper: TypeAlias = "RewardWrapper[Any, Any]"


class TransformReward(VectorRewardWrapper[ObsType, ActType, ArrayType]):
    """Apply ``func`` to every reward array from ``step``.

    Args:
        env: The vector environment to wrap.
        func: Maps the ``(num_envs,)`` reward array to the wrapper's rewards.

    Raises:
        TypeError: ``func`` is not callable.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = TransformReward(SyncVectorEnv([CartPoleEnv] * 3), lambda rewards: (rewards - 1.0) * 2.0)
        >>> _ = envs.reset(seed=0)
        >>> envs.step(np.array([0, 1, 0]))[1]
        array([0., 0., 0.])
        >>> envs.close()
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType], func: Callable[[ArrayType], ArrayType]) -> None:
        check_callable(type(self).__name__, "func", func)
        super().__init__(env)
        self.func = func

    def rewards(self, rewards: ArrayType) -> ArrayType:
        """Transform the rewards with ``func``.

        Args:
            rewards: The inner rewards.

        Returns:
            ``func(rewards)``.
        """
        return self.func(rewards)


class VectorizeTransformReward(VectorRewardWrapper[ObsType, ActType, _Rewards]):
    """Apply a single-env reward wrapper to each sub-environment's reward.

    Args:
        env: The vector environment to wrap.
        wrapper: A single-env :class:`~reference.core.RewardWrapper` class (e.g.
            :class:`reference.wrappers.TransformReward`).
        **kwargs: The wrapper's constructor arguments other than ``env``.

    Raises:
        TypeError: ``wrapper`` is not a RewardWrapper class; the wrapper's own errors propagate.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> from reference.vector import SyncVectorEnv
        >>> from reference.wrappers import TransformReward as SingleTransform
        >>> envs = SyncVectorEnv([PendulumEnv] * 3)
        >>> envs = VectorizeTransformReward(envs, SingleTransform, func=lambda r: max(float(r), -1.0))
        >>> _ = envs.reset(seed=0)
        >>> envs.step(np.zeros((3, 1), dtype=np.float32))[1]
        array([-0.76175531, -0.08668416, -1.        ])
        >>> envs.close()
    """

    wrapper: _SingleWrapper

    def __init__(
        self, env: VectorEnv[ObsType, ActType, _Rewards], wrapper: type[_SingleWrapper], **kwargs: _Value
    ) -> None:
        check_single_wrapper(type(self).__name__, wrapper, RewardWrapper)
        super().__init__(env)
        self.wrapper = wrapper(SingleEnv.of(env), **kwargs)

    def rewards(self, rewards: _Rewards) -> _Rewards:
        """Transform each sub-environment's reward with the wrapper's ``reward``.

        Args:
            rewards: The inner rewards (not modified).

        Returns:
            A new array of the same dtype.
        """
        out = np.array(rewards, copy=True)
        for i, reward in enumerate(rewards):
            out[i] = self.wrapper.reward(reward)
        return out


class ClipReward(VectorizeTransformReward[ObsType, ActType]):
    """Clip every reward into ``[min_reward, max_reward]`` (either bound may be ``None``, not both).

    Args:
        env: The vector environment to wrap.
        min_reward: The lower bound, or ``None``.
        max_reward: The upper bound, or ``None``.

    Raises:
        InvalidBound: Both bounds are ``None`` or ``min_reward > max_reward`` (also a ``ValueError``).

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = ClipReward(SyncVectorEnv([PendulumEnv] * 3), min_reward=-1.0)
        >>> _ = envs.reset(seed=0)
        >>> envs.step(np.zeros((3, 1), dtype=np.float32))[1]
        array([-0.76175531, -0.08668416, -1.        ])
        >>> envs.close()
    """

    def __init__(
        self, env: VectorEnv[ObsType, ActType, _Rewards], min_reward: _Bound = None, max_reward: _Bound = None
    ) -> None:
        super().__init__(env, transform_reward.ClipReward, min_reward=min_reward, max_reward=max_reward)
