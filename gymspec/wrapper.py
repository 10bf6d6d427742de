"""Wrappers: envs that transform another env.

``Wrapper[WrapperObsT_co, WrapperActT_contra, ObsT_co, ActT_contra]`` is an
``Env[WrapperObsT_co, WrapperActT_contra]`` around an ``Env[ObsT_co, ActT_contra]``. Variance follows ``Env``: both
observation parameters are covariant, both action parameters contravariant (declared; see :mod:`gymspec.env` for
what pyright infers).

``env`` is an ``Env[ObsT_co | Value, ActT_contra]``: Gymnasium types its wrappers' ``env`` with the wrapper's
*outer* types (``gymnasium.Wrapper.env: Env[WrapperObsType, WrapperActType]``), so an ``ObservationWrapper`` from
``uint8`` to ``float32`` frames claims a ``float32`` inner env. The inner observation type is therefore not held
against ``env``; it documents the chain for the reader and is what ``env.reset()`` gives back alongside ``Any``.
"""

from __future__ import annotations

from typing import Protocol, TypeVar, runtime_checkable

from gymspec._typing import ActT_contra, ObsT_co, Value
from gymspec.env import AnyEnv, Env, HasUnwrapped, SupportsWrapperAttrs

__all__ = ["Wrapper", "WrapperActT_contra", "WrapperObsT_co"]

WrapperObsT_co = TypeVar("WrapperObsT_co", covariant=True)
WrapperActT_contra = TypeVar("WrapperActT_contra", contravariant=True)


@runtime_checkable
class Wrapper(  # pyright: ignore[reportInvalidTypeVarUse]  (as Env: see gymspec.env)
    Env[WrapperObsT_co, WrapperActT_contra],
    HasUnwrapped,
    SupportsWrapperAttrs,
    Protocol[WrapperObsT_co, WrapperActT_contra, ObsT_co, ActT_contra],
):
    """An env that delegates to an inner env and may change its spaces, data or behaviour.

    A wrapper is an env in its own right, so every ``ENV``, ``SEED`` and ``RENDER`` rule applies to it as well.

    Rules:
        [WRAP-001] MUST return observations (from ``reset`` and ``step``) that are elements of the wrapper's own
            ``observation_space``, which a wrapper that transforms observations updates accordingly.
        [WRAP-002] MUST accept every element of the wrapper's own ``action_space``.
        [WRAP-003] MUST NOT modify the inner env's spaces or metadata when overriding its own ``action_space``,
            ``observation_space`` or ``metadata``: the innermost env stays a conforming env on its own.
        [WRAP-004] MUST pass ``render_mode`` through: it equals the inner env's ``render_mode``, unless the wrapper
            changes rendering and declares its mode in its own ``metadata["render_modes"]``.
        [WRAP-008] SHOULD share the inner env's generator: ``np_random`` is the very object the unwrapped env
            exposes, when both expose one.
        [WRAP-009] MUST forward ``seed`` and ``options`` on the way in: ``reset(seed=s, options=o)`` on the
            wrapper reaches the unwrapped env's ``reset`` with ``seed=s`` and every entry of ``o``.

    Calibration:
        WRAP-009: a wrapper is an env, and ``Env.reset`` documents ``seed`` as "the seed that is used to initialize
        the environment's PRNG" and ``options`` as "additional information to specify how the environment is
        reset"; the generator and the reset logic live in the unwrapped env, so a wrapper that drops either one
        (calls ``self.env.reset()`` bare) silently makes seeding a no-op for a deterministic-looking env, which
        SEED-001 sees only when the start is random. The check shadows the unwrapped env's ``reset`` on the
        instance, records the keywords it receives, and passes an options dict with one marker entry that the
        shadow removes before calling the real ``reset`` (the env never sees an unknown option).
    """

    @property
    def env(self) -> Env[ObsT_co | Value, ActT_contra]:
        """The next inner env.

        Rules:
            [WRAP-005] MUST lead to ``unwrapped``: following ``.env`` from the outermost wrapper reaches the
                object ``unwrapped`` returns, in finitely many steps.
        """
        ...

    @property
    def unwrapped(self) -> AnyEnv:
        """The innermost env.

        Rules:
            [WRAP-006] MUST return the innermost env from ``unwrapped``, an env whose own ``unwrapped`` is itself.
        """
        ...

    def get_wrapper_attr(self, name: str, /) -> object:
        """The value of ``name`` on the outermost layer that defines it.

        Rules:
            [WRAP-007] MUST find attributes defined on inner layers: ``get_wrapper_attr(name)`` equals the
                outermost defining layer's attribute, and raises ``AttributeError`` when no layer defines it.
        """
        ...
