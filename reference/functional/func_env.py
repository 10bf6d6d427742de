"""The ``FuncEnv`` base class: an environment written as pure functions of an explicit state.

A subclass sets the class attributes ``observation_space`` and ``action_space`` and overrides ``initial``,
``transition``, ``observation``, ``reward`` and ``terminal`` (and, to render, ``render_init``, ``render_image`` and
``render_close``). Nothing is stored between calls: the state, a NumPy ``Generator`` (``rng``) and the parameters
are arguments, so the same inputs always give the same outputs.

Functions that accept a leading batch dimension (a state of shape ``(n, ...)`` and an action batch) can be driven
by :class:`~reference.functional.FunctionalVectorEnv` with one call per step; they then receive a
:class:`~reference.functional.BatchedGenerator` as ``rng``, whose draw methods take the *per-state* ``size`` and
return one row per state, so the same code serves both cases.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from typing_extensions import TypeAlias

from gymspec._typing import RNG, InfoDict, NDArrayAny
from gymspec.functional import FunctionTransform
from reference.spaces.space import Space

__all__ = ["FUNCTION_NAMES", "FuncEnv"]

# The package's one set of type variables: the adapter modules import them from here.
StateT = TypeVar("StateT")
ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")
RewardT = TypeVar("RewardT")
TerminalT = TypeVar("TerminalT")
RenderStateT = TypeVar("RenderStateT")
ParamsT = TypeVar("ParamsT")

_Options: TypeAlias = dict[str, Any]
_ParamValue: TypeAlias = Any

FUNCTION_NAMES = (
    "initial",
    "transition",
    "observation",
    "reward",
    "terminal",
    "state_info",
    "transition_info",
)
"""The functions :meth:`FuncEnv.transform` replaces (``transition_info`` included, unlike Gymnasium)."""


class FuncEnv(Generic[StateT, ObsT, ActT, RewardT, TerminalT, RenderStateT, ParamsT]):
    """Base class for functional environments (Gymnasium's ``experimental.functional.FuncEnv``).

    Constants live on the instance (set from ``options``) or in the params object returned by
    :meth:`get_default_params`; every function takes ``params`` and falls back to :attr:`default_params` when it
    is ``None``.

    Args:
        options: Attributes to set on the instance before :meth:`get_default_params` runs (copied; the dict is
            not kept).

    Raises:
        TypeError: If ``options`` is not a dict with ``str`` keys.
    """

    observation_space: Space[ObsT]
    action_space: Space[ActT]

    def __init__(self, options: _Options | None = None) -> None:
        if options is not None:
            if not isinstance(options, dict) or not all(isinstance(key, str) for key in options):
                raise TypeError(
                    f"{type(self).__name__} options must be a dict with str keys or None, got {options!r}"
                )
            self.__dict__.update(options)
        self.default_params: ParamsT | None = self.get_default_params()

    def initial(self, rng: RNG, params: ParamsT | None = None) -> StateT:
        """Draw an initial state.

        Args:
            rng: The generator to draw from.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            A fresh state.
        """
        raise NotImplementedError(f"{type(self).__name__} must override initial")

    def transition(self, state: StateT, action: ActT, rng: RNG, params: ParamsT | None = None) -> StateT:
        """Compute the state after taking ``action`` in ``state``.

        Args:
            state: The current state (not modified).
            action: An element of :attr:`action_space`.
            rng: The generator to draw from.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            A new state.
        """
        raise NotImplementedError(f"{type(self).__name__} must override transition")

    def observation(self, state: StateT, rng: RNG, params: ParamsT | None = None) -> ObsT:
        """Compute the observation emitted in ``state``.

        Args:
            state: The state (not modified).
            rng: The generator to draw from.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            An element of :attr:`observation_space`.
        """
        raise NotImplementedError(f"{type(self).__name__} must override observation")

    def reward(
        self, state: StateT, action: ActT, next_state: StateT, rng: RNG, params: ParamsT | None = None
    ) -> RewardT:
        """Compute the reward for ``state --action--> next_state``.

        Args:
            state: The state before the transition.
            action: The action taken.
            next_state: The state after the transition.
            rng: The generator to draw from.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            A real scalar (one per state when batched).
        """
        raise NotImplementedError(f"{type(self).__name__} must override reward")

    def terminal(self, state: StateT, rng: RNG, params: ParamsT | None = None) -> TerminalT:
        """Tell whether ``state`` ends the episode.

        Args:
            state: The state.
            rng: The generator to draw from.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            A bool-like flag (one per state when batched).
        """
        raise NotImplementedError(f"{type(self).__name__} must override terminal")

    def state_info(self, state: StateT, params: ParamsT | None = None) -> InfoDict:
        """Describe ``state`` for the ``info`` dict that ``reset`` returns.

        Args:
            state: The state.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            A new dict (empty by default).
        """
        return {}

    def transition_info(
        self, state: StateT, action: ActT, next_state: StateT, params: ParamsT | None = None
    ) -> InfoDict:
        """Describe a transition for the ``info`` dict that ``step`` returns.

        Args:
            state: The state before the transition.
            action: The action taken.
            next_state: The state after the transition.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            A new dict (empty by default).
        """
        return {}

    def transform(self, func: FunctionTransform) -> None:
        """Replace each of :data:`FUNCTION_NAMES` on this instance by ``func`` applied to it.

        Args:
            func: A function-to-function transformation, e.g. ``numpy.vectorize`` or a tracing wrapper.
        """
        for name in FUNCTION_NAMES:
            setattr(self, name, func(getattr(self, name)))

    def render_init(self, params: ParamsT | None = None, **kwargs: object) -> RenderStateT:
        """Create the render state.

        Args:
            params: Environment parameters (default: :attr:`default_params`).
            **kwargs: Environment-specific rendering options.

        Returns:
            The render state to pass to :meth:`render_image`.
        """
        raise NotImplementedError(f"{type(self).__name__} does not render; override render_init/render_image")

    def render_image(
        self, state: StateT, render_state: RenderStateT, params: ParamsT | None = None
    ) -> tuple[RenderStateT, NDArrayAny]:
        """Draw ``state``.

        Args:
            state: One (unbatched) state.
            render_state: The value :meth:`render_init` (or the previous call) returned.
            params: Environment parameters (default: :attr:`default_params`).

        Returns:
            ``(render_state, frame)`` with ``frame`` a ``uint8`` array of shape ``(height, width, 3)``.
        """
        raise NotImplementedError(f"{type(self).__name__} does not render; override render_init/render_image")

    def render_close(self, render_state: RenderStateT, params: ParamsT | None = None) -> None:
        """Release the render state.

        Args:
            render_state: The value :meth:`render_image` last returned.
            params: Environment parameters (default: :attr:`default_params`).
        """
        raise NotImplementedError(f"{type(self).__name__} does not render; override render_close")

    def get_default_params(self, **kwargs: _ParamValue) -> ParamsT | None:
        """Build the parameters used when a function receives ``params=None``.

        Args:
            **kwargs: Overrides of individual parameters (subclasses define which).

        Returns:
            The params object; ``None`` in the base class.

        Raises:
            TypeError: If overrides are given to an environment without params.
        """
        if kwargs:
            raise TypeError(
                f"{type(self).__name__} get_default_params kwargs must be empty (it has no params), "
                f"got {sorted(kwargs)!r}"
            )
        return None
