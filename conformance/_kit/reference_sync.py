"""The reference ``SyncVectorEnv`` over a target's own sub-env factories: the yardstick of VEC-018.

The reference batches with its own space classes, so sub-envs whose spaces come from another library (Gymnasium's,
a duck-typed implementation) are seen through :class:`ReferenceSpaces`, which presents structurally equal reference
spaces and forwards everything else. Only the spaces change; observations, rewards, flags and infos are the
sub-env's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, cast

import numpy as np

from conformance._kit.strategies import space_kind
from gymspec import AutoresetMode

__all__ = ["ReferenceSpaces", "UnsupportedSpace", "reference_sync", "to_reference_space"]

_Env: TypeAlias = Any
_Space: TypeAlias = Any


class UnsupportedSpace(TypeError):
    """A space whose kind has no reference counterpart built here (Text, Graph, custom spaces...)."""


def to_reference_space(space: _Space) -> _Space:
    """A reference space structurally equal to ``space`` (``space`` itself when it already is one).

    Args:
        space: Any space.

    Returns:
        The reference space.

    Raises:
        UnsupportedSpace: If the kind is not Box, Discrete, MultiDiscrete, MultiBinary, Tuple or Dict.
    """
    from reference import spaces  # late: the reference is loaded only when a vector target is checked against it

    if isinstance(space, spaces.Space):
        return cast("_Space", space)  # isinstance leaves its item type unknown
    kind = space_kind(space)
    if kind == "box":
        return spaces.Box(low=np.asarray(space.low), high=np.asarray(space.high), shape=tuple(space.shape),
                          dtype=np.dtype(space.dtype))
    if kind == "discrete":
        return spaces.Discrete(int(space.n), start=int(getattr(space, "start", 0)), dtype=np.dtype(space.dtype))
    if kind == "multidiscrete":
        start = getattr(space, "start", None)
        return spaces.MultiDiscrete(np.asarray(space.nvec), dtype=np.dtype(space.dtype),
                                    start=None if start is None else np.asarray(start))
    if kind == "multibinary":
        return spaces.MultiBinary(space.n)
    if kind == "tuple":
        return spaces.Tuple(tuple(to_reference_space(sub) for sub in space.spaces))
    if kind == "dict":
        return spaces.Dict({key: to_reference_space(sub) for key, sub in space.spaces.items()})
    raise UnsupportedSpace(f"no reference counterpart for a {kind} space ({type(space).__name__})")


class ReferenceSpaces:
    """A sub-env seen with reference spaces; every other attribute and call goes to the sub-env.

    Args:
        env: The sub-env.
    """

    def __init__(self, env: _Env) -> None:
        self.env = env
        self.observation_space = to_reference_space(env.observation_space)
        self.action_space = to_reference_space(env.action_space)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)

    def reset(self, **kwargs: Any) -> Any:
        """The sub-env's ``reset``."""
        return self.env.reset(**kwargs)

    def step(self, action: Any) -> Any:
        """The sub-env's ``step``."""
        return self.env.step(action)

    def close(self) -> None:
        """The sub-env's ``close``."""
        self.env.close()


def _adapted(fn: Callable[[], _Env]) -> Callable[[], _Env]:
    def make() -> _Env:
        env = fn()
        from reference.spaces import Space  # late: see to_reference_space

        if isinstance(env.observation_space, Space) and isinstance(env.action_space, Space):
            return env
        return ReferenceSpaces(env)

    return make


def reference_sync(env_fns: Sequence[Callable[[], _Env]], mode: AutoresetMode) -> Any:
    """A reference ``SyncVectorEnv`` over the same factories, in the same autoreset mode.

    Args:
        env_fns: The target's sub-env factories.
        mode: The target's declared autoreset mode.

    Returns:
        The vector env (the caller closes it).
    """
    from reference.vector import SyncVectorEnv  # late: see to_reference_space

    return SyncVectorEnv([_adapted(fn) for fn in env_fns], autoreset_mode=mode)

