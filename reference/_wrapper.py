"""The base ``Wrapper``: delegates to an inner environment, reads its spaces through and records itself in ``spec``.

Import it from :mod:`reference.core`, its public home.
"""

from __future__ import annotations

import dataclasses
from copy import deepcopy
from typing import TYPE_CHECKING, Any, Generic, SupportsFloat, TypeAlias, cast

import numpy as np

import gymspec
from gymspec import RenderResult
from reference import logger
from reference._env import ActType, Env, ObsType, WrapperActType, WrapperObsType
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs

if TYPE_CHECKING:
    # At run time WrapperSpec is imported inside the methods that build one: the registry reaches back into
    # reference.core (make) and the wrappers, so importing it here would tie the two packages into a cycle.
    from reference.registration import EnvSpec, WrapperSpec
    from reference.spaces.space import Space

__all__ = ["Wrapper", "require_env"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Metadata: TypeAlias = dict[str, Any]
_AttrValue: TypeAlias = Any
_AnyEnv: TypeAlias = "Env[Any, Any]"

# What a wrapped object must provide to count as an environment.
_ENV_MEMBERS = ("step", "reset", "render", "close", "action_space", "observation_space")


def require_env(owner: str, env: object) -> None:
    """Check that ``env`` can be wrapped: it has every member an environment needs.

    Wrappers that read ``env``'s spaces before ``Wrapper.__init__`` runs call this first, so that a non-environment
    is reported as such instead of failing on the first attribute read.

    Args:
        owner: The wrapper's name, for the message.
        env: The object to wrap.

    Raises:
        TypeError: ``env`` lacks one of the members, or is a vector environment.
    """
    missing = [member for member in _ENV_MEMBERS if not hasattr(env, member)]
    if missing:
        raise TypeError(
            f"{owner} env must be an environment (with {', '.join(_ENV_MEMBERS)}), "
            f"got {describe(env)} of type {type(env).__name__} missing {', '.join(missing)}"
        )
    if hasattr(env, "single_observation_space"):
        # A vector environment has every member too, but its batched results break single-env wrappers later.
        raise TypeError(
            f"{owner} env must be a single environment, got the vector environment {describe(env)}; "
            "wrap vector environments with the wrappers of reference.wrappers.vector"
        )


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

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> class CountSteps(Wrapper):
        ...     def __init__(self, env):
        ...         super().__init__(env)
        ...         self.steps = 0
        ...     def step(self, action):
        ...         self.steps += 1
        ...         return super().step(action)
        >>> env = CountSteps(CartPoleEnv())
        >>> _ = env.reset(seed=0)
        >>> _ = env.step(0)
        >>> env.steps, env.unwrapped is env.env, env.observation_space is env.env.observation_space
        (1, True, True)
    """

    env: gymspec.Env[ObsType, ActType]

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        require_env(type(self).__name__, env)
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

    def render(self) -> RenderResult:
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
    def spec(self, value: EnvSpec | None) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        raise AttributeError(
            f"{type(self).__name__}.spec is derived from the inner environment; set it on env.unwrapped instead"
        )

    def _own_wrapper_spec(self) -> WrapperSpec:
        from reference.registration import WrapperSpec

        kwargs: _Info | None
        if isinstance(self, RecordConstructorArgs):
            kwargs = self._saved_kwargs  # pyright: ignore[reportPrivateUsage]
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
    def action_space(self, space: Space[WrapperActType]) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._action_space = space

    @property
    def observation_space(self) -> Space[WrapperObsType]:
        """The wrapper's observation space if it set one, else the inner environment's."""
        if self._observation_space is None:
            return cast("Space[WrapperObsType]", self.env.observation_space)
        return self._observation_space

    @observation_space.setter
    def observation_space(  # pyright: ignore[reportIncompatibleVariableOverride]
        self, space: Space[WrapperObsType]
    ) -> None:
        self._observation_space = space

    @property
    def metadata(self) -> _Metadata:
        """The wrapper's metadata if it set one, else the inner environment's."""
        if self._metadata is None:
            inner = getattr(self.env, "metadata", None)
            return cast(_Metadata, inner) if inner is not None else {"render_modes": []}
        return self._metadata

    @metadata.setter
    def metadata(self, value: _Metadata) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        self._metadata = value

    @property
    def render_mode(self) -> str | None:
        """The inner environment's render mode."""
        return cast("str | None", getattr(self.env, "render_mode", None))

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
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
    def _np_random(  # pyright: ignore[reportIncompatibleVariableOverride]
        self, value: np.random.Generator | None
    ) -> None:
        raise AttributeError("Can't set `_np_random` of a wrapper, set `.np_random` instead.")


def _append_wrapper(env_spec: _AttrValue, wrapper_spec: WrapperSpec) -> EnvSpec:
    """Return ``env_spec`` (already a private copy) with ``wrapper_spec`` appended to its wrapper stack.

    Reference specs are dataclasses and are rebuilt with :func:`dataclasses.replace`; a foreign spec object
    (Gymnasium's, say) that is not one is updated in place, as Gymnasium itself does.
    """
    stack = (*env_spec.additional_wrappers, wrapper_spec)
    if dataclasses.is_dataclass(env_spec) and not isinstance(env_spec, type):
        return cast("EnvSpec", dataclasses.replace(env_spec, additional_wrappers=stack))
    foreign: _AttrValue = env_spec
    foreign.additional_wrappers = stack
    return cast("EnvSpec", foreign)
