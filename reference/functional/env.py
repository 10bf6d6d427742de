"""``FunctionalEnv``: run a :class:`~reference.functional.FuncEnv` as an ordinary, stateful ``Env``.

Random-number scheme (what ``FUNC-005`` compares against, and what makes a functional env reproduce a class-based
one):

* ``reset(seed=s)`` seeds :attr:`~reference.core.Env.np_random` exactly as every ``Env`` does (``seed=None``
  keeps the current generator). ``initial`` receives **that generator itself**, not a split: a class-based env
  draws its initial state from ``np_random`` in ``reset``, so only then do seeded initial states, and the stream
  continued by unseeded resets, coincide with it bit for bit.
* Every reset then **splits** one child generator off ``np_random`` with ``np_random.spawn(1)[0]`` (a
  ``SeedSequence`` child: it does not advance ``np_random``'s own stream). That child is the ``rng`` of every
  other function for the whole episode, called in a fixed order: ``observation`` at reset; then on each step
  ``transition``, ``reward``, ``terminal``, ``observation``. Randomness used while stepping therefore never
  shifts the next episode's initial state, and equal seeds give equal trajectories.

The split is per episode rather than per step because spawning a generator costs tens of microseconds, far more
than a classic-control step, and because the vector adapter must be able to reproduce the same streams for
thousands of sub-environments at once (it creates the children lazily, only if a function draws from them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Generic, SupportsFloat, cast

import numpy as np
from typing_extensions import TypeAlias

import gymspec
from reference.core import Env
from reference._framework import step_before_reset
from reference.functional._adapter import FuncEnvAdapter, check_render_mode
from reference.functional.func_env import ActT, ObsT, ParamsT, RenderStateT, StateT

if TYPE_CHECKING:
    from reference.registration import EnvSpec
    from reference.spaces.space import Space

__all__ = ["FunctionalEnv", "spawn_episode_rng"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Reward: TypeAlias = SupportsFloat  # anything float() accepts
_Terminal: TypeAlias = object  # anything bool() accepts


def spawn_episode_rng(np_random: np.random.Generator) -> np.random.Generator:
    """Split the per-episode generator off an environment's generator (see the module docstring).

    Args:
        np_random: The environment's generator; its stream is not advanced.

    Returns:
        ``np_random.spawn(1)[0]``.
    """
    return np_random.spawn(1)[0]


class FunctionalEnv(
    Env[ObsT, ActT],
    FuncEnvAdapter[StateT, ObsT, ActT, RenderStateT, ParamsT],
    Generic[StateT, ObsT, ActT, RenderStateT, ParamsT],
):
    """A stateful ``Env`` driven by the pure functions of a ``FuncEnv`` (Gymnasium's ``FunctionalJaxEnv``).

    ``step`` returns ``observation(next_state)``, ``float(reward(state, action, next_state))``,
    ``bool(terminal(next_state))``, ``truncated=False`` (time limits come from ``make``'s ``TimeLimit``) and
    ``transition_info(state, action, next_state)``; ``reset`` returns ``observation(initial)`` and
    ``state_info(initial)``. The random-number scheme is described in the module docstring.

    Args:
        func_env: The functional environment (any object satisfying ``gymspec.FuncEnv``).
        metadata: The env's metadata (copied); default from :func:`~reference.functional._adapter.default_metadata`.
        render_mode: ``None`` or ``"rgb_array"`` (which must be declared in ``metadata``).
        spec: The ``EnvSpec`` that ``make`` records.
        params: Passed to every function; default ``func_env.default_params``. When that is ``None`` too,
            functions are called without ``params`` so their own defaults apply.

    Raises:
        TypeError: If ``metadata`` is not a mapping.
        UnsupportedRenderMode: If ``render_mode`` is not ``None`` or a declared ``"rgb_array"``.
    """

    state: StateT | None
    """The current state (``None`` before the first reset)."""

    def __init__(
        self,
        func_env: gymspec.FuncEnv[StateT, ObsT, ActT, _Reward, _Terminal, RenderStateT, ParamsT],
        metadata: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        spec: EnvSpec | None = None,
        *,
        params: ParamsT | None = None,
    ) -> None:
        meta = self._adopt(func_env, metadata, params)
        # Env types its spaces with the reference Space class; any gymspec Space serves the same purpose here.
        self.observation_space = cast("Space[ObsT]", func_env.observation_space)
        self.action_space = cast("Space[ActT]", func_env.action_space)
        self.metadata = meta
        self.render_mode = check_render_mode(type(self).__name__, render_mode, meta)
        self.spec = spec
        self.state = None
        self._episode_rng: np.random.Generator | None = None

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsT, _Info]:
        """Draw an initial state with ``initial(np_random)`` and split the episode generator.

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: Accepted for API compatibility; a ``FuncEnv`` takes no reset options, so they are ignored.

        Returns:
            ``(observation(initial), state_info(initial))``.
        """
        super().reset(seed=seed)
        func, kw = self.func_env, self._kw
        np_random = self.np_random
        state = func.initial(np_random, **kw)
        rng = self._episode_rng = spawn_episode_rng(np_random)
        self.state = state
        return func.observation(state, rng, **kw), func.state_info(state, **kw)

    def step(self, action: ActT) -> tuple[ObsT, float, bool, bool, _Info]:
        """Advance the state with ``transition`` and report the transition.

        Args:
            action: An element of :attr:`action_space`.

        Returns:
            ``(observation, reward, terminated, False, info)``.

        Raises:
            StepBeforeReset: If the environment was never reset.
        """
        state, rng = self.state, self._episode_rng
        if state is None or rng is None:
            raise step_before_reset(type(self).__name__)
        func, kw = self.func_env, self._kw
        next_state = func.transition(state, action, rng, **kw)
        reward = func.reward(state, action, next_state, rng, **kw)
        terminated = func.terminal(next_state, rng, **kw)
        observation = func.observation(next_state, rng, **kw)
        info = func.transition_info(state, action, next_state, **kw)
        self.state = next_state
        return observation, float(reward), bool(terminated), False, info

    def render(self) -> gymspec.RenderFrame | None:
        """Draw the current state with ``render_image`` (the render state is created on first use).

        Returns:
            A ``uint8`` frame in ``rgb_array`` mode; ``None`` (with a warning) without a render mode.

        Raises:
            StepBeforeReset: If the environment was never reset.
        """
        if not self._can_render():
            return None
        if self.state is None:
            raise step_before_reset(type(self).__name__, "render")
        return self._draw([self.state])[0]

    def close(self) -> None:
        """Release the render state with ``render_close``; safe to call more than once."""
        self._close_render_state()
