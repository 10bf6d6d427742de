"""Environments with one API defect each, built on reference's or on Gymnasium's ``Env`` for side-by-side checks.

``make_env(core, spaces, **overrides)`` returns a small Box-observation environment; the overrides replace its
``reset``/``step``/``render`` functions or attributes, so the same defect can be given to both frameworks' checkers.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import numpy as np

_Func = Callable[..., Any]


def good_reset(self: Any, *, seed: int | None = None, options: dict[str, Any] | None = None) -> Any:
    base: Any = type(self).__mro__[1]
    base.reset(self, seed=seed)
    self.observation_space.seed(int(self.np_random.integers(2**31)))
    return self.observation_space.sample(), {}


def good_step(self: Any, action: Any) -> Any:
    return self.observation_space.sample(), 0.0, False, False, {}


def make_env(core: Any, spaces: Any, *, spec: Any = None, **overrides: Any) -> Any:
    """A fresh environment class and instance on ``core.Env`` with the given functions/attributes replaced.

    Args:
        core: ``reference`` or ``gymnasium`` (the module with ``Env``).
        spaces: Its ``spaces`` module.
        spec: An ``EnvSpec`` to set (``None``: no spec).
        **overrides: ``reset``, ``step``, ``render`` functions (taking ``self``), or attribute values
            (``action_space=None`` removes the attribute).

    Returns:
        The environment.
    """

    class Probe(core.Env):  # type: ignore[misc]
        metadata: dict[str, Any] = {"render_modes": []}

        def __init__(self) -> None:
            self.observation_space = spaces.Box(0.0, 1.0, (2,), dtype=np.float32)
            self.action_space = spaces.Box(-1.0, 1.0, (1,), dtype=np.float32)

    env = Probe()
    env.spec = spec
    for name, value in {"reset": good_reset, "step": good_step, **overrides}.items():
        if isinstance(value, types.FunctionType):
            setattr(Probe, name, value)
        elif value is None and name.endswith("_space"):
            delattr(env, name)
        else:
            setattr(env, name, value)
    return env
