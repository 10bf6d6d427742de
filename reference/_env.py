"""The environment base class ``Env`` and the type parameters shared by environments and wrappers.

Import these from :mod:`reference.core`, their public home (which also sets the class's ``__module__`` to it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, Literal, SupportsFloat, TypeAlias, cast

import numpy as np
from typing_extensions import Self, TypeVar

import gymspec
from gymspec import RenderResult
from reference.utils import seeding

if TYPE_CHECKING:
    from reference.registration import EnvSpec
    from reference.spaces.space import Space

__all__ = ["ActType", "Env", "ObsType", "RenderFrame", "WrapperActType", "WrapperObsType"]

# Every type parameter defaults to Any so that partially subscripted forms such as ``Env[np.ndarray]`` work.
ObsType = TypeVar("ObsType", default=Any)
ActType = TypeVar("ActType", default=Any)
WrapperObsType = TypeVar("WrapperObsType", default=Any)
WrapperActType = TypeVar("WrapperActType", default=Any)

RenderFrame: TypeAlias = gymspec.RenderFrame
_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Metadata: TypeAlias = dict[str, Any]
_AttrValue: TypeAlias = Any


class Env(Generic[ObsType, ActType]):
    """An environment: ``reset`` starts an episode, ``step`` advances it, ``render`` shows it, ``close`` ends it.

    Subclasses set ``action_space`` and ``observation_space`` (usually in ``__init__``), implement ``step`` and
    ``reset`` (calling ``super().reset(seed=seed)`` first, which seeds :attr:`np_random`), and draw every random
    decision from :attr:`np_random`. ``metadata["render_modes"]`` lists the modes ``render_mode`` may take.

    Note:
        ``reset(seed=...)`` seeds the environment only; seed ``action_space`` separately for reproducible
        action sampling.

    Example:
        A coin-flip environment: guess the side; the episode ends after one guess.

        >>> from reference.spaces import Discrete
        >>> class CoinEnv(Env[int, int]):
        ...     def __init__(self) -> None:
        ...         self.observation_space = Discrete(1)
        ...         self.action_space = Discrete(2)
        ...     def reset(self, *, seed=None, options=None):
        ...         super().reset(seed=seed)
        ...         self._side = int(self.np_random.integers(2))
        ...         return 0, {}
        ...     def step(self, action):
        ...         return 0, float(action == self._side), True, False, {"side": self._side}
        >>> env = CoinEnv()
        >>> env.reset(seed=0)
        (0, {})
        >>> env.step(1)
        (0, 1.0, True, False, {'side': 1})
    """

    metadata: _Metadata = {"render_modes": []}
    render_mode: str | None = None
    spec: EnvSpec | None = None

    action_space: Space[ActType]
    observation_space: Space[ObsType]

    _np_random: np.random.Generator | None = None
    # -1 once a generator of unknown origin has been assigned to np_random.
    _np_random_seed: int | None = None

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Advance the environment by one step.

        Args:
            action: An element of :attr:`action_space`.

        Returns:
            ``(observation, reward, terminated, truncated, info)``. Once ``terminated or truncated``, call
            :meth:`reset` before stepping again. Return fresh objects: callers keep them.
        """
        raise NotImplementedError

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Start a new episode; the base implementation only (re)seeds :attr:`np_random`.

        Args:
            seed: An int re-creates the generator (so the episode replays); ``None`` keeps the existing
                generator, so consecutive unseeded resets continue one random stream.
            options: Environment-specific reset options.

        Returns:
            ``(observation, info)`` in subclasses.
        """
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        return cast("tuple[ObsType, _Info]", None)

    def render(self) -> RenderResult:
        """Render in the mode fixed at construction (:attr:`render_mode`).

        Returns:
            ``None`` for no mode or ``"human"``; a frame for ``"rgb_array"``/``"ansi"``/...; a list of frames for
            the ``*_list`` modes.
        """
        raise NotImplementedError

    def close(self) -> None:
        """Release resources (windows, processes). Calling it again does nothing."""

    @property
    def unwrapped(self) -> Env[Any, Any]:
        """The environment itself (wrappers return the innermost environment)."""
        return self

    @property
    def np_random_seed(self) -> int:
        """The seed :attr:`np_random` was built from; ``-1`` when a generator was assigned directly."""
        if self._np_random_seed is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random_seed

    @property
    def np_random(self) -> np.random.Generator:
        """The environment's generator, created from fresh entropy on first use."""
        if self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random()
        return self._np_random

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        self._np_random = value
        # The seed of an arbitrary generator cannot be recovered.
        self._np_random_seed = -1

    def __str__(self) -> str:
        if self.spec is None:
            return f"<{type(self).__name__} instance>"
        return f"<{type(self).__name__}<{self.spec.id}>>"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *args: object) -> Literal[False]:
        self.close()
        return False

    def has_wrapper_attr(self, name: str) -> bool:
        """Tell whether the environment has attribute ``name``.

        Args:
            name: The attribute name.

        Returns:
            Whether it exists.
        """
        return hasattr(self, name)

    def get_wrapper_attr(self, name: str) -> _AttrValue:
        """Return attribute ``name``.

        Args:
            name: The attribute name.

        Returns:
            Its value.

        Raises:
            AttributeError: The environment has no such attribute.
        """
        return getattr(self, name)

    def set_wrapper_attr(self, name: str, value: _AttrValue, *, force: bool = True) -> bool:
        """Set attribute ``name`` if it exists, or unconditionally when ``force``.

        Args:
            name: The attribute name.
            value: The new value.
            force: Create the attribute when it does not exist.

        Returns:
            Whether the attribute was set.
        """
        if force or hasattr(self, name):
            setattr(self, name, value)
            return True
        return False
