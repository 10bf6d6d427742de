"""The vector-environment base class :class:`VectorEnv` and the type aliases its subclasses and wrappers share.

A vector environment steps ``num_envs`` sub-environments as one batch: ``step`` takes a batch of actions (an
element of :attr:`VectorEnv.action_space`) and returns batched observations, ``(num_envs,)`` arrays of rewards,
terminations and truncations, and one info dict whose values are batched with ``_key`` masks. How a sub-env whose
episode ended is reset is declared by ``metadata["autoreset_mode"]`` (see :class:`~gymspec.AutoresetMode`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeAlias, cast

import numpy as np
from typing_extensions import Self, TypeVar

from reference.core import ActType, ObsType, RenderFrame
from reference.utils import seeding
from reference.vector._info import add_info

if TYPE_CHECKING:
    from reference.registration import EnvSpec
    from reference.spaces import Space

__all__ = [
    "ArrayType",
    "CloseOption",
    "InfoDict",
    "Metadata",
    "Options",
    "RandomSeed",
    "RandomState",
    "VectorEnv",
    "VectorSeed",
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
