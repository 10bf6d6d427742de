"""What the functional CartPole and Pendulum share: a params-dataclass ``FuncEnv`` base and their two adapters.

Only the plumbing lives here (options, params, rendering checks, the ``Env``/``VectorEnv`` entry points); the
physics stays in each environment's module, written out in full so its float operations can be read against the
class-based environment's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

from reference.envs._rendering import Canvas
from reference.envs.functional._common import check_option_names, params_from, states
from reference.functional import FuncEnv, FunctionalEnv, FunctionalVectorEnv
from reference.utils.ezpickle import EzPickle

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    from reference.spaces.space import Space

__all__ = ["ParamsFuncEnv", "ParamsFunctionalEnv", "ParamsFunctionalVectorEnv"]

StateT = TypeVar("StateT")
ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")
RewardT = TypeVar("RewardT")
TerminalT = TypeVar("TerminalT")
ParamsT = TypeVar("ParamsT", bound="DataclassInstance")

_Options: TypeAlias = dict[str, Any]
_Param: TypeAlias = Any
_Any: TypeAlias = Any


class ParamsFuncEnv(FuncEnv[StateT, ObsT, ActT, RewardT, TerminalT, Canvas, ParamsT]):
    """A ``FuncEnv`` whose constants are one frozen params dataclass and whose render state is a ``Canvas``.

    A subclass sets :attr:`params_cls` and :attr:`state_width` and implements :meth:`_spaces` plus the pure
    functions.

    Args:
        options: :attr:`params_cls` field values that become the default params.

    Raises:
        TypeError: If an option names no field of :attr:`params_cls`.
    """

    params_cls: type[ParamsT]
    """The params dataclass; its fields are the valid options and ``get_default_params`` kwargs."""
    state_width: int
    """The number of state variables (the last axis of a state)."""

    def __init__(self, options: _Options | None = None) -> None:
        check_option_names(type(self).__name__, options, self.params_cls)
        super().__init__(options)
        self.observation_space, self.action_space = self._spaces(self._params(None))

    def _spaces(self, params: ParamsT) -> tuple[Space[ObsT], Space[ActT]]:
        """The observation and action spaces for ``params`` (called once, by the constructor)."""
        raise NotImplementedError(f"{type(self).__name__} must override _spaces")

    def get_default_params(self, **kwargs: _Param) -> ParamsT:
        """The params built from the constructor's options, with ``kwargs`` overriding fields.

        Args:
            **kwargs: :attr:`params_cls` field values.

        Returns:
            A new params object.

        Raises:
            TypeError: If a keyword names no field.
        """
        return params_from(self, self.params_cls, kwargs)

    def _params(self, params: ParamsT | None) -> ParamsT:
        # On every call of every function, so it stays a lookup and one isinstance check.
        p = self.default_params if params is None else params
        if not isinstance(p, self.params_cls):
            raise TypeError(f"{type(self).__name__} params must be a {self.params_cls.__name__}, got {p!r}")
        return p

    def _one_state(self, state: object) -> NDArray[np.float64]:
        """``state`` as a float64 array, which must be one state: rendering draws a single frame."""
        owner, width = type(self).__name__, self.state_width
        arr = states(owner, state, width)
        if arr.shape != (width,):
            raise ValueError(f"{owner} render_image state must have shape ({width},), got shape {arr.shape}")
        return arr

    def _render_sizes(self, kwargs: dict[str, object], defaults: dict[str, int]) -> list[int]:
        """The canvas sizes named in ``defaults``, each overridable by a ``render_init`` keyword.

        Raises:
            TypeError: If a keyword is not in ``defaults`` or a size is not an int.
        """
        owner = type(self).__name__
        unknown = sorted(set(kwargs) - set(defaults))
        if unknown:
            raise TypeError(f"{owner} render_init kwargs must be {'/'.join(defaults)}, got {unknown}")
        sizes: list[int] = []
        for name, default in defaults.items():
            size = kwargs.get(name, default)
            if not isinstance(size, int):
                raise TypeError(f"{owner} render_init {name} must be an int, got {size!r}")
            sizes.append(size)
        return sizes

    def render_close(self, render_state: Canvas, params: ParamsT | None = None) -> None:
        """Drop the canvas.

        Args:
            render_state: The canvas.
            params: Unused.
        """
        render_state.close()


class ParamsFunctionalEnv(FunctionalEnv[StateT, ObsT, ActT, Canvas, ParamsT], EzPickle):
    """A :class:`ParamsFuncEnv` as a picklable ``Env``, the registry's ``entry_point``.

    A subclass sets :attr:`func_env_cls` and ``metadata``.

    Args:
        render_mode: ``None`` or ``"rgb_array"``.
        **kwargs: Params field values, passed to :attr:`func_env_cls` as its options.
    """

    func_env_cls: type[ParamsFuncEnv[StateT, ObsT, ActT, _Any, _Any, ParamsT]]
    """The functional environment class."""

    def __init__(self, render_mode: str | None = None, **kwargs: _Param) -> None:
        EzPickle.__init__(self, render_mode=render_mode, **kwargs)
        # The unsubscripted base's __init__ (its type parameters unknown to pyright) initialises this instance.
        FunctionalEnv.__init__(  # pyright: ignore[reportUnknownMemberType]
            self, self.func_env_cls(dict(kwargs)), metadata=self.metadata, render_mode=render_mode
        )


class ParamsFunctionalVectorEnv(FunctionalVectorEnv[StateT, ObsT, ActT, Canvas, ParamsT], EzPickle):
    """A :class:`ParamsFuncEnv` stepped for ``num_envs`` states per call, the registry's ``vector_entry_point``.

    A subclass sets :attr:`func_env_cls` and ``metadata``.

    Args:
        num_envs: The number of sub-environments.
        render_mode: ``None`` or ``"rgb_array"``.
        max_episode_steps: Truncate episodes after this many steps (0: never).
        **kwargs: Params field values, passed to :attr:`func_env_cls` as its options.
    """

    func_env_cls: type[ParamsFuncEnv[StateT, ObsT, ActT, _Any, _Any, ParamsT]]
    """The functional environment class."""

    def __init__(
        self, num_envs: int, render_mode: str | None = None, max_episode_steps: int = 200, **kwargs: _Param
    ) -> None:
        EzPickle.__init__(
            self, num_envs=num_envs, render_mode=render_mode, max_episode_steps=max_episode_steps, **kwargs
        )
        FunctionalVectorEnv.__init__(  # pyright: ignore[reportUnknownMemberType]
            self,
            self.func_env_cls(dict(kwargs)),
            num_envs,
            max_episode_steps=max_episode_steps,
            metadata=self.metadata,
            render_mode=render_mode,
        )
