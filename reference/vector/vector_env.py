"""The vector-environment base class, its wrapper bases, and the autoreset mode enum.

A vector environment steps ``num_envs`` sub-environments as one batch: ``step`` takes a batch of actions (an
element of :attr:`VectorEnv.action_space`) and returns batched observations, ``(num_envs,)`` arrays of rewards,
terminations and truncations, and one info dict whose values are batched with ``_key`` masks. How a sub-env whose
episode ended is reset is declared by ``metadata["autoreset_mode"]`` (see :class:`AutoresetMode`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, cast

import numpy as np
from typing_extensions import Self, TypeVar

from gymspec import AutoresetMode
from reference import logger
from reference.core import ActType, ObsType, RenderFrame, WrapperActType, WrapperObsType
from reference.utils import seeding
from reference.vector._info import add_info

if TYPE_CHECKING:
    from reference.registration import EnvSpec
    from reference.spaces import Space

__all__ = [
    "ArrayType",
    "AutoresetMode",
    "VectorActionWrapper",
    "VectorEnv",
    "VectorObservationWrapper",
    "VectorRewardWrapper",
    "VectorWrapper",
]

ArrayType = TypeVar("ArrayType", default=Any)

InfoDict: TypeAlias = dict[str, Any]
Options: TypeAlias = dict[str, Any]
Metadata: TypeAlias = dict[str, Any]
#: Options passed through ``close`` to ``close_extras`` (``timeout``/``terminate`` for ``AsyncVectorEnv``).
CloseOption: TypeAlias = Any
#: One generator (the base class) or one per sub-environment (Sync/Async), as in Gymnasium.
RandomState: TypeAlias = "np.random.Generator | tuple[np.random.Generator, ...]"
RandomSeed: TypeAlias = "int | tuple[int, ...] | None"
VectorSeed: TypeAlias = "int | list[int | None] | None"


class VectorEnv(Generic[ObsType, ActType, ArrayType]):
    """A batch of ``num_envs`` independent sub-environments that share spaces and are stepped together.

    Subclasses set :attr:`num_envs`, the single and batched spaces and :attr:`metadata` (including
    ``"autoreset_mode"``), and implement :meth:`reset`, :meth:`step`, :meth:`render` and :meth:`close_extras`.

    Attributes:
        num_envs: The number of sub-environments.
        single_observation_space: One sub-environment's observation space.
        observation_space: The batched observation space (``batch_space(single_observation_space, num_envs)``).
        single_action_space: One sub-environment's action space.
        action_space: The batched action space.
        metadata: Static facts about the environment; ``"autoreset_mode"`` holds an :class:`AutoresetMode`.
        spec: How the environment was made (set by ``make_vec``).
        render_mode: The sub-environments' render mode.
        closed: Whether :meth:`close` has run.
    """

    metadata: Metadata = {}
    spec: EnvSpec | None = None
    render_mode: str | None = None
    closed: bool = False

    num_envs: int
    observation_space: Space[ObsType]
    action_space: Space[ActType]
    single_observation_space: Space[Any]
    single_action_space: Space[Any]

    _np_random: np.random.Generator | None = None
    _np_random_seed: int | None = None

    def reset(self, *, seed: VectorSeed = None, options: Options | None = None) -> tuple[ObsType, InfoDict]:
        """Reset every sub-environment; the base implementation only seeds :attr:`np_random`.

        Args:
            seed: ``None``, an int ``s`` (sub-env ``i`` gets ``s + i``) or a list of ``num_envs`` seeds.
            options: Passed to every sub-environment's ``reset``; ``options["reset_mask"]`` (a bool array of
                shape ``(num_envs,)``) restricts the reset to the masked sub-environments.

        Returns:
            ``(observations, info)`` in subclasses.
        """
        if isinstance(seed, int):
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        return cast("tuple[ObsType, InfoDict]", None)

    def step(self, actions: ActType) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, InfoDict]:
        """Step every sub-environment with its action.

        Args:
            actions: An element of :attr:`action_space`: one action per sub-environment.

        Returns:
            ``(observations, rewards, terminations, truncations, info)``; what happens to a sub-environment whose
            episode ended depends on ``metadata["autoreset_mode"]``.
        """
        raise NotImplementedError(f"{type(self).__name__}.step is not implemented")

    def render(self) -> tuple[RenderFrame, ...] | None:
        """Render every sub-environment.

        Returns:
            One frame per sub-environment, or ``None``.
        """
        raise NotImplementedError(f"{type(self).__name__}.render is not implemented")

    def close(self, **kwargs: CloseOption) -> None:
        """Release the sub-environments and any workers; later calls do nothing.

        Args:
            **kwargs: Passed to :meth:`close_extras`.
        """
        if self.closed:
            return
        self.close_extras(**kwargs)
        self.closed = True

    def close_extras(self, **kwargs: CloseOption) -> None:
        """Release what the subclass holds (sub-environments, processes, shared memory).

        Args:
            **kwargs: Subclass-specific options.
        """

    @property
    def np_random(self) -> RandomState:
        """The vector environment's own generator, created from fresh entropy on first use."""
        if self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value
        # The seed of an arbitrary generator cannot be recovered.
        self._np_random_seed = -1

    @property
    def np_random_seed(self) -> RandomSeed:
        """The seed :attr:`np_random` was built from; ``-1`` when a generator was assigned directly."""
        if self._np_random_seed is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random_seed

    @property
    def unwrapped(self) -> VectorEnv[Any, Any, Any]:
        """The environment itself (wrappers return the innermost vector environment)."""
        return self

    def _add_info(self, vector_infos: InfoDict, env_info: Mapping[str, Any], env_num: int) -> InfoDict:
        """Merge sub-env ``env_num``'s info into ``vector_infos`` with ``_key`` masks (see ``add_info``).

        Args:
            vector_infos: The batched info so far.
            env_info: One sub-environment's info.
            env_num: Its index.

        Returns:
            The updated ``vector_infos``.
        """
        return add_info(vector_infos, env_info, env_num, self.num_envs)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *args: object) -> Literal[False]:
        self.close()
        return False

    def __repr__(self) -> str:
        # getattr: repr must work on a half-constructed instance (e.g. in a constructor's error message).
        num_envs = getattr(self, "num_envs", "?")
        if self.spec is None:
            return f"{type(self).__name__}(num_envs={num_envs})"
        return f"{type(self).__name__}({self.spec.id}, num_envs={num_envs})"


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

    @property
    def observation_space(self) -> Space[Any]:
        """The batched observation space (the wrapped one unless set)."""
        return self.env.observation_space if self._observation_space is None else self._observation_space

    @observation_space.setter
    def observation_space(self, space: Space[Any]) -> None:
        self._observation_space = space

    @property
    def action_space(self) -> Space[Any]:
        """The batched action space (the wrapped one unless set)."""
        return self.env.action_space if self._action_space is None else self._action_space

    @action_space.setter
    def action_space(self, space: Space[Any]) -> None:
        self._action_space = space

    @property
    def single_observation_space(self) -> Space[Any]:
        """One sub-environment's observation space (the wrapped one unless set)."""
        if self._single_observation_space is None:
            return self.env.single_observation_space
        return self._single_observation_space

    @single_observation_space.setter
    def single_observation_space(self, space: Space[Any]) -> None:
        self._single_observation_space = space

    @property
    def single_action_space(self) -> Space[Any]:
        """One sub-environment's action space (the wrapped one unless set)."""
        return self.env.single_action_space if self._single_action_space is None else self._single_action_space

    @single_action_space.setter
    def single_action_space(self, space: Space[Any]) -> None:
        self._single_action_space = space

    @property
    def num_envs(self) -> int:
        """The wrapped environment's number of sub-environments."""
        return self.env.num_envs

    @num_envs.setter
    def num_envs(self, value: int) -> None:
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
    def metadata(self, value: Metadata) -> None:
        self._metadata = value

    @property
    def spec(self) -> EnvSpec | None:
        """The wrapped environment's spec."""
        return self.env.spec

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        self.env.spec = value

    @property
    def render_mode(self) -> str | None:
        """The wrapped environment's render mode."""
        return self.env.render_mode

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        raise AttributeError(f"{type(self).__name__} render_mode is read-only (it is the wrapped environment's)")

    @property
    def closed(self) -> bool:
        """Whether the wrapped environment is closed."""
        return self.env.closed

    @closed.setter
    def closed(self, value: bool) -> None:
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
            logger.warn(f"{type(self).__name__}: the vector environment {env} declares no metadata['autoreset_mode']")
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
