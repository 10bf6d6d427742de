"""Functional environments: the dynamics as pure functions of an explicit state.

A ``FuncEnv`` holds no episode state: every function receives the state (and, where randomness is allowed, an
``rng``) and returns new values. That makes it transformable (batching, JIT) and trivially reproducible. Adapters
turn one into an ``Env`` (one state) or a ``VectorEnv`` (a batch of states with a leading dimension).

Type parameters, in Gymnasium's order: ``StateT``, ``ObsT``, ``ActT``, ``RewardT``, ``TerminalT``,
``RenderStateT``, ``ParamsT``. Variance as mypy and pyright both infer it from the signatures: the state and render
state flow both ways (invariant); observations, rewards and terminal flags only flow out (covariant); actions and
params only flow in (contravariant), so ``action_space`` is a ``Space[Value]`` (it is not tied to ``transition``
as ``Env``'s is tied to ``step``, see :mod:`gymspec.env`).

Every ``params`` parameter is only required to have *some* default (``params: ParamsT = ...``), not ``None``:
Gymnasium's ``CartPoleFunctional`` defaults it to its params class and does not accept ``None``. Callers that have
no params omit the argument (the reference adapters do). ``render_init`` takes no other required argument; extra
keyword options with defaults (``screen_width=600``) or ``**kwargs`` are the implementation's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar, runtime_checkable

from typing_extensions import TypeAlias

from gymspec._typing import RNG, InfoDict, NDArrayAny, Value
from gymspec.space import Space

__all__ = ["FuncEnv", "FunctionTransform"]

StateT = TypeVar("StateT")
ObsT_co = TypeVar("ObsT_co", covariant=True)
ActT_contra = TypeVar("ActT_contra", contravariant=True)
RewardT_co = TypeVar("RewardT_co", covariant=True)
TerminalT_co = TypeVar("TerminalT_co", covariant=True)
RenderStateT = TypeVar("RenderStateT")
ParamsT_contra = TypeVar("ParamsT_contra", contravariant=True)

FunctionTransform: TypeAlias = Callable[[Callable[..., Any]], Callable[..., Any]]
"""A function-to-function transformation such as ``jax.jit`` or ``numpy.vectorize``."""


@runtime_checkable
class FuncEnv(
    Protocol[StateT, ObsT_co, ActT_contra, RewardT_co, TerminalT_co, RenderStateT, ParamsT_contra],
):
    """An environment written as pure functions of an explicit state.

    Rules:
        [FUNC-001] MUST expose ``observation_space`` and ``action_space`` that satisfy the ``Space`` protocol.
        [FUNC-002] MUST NOT mutate its inputs: no function changes the ``state``, ``action`` or ``params`` it
            receives.
        [FUNC-003] MUST be deterministic given its inputs: equal arguments and equal copies of ``rng`` give equal
            results, however often and in whatever order the functions are called (no hidden state).
        [FUNC-004] MUST draw all randomness from ``rng``: the global NumPy and ``random`` generators neither
            influence results nor are advanced, and no function builds a generator of its own in place of
            ``rng``.
        [FUNC-005] MUST behave the same through an ``Env`` adapter as through direct calls: an episode driven by
            ``initial``/``transition``/``observation``/``reward``/``terminal`` with given rngs equals the reference
            ``FunctionalEnv`` adapter's episode with the same rngs and actions.
        [FUNC-013] SHOULD draw fresh randomness from a stateful ``rng``: a function that draws from a NumPy
            ``Generator`` advances it, so a second call with the same generator draws new values.
        [FUNC-014] MUST treat the rows of a batch independently, when its functions take batches: row ``i`` of
            what ``initial``, ``transition``, ``reward``, ``terminal`` and ``observation`` return for a batch equals
            their result for row ``i`` alone, with row ``i``'s rng.

    Batches: a NumPy FuncEnv takes batches if its functions accept states with a leading batch dimension, an
    array of one action per state and, as ``rng``, a batch of generators that draws row by row (the reference
    ``BatchedGenerator``, what the reference ``FunctionalVectorEnv`` passes); then FUNC-008, FUNC-009 and FUNC-014
    also hold for batches. A JAX FuncEnv is batched with ``jax.vmap`` over its functions and one key per row (what
    Gymnasium's ``FunctionalJaxVectorEnv`` does through ``transform(jax.vmap)``), so every JAX FuncEnv must
    work under ``vmap``.

    ``rng`` is whatever the functions take: NumPy ``Generator`` s (the reference adapters) or JAX PRNG keys
    (Gymnasium's ``FunctionalJaxEnv``, which splits a fresh key per step). A target that declares
    ``metadata["jax"] = True`` is driven with keys; otherwise keys are used when ``initial`` rejects a generator and
    the target has imported JAX itself.

    Why FUNC-013 is a SHOULD: Gymnasium's docs only say that ``initial`` and ``transition`` use "a random number
    generator"; they do not say who advances it. But its adapters and the reference's pass one generator to every
    call of an episode (``FunctionalEnv``) or one key stream split per step (``FunctionalJaxEnv``): a function that
    draws from ``copy.deepcopy(rng)`` (or reseeds a copy) repeats the same noise at every step, so the noise of an
    episode is one draw repeated, which no stochastic model intends and no check of single calls can see. A JAX key
    is an immutable value the caller splits, so the rule concerns stateful generators only.
    """

    @property
    def observation_space(self) -> Space[ObsT_co]:
        """The space every observation belongs to."""
        ...

    @property
    def action_space(self) -> Space[Value]:
        """The space every valid action belongs to."""
        ...

    def initial(self, rng: RNG, params: ParamsT_contra = ...) -> StateT:
        """Draw an initial state.

        Rules:
            [FUNC-006] MUST return an initial state whose ``observation`` is an element of ``observation_space``.
        """
        ...

    def transition(self, state: StateT, action: ActT_contra, rng: RNG, params: ParamsT_contra = ...) -> StateT:
        """The state after taking ``action`` in ``state``.

        Rules:
            [FUNC-007] MUST return a state whose ``observation`` is an element of ``observation_space``, for every
                state reachable from ``initial`` and every element of ``action_space``.
        """
        ...

    def observation(self, state: StateT, rng: RNG, params: ParamsT_contra = ...) -> ObsT_co:
        """The observation emitted in ``state``."""
        ...

    def reward(
        self, state: StateT, action: ActT_contra, next_state: StateT, rng: RNG, params: ParamsT_contra = ...
    ) -> RewardT_co:
        """The reward for the transition ``state --action--> next_state``.

        Rules:
            [FUNC-008] MUST return a real, finite scalar: an int, a float, a NumPy integer or floating scalar, or a
                0-d array of one (for batched states, a real array of one reward per state).
        """
        ...

    def terminal(self, state: StateT, rng: RNG, params: ParamsT_contra = ...) -> TerminalT_co:
        """Whether ``state`` is terminal.

        Rules:
            [FUNC-009] MUST return a bool-like value: ``bool``, ``numpy.bool_`` or a 0-d bool array (for batched
                states, a bool array of one flag per state).
        """
        ...

    def state_info(self, state: StateT, params: ParamsT_contra = ...) -> InfoDict:
        """Diagnostic information about ``state``.

        Rules:
            [FUNC-010] MUST return a ``dict`` from ``state_info`` and from ``transition_info``.
        """
        ...

    def transition_info(
        self, state: StateT, action: ActT_contra, next_state: StateT, params: ParamsT_contra = ...
    ) -> InfoDict:
        """Diagnostic information about a transition."""
        ...

    def transform(self, func: FunctionTransform) -> None:
        """Replace every function of the env by ``func`` applied to it.

        Rules:
            [FUNC-011] MUST apply ``func`` to ``initial``, ``transition``, ``observation``, ``reward``,
                ``terminal`` and ``state_info``; ``transition_info`` may stay untransformed.

        Calibration of FUNC-011: Gymnasium's own ``FuncEnv.transform`` binds ``func(transition_info)`` to a new
        attribute ``step_info`` and leaves ``transition_info`` as it was, and its ``FunctionalJaxVectorEnv`` then
        calls the untransformed ``transition_info`` on batched states. Requiring it would fail every FuncEnv that
        inherits Gymnasium's ``transform``; so a caller that needs ``transition_info`` transformed (vmapped, jitted)
        must transform it itself, and the rule requires the six functions every adapter calls transformed.
        """
        ...

    def render_init(self, params: ParamsT_contra = ...) -> RenderStateT:
        """Create the render state (a surface, a window, a buffer)."""
        ...

    def render_image(
        self, state: StateT, render_state: RenderStateT, params: ParamsT_contra = ...
    ) -> tuple[RenderStateT, NDArrayAny]:
        """Draw ``state``.

        Rules:
            [FUNC-012] MUST return ``(render_state, frame)`` with ``frame`` a ``uint8`` array of shape
                ``(H, W, 3)``.
        """
        ...

    def render_close(self, render_state: RenderStateT, params: ParamsT_contra = ...) -> None:
        """Release the render state."""
        ...
