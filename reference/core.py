"""The environment and wrapper base classes: ``Env``, ``Wrapper`` and the three single-purpose wrappers.

``Env`` and ``Wrapper`` behave like Gymnasium 1.x's: seeding through ``reset(seed=...)``, a lazily created
``np_random``, no implicit attribute forwarding through wrappers (use ``get_wrapper_attr``), and a ``spec`` that
records the wrapper stack. A ``Wrapper`` accepts any object that looks like an environment (``step``, ``reset``,
``render``, ``close``, ``action_space``, ``observation_space``), so reference wrappers also wrap Gymnasium or
home-grown environments; attributes such an object lacks fall back to the base-class defaults.
"""

from __future__ import annotations

import dataclasses
from copy import deepcopy
from typing import TYPE_CHECKING, Any, Generic, Literal, SupportsFloat, TypeAlias, cast

import numpy as np
from typing_extensions import Self, TypeVar

import gymspec
from reference import logger
from reference.utils import seeding
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs

if TYPE_CHECKING:
    from reference.registration import EnvSpec, WrapperSpec
    from reference.spaces.space import Space

__all__ = [
    "ActType",
    "ActionWrapper",
    "Env",
    "ObsType",
    "ObservationWrapper",
    "RenderFrame",
    "RewardWrapper",
    "Wrapper",
    "WrapperActType",
    "WrapperObsType",
]

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
_AnyEnv: TypeAlias = "Env[Any, Any]"

# What a wrapped object must provide to count as an environment.
_ENV_MEMBERS = ("step", "reset", "render", "close", "action_space", "observation_space")


class Env(Generic[ObsType, ActType]):
    """An environment: ``reset`` starts an episode, ``step`` advances it, ``render`` shows it, ``close`` ends it.

    Subclasses set ``action_space`` and ``observation_space`` (usually in ``__init__``), implement ``step`` and
    ``reset`` (calling ``super().reset(seed=seed)`` first, which seeds :attr:`np_random`), and draw every random
    decision from :attr:`np_random`. ``metadata["render_modes"]`` lists the modes ``render_mode`` may take.

    Note:
        ``reset(seed=...)`` seeds the environment only; seed ``action_space`` separately for reproducible
        action sampling.
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

    def render(self) -> RenderFrame | list[RenderFrame] | None:
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


class Wrapper(Env[WrapperObsType, WrapperActType], Generic[WrapperObsType, WrapperActType, ObsType, ActType]):
    """An environment that delegates to ``env`` and may change its spaces, data or behaviour.

    ``action_space``, ``observation_space`` and ``metadata`` read through to ``env`` until the wrapper assigns
    its own (which never modifies ``env``); ``render_mode``, ``np_random`` and ``np_random_seed`` always read
    through. There is no ``__getattr__`` forwarding: reach inner attributes with :meth:`get_wrapper_attr` or
    :attr:`unwrapped`. Subclasses must call ``super().__init__(env)``.

    Args:
        env: The environment to wrap: any object with ``step``, ``reset``, ``render``, ``close``,
            ``action_space`` and ``observation_space``.

    Raises:
        TypeError: ``env`` lacks one of those members.
    """

    env: gymspec.Env[ObsType, ActType]

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        missing = [member for member in _ENV_MEMBERS if not hasattr(env, member)]
        if missing:
            raise TypeError(
                f"{type(self).__name__} env must be an environment (with {', '.join(_ENV_MEMBERS)}), "
                f"got {describe(env)} of type {type(env).__name__} missing {', '.join(missing)}"
            )
        self.env = env
        self._action_space: Space[WrapperActType] | None = None
        self._observation_space: Space[WrapperObsType] | None = None
        self._metadata: _Metadata | None = None
        self._cached_spec: EnvSpec | None = None

    def step(self, action: WrapperActType) -> tuple[WrapperObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment (override to transform).

        Args:
            action: An element of the wrapper's :attr:`action_space`.

        Returns:
            The inner environment's step result.
        """
        return cast("tuple[WrapperObsType, SupportsFloat, bool, bool, _Info]", self.env.step(cast(ActType, action)))

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[WrapperObsType, _Info]:
        """Reset the inner environment (override to transform).

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner environment's reset result.
        """
        return cast("tuple[WrapperObsType, _Info]", self.env.reset(seed=seed, options=options))

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Render the inner environment.

        Returns:
            The inner environment's frame(s).
        """
        return self.env.render()

    def close(self) -> None:
        """Close the inner environment."""
        self.env.close()

    @property
    def np_random_seed(self) -> int:
        """The inner environment's :attr:`np_random_seed`."""
        return cast(int, cast(_AttrValue, self.env).np_random_seed)

    @property
    def unwrapped(self) -> Env[Any, Any]:
        """The innermost environment, beneath every wrapper (a foreign env is returned as it is)."""
        inner = getattr(self.env, "unwrapped", self.env)
        return cast(_AnyEnv, inner)

    @property
    def spec(self) -> EnvSpec | None:
        """The inner environment's spec with this wrapper appended to ``additional_wrappers`` (cached).

        The wrapper's kwargs come from :class:`reference.utils.RecordConstructorArgs`; a wrapper without them gets
        ``kwargs=None``, which ``make`` refuses to re-create.
        """
        if self._cached_spec is not None:
            return self._cached_spec
        env_spec = getattr(self.env, "spec", None)
        if env_spec is not None:
            try:
                env_spec = _append_wrapper(deepcopy(env_spec), self._own_wrapper_spec())
            except Exception as exc:  # a foreign or odd spec must not break attribute access
                logger.warn(f"Wrapper spec could not be built from the inner spec {env_spec!r}: {exc!r}")
                return None
        self._cached_spec = env_spec
        return env_spec

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        raise AttributeError(
            f"{type(self).__name__}.spec is derived from the inner environment; set it on env.unwrapped instead"
        )

    def _own_wrapper_spec(self) -> WrapperSpec:
        from reference.registration import WrapperSpec

        kwargs: _Info | None
        if isinstance(self, RecordConstructorArgs):
            kwargs = self._saved_kwargs
            if "env" in kwargs:
                kwargs = {key: value for key, value in deepcopy(kwargs).items() if key != "env"}
        else:
            kwargs = None
        return WrapperSpec(
            name=self.class_name(),
            entry_point=f"{type(self).__module__}:{type(self).__name__}",
            kwargs=kwargs,
        )

    @classmethod
    def wrapper_spec(cls, **kwargs: _AttrValue) -> WrapperSpec:
        """Build the :class:`~reference.registration.WrapperSpec` describing this wrapper class.

        Args:
            **kwargs: The constructor arguments to record.

        Returns:
            The spec.
        """
        from reference.registration import WrapperSpec

        return WrapperSpec(name=cls.class_name(), entry_point=f"{cls.__module__}:{cls.__name__}", kwargs=kwargs)

    @classmethod
    def class_name(cls) -> str:
        """The wrapper's name as recorded in specs.

        Returns:
            The class name.
        """
        return cls.__name__

    def has_wrapper_attr(self, name: str) -> bool:
        """Tell whether this wrapper or any inner layer has attribute ``name``.

        Args:
            name: The attribute name.

        Returns:
            Whether some layer has it.
        """
        if hasattr(self, name):
            return True
        inner = getattr(self.env, "has_wrapper_attr", None)
        if inner is not None:
            return bool(inner(name))
        return hasattr(self.env, name)

    def get_wrapper_attr(self, name: str) -> _AttrValue:
        """Return ``name`` from the outermost layer that has it.

        Args:
            name: The attribute name.

        Returns:
            Its value.

        Raises:
            AttributeError: No layer has the attribute; the message names this wrapper.
        """
        if hasattr(self, name):
            return getattr(self, name)
        try:
            inner = getattr(self.env, "get_wrapper_attr", None)
            if inner is not None:
                return inner(name)
            return getattr(self.env, name)
        except AttributeError as exc:
            raise AttributeError(f"wrapper {self.class_name()} has no attribute {name!r}") from exc

    def set_wrapper_attr(self, name: str, value: _AttrValue, *, force: bool = True) -> bool:
        """Set ``name`` on the outermost layer that has it, or on this wrapper when none has and ``force``.

        Args:
            name: The attribute name.
            value: The new value.
            force: Create the attribute on this wrapper when no layer has it.

        Returns:
            Whether the attribute was set.
        """
        if hasattr(self, name):
            setattr(self, name, value)
            return True
        inner = getattr(self.env, "set_wrapper_attr", None)
        if inner is not None:
            done = bool(inner(name, value, force=False))
        elif hasattr(self.env, name):
            setattr(self.env, name, value)
            done = True
        else:
            done = False
        if done:
            return True
        if force:
            setattr(self, name, value)
            return True
        return False

    def __str__(self) -> str:
        return f"<{type(self).__name__}{self.env}>"

    def __repr__(self) -> str:
        return str(self)

    @property
    def action_space(self) -> Space[WrapperActType]:
        """The wrapper's action space if it set one, else the inner environment's."""
        if self._action_space is None:
            return cast("Space[WrapperActType]", self.env.action_space)
        return self._action_space

    @action_space.setter
    def action_space(self, space: Space[WrapperActType]) -> None:
        self._action_space = space

    @property
    def observation_space(self) -> Space[WrapperObsType]:
        """The wrapper's observation space if it set one, else the inner environment's."""
        if self._observation_space is None:
            return cast("Space[WrapperObsType]", self.env.observation_space)
        return self._observation_space

    @observation_space.setter
    def observation_space(self, space: Space[WrapperObsType]) -> None:
        self._observation_space = space

    @property
    def metadata(self) -> _Metadata:
        """The wrapper's metadata if it set one, else the inner environment's."""
        if self._metadata is None:
            inner = getattr(self.env, "metadata", None)
            return cast(_Metadata, inner) if inner is not None else {"render_modes": []}
        return self._metadata

    @metadata.setter
    def metadata(self, value: _Metadata) -> None:
        self._metadata = value

    @property
    def render_mode(self) -> str | None:
        """The inner environment's render mode."""
        return cast("str | None", getattr(self.env, "render_mode", None))

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        raise AttributeError(
            f"{type(self).__name__}.render_mode reads through to the inner environment and cannot be set; "
            "choose the mode when constructing the environment"
        )

    @property
    def np_random(self) -> np.random.Generator:
        """The inner environment's generator (shared, not copied)."""
        return cast(np.random.Generator, cast(_AttrValue, self.env).np_random)

    @np_random.setter
    def np_random(self, value: np.random.Generator) -> None:
        cast(_AttrValue, self.env).np_random = value

    @property
    def _np_random(self) -> np.random.Generator | None:
        raise AttributeError("Can't access `_np_random` of a wrapper, use `.unwrapped._np_random` or `.np_random`.")

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        raise AttributeError("Can't set `_np_random` of a wrapper, set `.np_random` instead.")


def _append_wrapper(env_spec: _AttrValue, wrapper_spec: WrapperSpec) -> EnvSpec:
    """Return ``env_spec`` (already a private copy) with ``wrapper_spec`` appended to its wrapper stack.

    Reference specs are dataclasses and are rebuilt with :func:`dataclasses.replace`; a foreign spec object
    (Gymnasium's, say) that is not one is updated in place, as Gymnasium itself does.
    """
    stack = (*env_spec.additional_wrappers, wrapper_spec)
    if dataclasses.is_dataclass(env_spec) and not isinstance(env_spec, type):
        return cast("EnvSpec", dataclasses.replace(env_spec, additional_wrappers=stack))
    env_spec.additional_wrappers = stack
    return cast("EnvSpec", env_spec)


class ObservationWrapper(Wrapper[WrapperObsType, ActType, ObsType, ActType]):
    """A wrapper that transforms every observation through :meth:`observation`.

    Set ``self.observation_space`` in ``__init__`` when the transformation changes the space.

    Args:
        env: The environment to wrap.
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
