"""Convert a vector environment's arrays between Array API frameworks (needs ``pip install "gymspec[array-api]"``).

The vector counterpart of :class:`reference.wrappers.ArrayConversion`: rewards and flags are converted too, as
they are arrays here. Importing this module without array-api-compat raises
:class:`~reference.error.DependencyNotInstalled`.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, TypeAlias

from reference.core import ActType, ObsType
from reference.utils.record_constructor import RecordConstructorArgs
from reference.vector.vector_env import VectorEnv, VectorWrapper
from reference.wrappers.array_conversion import (
    Device,
    array_conversion,
    checked_namespace,
    namespace_state,
    restore_namespaces,
)

__all__ = ["ArrayConversion"]

_Batch: TypeAlias = Any
_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Seed: TypeAlias = "int | list[int | None] | None"
_State: TypeAlias = dict[str, Any]


class ArrayConversion(VectorWrapper[Any, Any, ObsType, ActType, Any], RecordConstructorArgs):
    """Let a vector environment written in one Array API framework be driven with arrays of another.

    Actions are converted to ``env_xp`` (on ``env_device``); observations, rewards, flags, infos and ``reset``
    results to ``target_xp`` (on ``target_device``).

    Args:
        env: The vector environment.
        env_xp: The framework the environment uses.
        target_xp: The framework the caller uses.
        env_device: The device the environment's arrays live on.
        target_device: The device returned arrays are moved to.

    Raises:
        ValueError: If ``env_xp`` or ``target_xp`` is not an Array API framework.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleVectorEnv
        >>> envs = ArrayConversion(CartPoleVectorEnv(num_envs=2), env_xp=np, target_xp=np)
        >>> obs, _ = envs.reset(seed=0)
        >>> obs.shape
        (2, 4)
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, Any],
        env_xp: ModuleType,
        target_xp: ModuleType,
        env_device: Device | None = None,
        target_device: Device | None = None,
    ) -> None:
        RecordConstructorArgs.__init__(
            self,
            _disable_deepcopy=True,
            env_xp=env_xp,
            target_xp=target_xp,
            env_device=env_device,
            target_device=target_device,
        )
        VectorWrapper.__init__(self, env)
        self._env_xp = checked_namespace("ArrayConversion", "env_xp", env_xp)
        self._target_xp = checked_namespace("ArrayConversion", "target_xp", target_xp)
        self._env_device = env_device
        self._target_device = target_device

    def _to_target(self, value: Any) -> Any:
        return array_conversion(value, self._target_xp, self._target_device)

    def step(self, actions: Any) -> tuple[Any, _Batch, _Batch, _Batch, _Info]:
        """Convert ``actions`` to the environment's framework, step, and convert everything back.

        Args:
            actions: A batch of actions in the caller's framework.

        Returns:
            The step result in the caller's framework.
        """
        result = self.env.step(array_conversion(actions, self._env_xp, self._env_device))
        obs, rewards, terminations, truncations, info = (self._to_target(part) for part in result)
        return obs, rewards, terminations, truncations, info

    def reset(self, *, seed: _Seed = None, options: _Options | None = None) -> tuple[Any, _Info]:
        """Reset, converting ``options`` to the environment's framework and the result to the caller's.

        Args:
            seed: Passed through.
            options: Converted, then passed through.

        Returns:
            The observations and info in the caller's framework.
        """
        if options:
            options = array_conversion(options, self._env_xp, self._env_device)
        result: tuple[Any, _Info] = self._to_target(self.env.reset(seed=seed, options=options))
        return result

    def __getstate__(self) -> _State:
        """Pickle the frameworks by name (modules cannot be pickled)."""
        return namespace_state(self, {"env": self.env})

    def __setstate__(self, state: _State) -> None:
        """Restore from :meth:`__getstate__`, re-importing the frameworks."""
        restore_namespaces(self, state)
        VectorWrapper.__init__(self, state["env"])
