"""The three single-purpose wrappers, each routing one part of the interaction through a hook method.

``ObservationWrapper.observation``, ``RewardWrapper.reward`` and ``ActionWrapper.action``. Import them from
:mod:`reference.core`, their public home.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias

import gymspec
from reference._env import ActType, ObsType, WrapperActType, WrapperObsType
from reference._wrapper import Wrapper

__all__ = ["ActionWrapper", "ObservationWrapper", "RewardWrapper"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]


class ObservationWrapper(Wrapper[WrapperObsType, ActType, ObsType, ActType]):
    """A wrapper that transforms every observation through :meth:`observation`.

    Set ``self.observation_space`` in ``__init__`` when the transformation changes the space.

    Args:
        env: The environment to wrap.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Box
        >>> class CartOnly(ObservationWrapper):
        ...     def __init__(self, env):
        ...         super().__init__(env)
        ...         inner = env.observation_space
        ...         self.observation_space = Box(inner.low[:2], inner.high[:2], dtype=inner.dtype)
        ...     def observation(self, observation):
        ...         return observation[:2]  # position and velocity of the cart
        >>> env = CartOnly(CartPoleEnv())
        >>> obs, _ = env.reset(seed=0)
        >>> obs.shape, env.observation_space.contains(obs)
        ((2,), True)
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        Wrapper.__init__(self, env)

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[WrapperObsType, _Info]:
        """Reset the inner environment and transform its observation.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            ``(observation(obs), info)``.
        """
        obs, info = self.env.reset(seed=seed, options=options)
        return self.observation(obs), info

    def step(self, action: ActType) -> tuple[WrapperObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment and transform its observation.

        Args:
            action: Passed through.

        Returns:
            The step result with the observation transformed.
        """
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self.observation(obs), reward, terminated, truncated, info

    def observation(self, observation: ObsType) -> WrapperObsType:
        """Transform an observation of the inner environment.

        Args:
            observation: The inner observation.

        Returns:
            The wrapper's observation.
        """
        raise NotImplementedError


class RewardWrapper(Wrapper[ObsType, ActType, ObsType, ActType]):
    """A wrapper that transforms every reward through :meth:`reward`.

    Args:
        env: The environment to wrap.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> class Halved(RewardWrapper):
        ...     def reward(self, reward):
        ...         return reward / 2
        >>> env = Halved(CartPoleEnv())
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[1]
        0.5
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        Wrapper.__init__(self, env)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment and transform its reward.

        Args:
            action: Passed through.

        Returns:
            The step result with the reward transformed.
        """
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, self.reward(reward), terminated, truncated, info

    def reward(self, reward: SupportsFloat) -> SupportsFloat:
        """Transform a reward of the inner environment.

        Args:
            reward: The inner reward.

        Returns:
            The wrapper's reward.
        """
        raise NotImplementedError


class ActionWrapper(Wrapper[ObsType, WrapperActType, ObsType, ActType]):
    """A wrapper that transforms every action through :meth:`action` before the inner ``step``.

    Set ``self.action_space`` in ``__init__`` when the wrapper accepts different actions than the inner env.

    Args:
        env: The environment to wrap.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> class Mirrored(ActionWrapper):
        ...     def action(self, action):
        ...         return 1 - action  # push the other way
        >>> env = Mirrored(CartPoleEnv())
        >>> _ = env.reset(seed=0)
        >>> int(env.step(0)[0][1] > 0)  # the cart accelerates right
        1
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        Wrapper.__init__(self, env)

    def step(self, action: WrapperActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Transform the action and step the inner environment.

        Args:
            action: An element of the wrapper's action space.

        Returns:
            The inner step result.
        """
        return self.env.step(self.action(action))

    def action(self, action: WrapperActType) -> ActType:
        """Transform an action into one the inner environment accepts.

        Args:
            action: The wrapper's action.

        Returns:
            The inner environment's action.
        """
        raise NotImplementedError
