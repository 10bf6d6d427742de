"""The vector wrapper bases: :class:`VectorWrapper` and its observation, action and reward specialisations.

A wrapper delegates everything to the vector environment it wraps; spaces and metadata read through to it until
the wrapper assigns its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, cast

import numpy as np

from gymspec import AutoresetMode
from reference import logger
from reference.core import ActType, ObsType, RenderFrame, WrapperActType, WrapperObsType
from reference.vector._base_env import (
    ArrayType,
    CloseOption,
    InfoDict,
    Metadata,
    Options,
    RandomSeed,
    RandomState,
    VectorEnv,
    VectorSeed,
)

if TYPE_CHECKING:
    from reference.registration import EnvSpec
    from reference.spaces import Space

__all__ = ["VectorActionWrapper", "VectorObservationWrapper", "VectorRewardWrapper", "VectorWrapper"]


class VectorWrapper(
    VectorEnv[WrapperObsType, WrapperActType, ArrayType],
    Generic[WrapperObsType, WrapperActType, ObsType, ActType, ArrayType],
):
    """A vector environment that delegates to ``env`` and may change its spaces, data or behaviour.

    Spaces and metadata read through to ``env`` until the wrapper assigns its own.

    Args:
        env: The vector environment to wrap.

    Raises:
        TypeError: ``env`` is not a :class:`VectorEnv`.
    """

    env: VectorEnv[ObsType, ActType, ArrayType]

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        if not isinstance(env, VectorEnv):
            raise TypeError(f"{type(self).__name__} env must be a reference VectorEnv, got {type(env).__name__}")
        self.env = env
        self._observation_space: Space[Any] | None = None
        self._action_space: Space[Any] | None = None
        self._single_observation_space: Space[Any] | None = None
        self._single_action_space: Space[Any] | None = None
        self._metadata: Metadata | None = None

    def reset(self, *, seed: VectorSeed = None, options: Options | None = None) -> tuple[WrapperObsType, InfoDict]:
        """Reset the wrapped environment (override when the wrapper changes observations)."""
        return cast("tuple[WrapperObsType, InfoDict]", self.env.reset(seed=seed, options=options))

    def step(self, actions: WrapperActType) -> tuple[WrapperObsType, ArrayType, ArrayType, ArrayType, InfoDict]:
        """Step the wrapped environment (override when the wrapper changes actions or observations)."""
        result = self.env.step(cast("ActType", actions))
        return cast("tuple[WrapperObsType, ArrayType, ArrayType, ArrayType, InfoDict]", result)

    def render(self) -> tuple[RenderFrame, ...] | None:
        """Render the wrapped environment."""
        return self.env.render()

    def close(self, **kwargs: CloseOption) -> None:
        """Close the wrapped environment."""
        self.env.close(**kwargs)

    def close_extras(self, **kwargs: CloseOption) -> None:
        """Release the wrapped environment's extra resources."""
        self.env.close_extras(**kwargs)

    @property
    def unwrapped(self) -> VectorEnv[Any, Any, Any]:
        """The innermost vector environment."""
        return self.env.unwrapped

    def __repr__(self) -> str:
        return f"<{type(self).__name__}, {self.env}>"

    # VectorEnv declares these as plain attributes; a wrapper reads them through to the wrapped environment with
    # properties, which pyright does not accept as overriding an attribute (its setters carry the ignore).

    @property
    def observation_space(self) -> Space[Any]:
        """The batched observation space (the wrapped one unless set)."""
        return self.env.observation_space if self._observation_space is None else self._observation_space

    @observation_space.setter
    def observation_space(self, space: Space[Any]) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._observation_space = space

    @property
    def action_space(self) -> Space[Any]:
        """The batched action space (the wrapped one unless set)."""
        return self.env.action_space if self._action_space is None else self._action_space

    @action_space.setter
    def action_space(self, space: Space[Any]) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._action_space = space

    @property
    def single_observation_space(self) -> Space[Any]:
        """One sub-environment's observation space (the wrapped one unless set)."""
        if self._single_observation_space is None:
            return self.env.single_observation_space
        return self._single_observation_space

    @single_observation_space.setter
    def single_observation_space(self, space: Space[Any]) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._single_observation_space = space

    @property
    def single_action_space(self) -> Space[Any]:
        """One sub-environment's action space (the wrapped one unless set)."""
        return self.env.single_action_space if self._single_action_space is None else self._single_action_space

    @single_action_space.setter
    def single_action_space(self, space: Space[Any]) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._single_action_space = space

    @property
    def num_envs(self) -> int:
        """The wrapped environment's number of sub-environments."""
        return self.env.num_envs

    @num_envs.setter
    def num_envs(self, value: int) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        raise AttributeError(f"{type(self).__name__} num_envs is read-only (it is the wrapped environment's)")

    @property
    def np_random(self) -> RandomState:
        """The wrapped environment's generator(s)."""
        return self.env.np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self.env.np_random = value

    @property
    def np_random_seed(self) -> RandomSeed:
        """The wrapped environment's seed(s)."""
        return self.env.np_random_seed

    @property
    def metadata(self) -> Metadata:
        """The metadata (the wrapped environment's unless set)."""
        return self.env.metadata if self._metadata is None else self._metadata

    @metadata.setter
    def metadata(self, value: Metadata) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._metadata = value

    @property
    def spec(self) -> EnvSpec | None:
        """The wrapped environment's spec."""
        return self.env.spec

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self.env.spec = value

    @property
    def render_mode(self) -> str | None:
        """The wrapped environment's render mode."""
        return self.env.render_mode

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        raise AttributeError(f"{type(self).__name__} render_mode is read-only (it is the wrapped environment's)")

    @property
    def closed(self) -> bool:
        """Whether the wrapped environment is closed."""
        return self.env.closed

    @closed.setter
    def closed(self, value: bool) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self.env.closed = value


class VectorObservationWrapper(VectorWrapper[WrapperObsType, ActType, ObsType, ActType, ArrayType]):
    """A vector wrapper that transforms every batch of observations with :meth:`observations`.

    Under ``SameStep`` autoreset the final observations travel in ``info["final_obs"]`` and would escape the
    transformation, so that mode is rejected.

    Args:
        env: The vector environment to wrap.

    Raises:
        ValueError: ``env`` declares ``autoreset_mode`` ``SameStep``.
    """

    def __init__(self, env: VectorEnv[ObsType, ActType, ArrayType]) -> None:
        super().__init__(env)
        if "autoreset_mode" not in env.metadata:
            logger.warn(
                f"{type(self).__name__} env.metadata should declare 'autoreset_mode', got none from {env}; its "
                "same-step final observations, if any, would not be transformed: declare the mode in the env's metadata"
            )
            return
        mode = env.metadata["autoreset_mode"]
        if getattr(mode, "value", mode) not in (AutoresetMode.NEXT_STEP.value, AutoresetMode.DISABLED.value):
            raise ValueError(
                f"{type(self).__name__} env autoreset_mode must be NEXT_STEP or DISABLED, got {mode!r} "
                "(SameStep final observations in info['final_obs'] would not be transformed)"
            )

    def reset(self, *, seed: VectorSeed = None, options: Options | None = None) -> tuple[WrapperObsType, InfoDict]:
        """Reset the wrapped environment and transform the observations."""
        observations, infos = self.env.reset(seed=seed, options=options)
        return self.observations(observations), infos

    def step(self, actions: ActType) -> tuple[WrapperObsType, ArrayType, ArrayType, ArrayType, InfoDict]:
        """Step the wrapped environment and transform the observations."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return self.observations(observations), rewards, terminations, truncations, infos

    def observations(self, observations: ObsType) -> WrapperObsType:
        """Transform a batch of observations.

        Args:
            observations: The wrapped environment's batch.

        Returns:
            The transformed batch.
        """
        raise NotImplementedError


class VectorActionWrapper(VectorWrapper[ObsType, WrapperActType, ObsType, ActType, ArrayType]):
    """A vector wrapper that transforms every batch of actions with :meth:`actions` before stepping."""

    def step(self, actions: WrapperActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, InfoDict]:
        """Transform the actions and step the wrapped environment."""
        return self.env.step(self.actions(actions))

    def actions(self, actions: WrapperActType) -> ActType:
        """Transform a batch of actions.

        Args:
            actions: The batch given to :meth:`step`.

        Returns:
            The batch for the wrapped environment.
        """
        raise NotImplementedError


class VectorRewardWrapper(VectorWrapper[ObsType, ActType, ObsType, ActType, ArrayType]):
    """A vector wrapper that transforms every batch of rewards with :meth:`rewards`."""

    def step(self, actions: ActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, InfoDict]:
        """Step the wrapped environment and transform the rewards."""
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return observations, self.rewards(rewards), terminations, truncations, infos

    def rewards(self, rewards: ArrayType) -> ArrayType:
        """Transform a batch of rewards.

        Args:
            rewards: The wrapped environment's rewards.

        Returns:
            The transformed rewards.
        """
        raise NotImplementedError
