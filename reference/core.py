"""The environment and wrapper base classes: ``Env``, ``Wrapper`` and the three single-purpose wrappers.

``Env`` and ``Wrapper`` behave like Gymnasium 1.x's: seeding through ``reset(seed=...)``, a lazily created
``np_random``, no implicit attribute forwarding through wrappers (use ``get_wrapper_attr``), and a ``spec`` that
records the wrapper stack. A ``Wrapper`` accepts any object that looks like an environment (``step``, ``reset``,
``render``, ``close``, ``action_space``, ``observation_space``), so reference wrappers also wrap Gymnasium or
home-grown environments; attributes such an object lacks fall back to the base-class defaults.

This module is the public home of these names; the code lives in ``reference._env`` (``Env`` and the type
parameters), ``reference._wrapper`` (``Wrapper``) and ``reference._hook_wrappers`` (the three hook wrappers). The
classes keep those modules as ``__module__``, so ``inspect.getsource``, doctest collection and tracebacks lead a
reader to the code; pickles name the defining module, which is as importable as this one.
"""

from __future__ import annotations

from reference._env import ActType, Env, ObsType, RenderFrame, WrapperActType, WrapperObsType
from reference._hook_wrappers import ActionWrapper, ObservationWrapper, RewardWrapper
from reference._wrapper import Wrapper

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
