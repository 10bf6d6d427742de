"""Vector wrapper that turns the batched info dict into one info dict per sub-environment.

* :class:`DictInfoToList` converts ``{"k": array, "_k": mask}`` into ``[{"k": array[i]} for masked i]``.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference.core import ActType, ObsType
from reference.utils._format import describe
from reference.vector.vector_env import ArrayType, VectorWrapper

__all__ = ["DictInfoToList"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Seed: TypeAlias = "int | list[int | None] | None"
_Value: TypeAlias = Any



class _InfoLayoutError(ValueError, AssertionError):
    """An info value without one entry per sub-environment; also an ``AssertionError``, which Gymnasium raises."""


class DictInfoToList(VectorWrapper[ObsType, ActType, ObsType, ActType, ArrayType]):
    """Return ``info`` as a list of ``num_envs`` dicts instead of one dict of batched arrays.

    Sub-environment ``i`` gets key ``k`` when the mask ``info["_k"]`` is True at ``i`` (or for every ``i`` when
    there is no mask); nested dicts are converted recursively, and keys starting with ``_`` (the masks) are
    dropped. Wrappers that read or add info keys (such as :class:`RecordEpisodeStatistics`) must be inside this one.

    Args:
        env: The vector environment to wrap.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> from reference.wrappers.vector import RecordEpisodeStatistics
        >>> envs = DictInfoToList(RecordEpisodeStatistics(SyncVectorEnv([CartPoleEnv] * 2)))
        >>> envs.reset(seed=0)
        (array(...), [{}, {}])
        >>> while True:
        ...     *_, infos = envs.step(np.array([1, 0]))
        ...     if any(infos):
        ...         break
        >>> infos
        [{'episode': {'r': np.float64(8.0), 'l': np.int64(8), 't': np.float64(...)}}, {}]
        >>> envs.close()
    """

    def reset(  # type: ignore[override]  # the info becomes a list, as in Gymnasium
        self, *, seed: _Seed = None, options: _Options | None = None
    ) -> tuple[ObsType, list[_Info]]:
        """Reset the environment and convert its info.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            ``(observations, infos)`` with one info dict per sub-environment.
        """
        obs, infos = self.env.reset(seed=seed, options=options)
        return obs, self._convert(infos)

    def step(  # type: ignore[override]  # the info becomes a list, as in Gymnasium
        self, actions: ActType
    ) -> tuple[ObsType, ArrayType, ArrayType, ArrayType, list[_Info]]:
        """Step the environment and convert its info.

        Args:
            actions: Passed through.

        Returns:
            The step result with one info dict per sub-environment.
        """
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return observations, rewards, terminations, truncations, self._convert(infos)

    def _convert(self, vector_infos: _Value) -> list[_Info]:
        if not isinstance(vector_infos, dict):
            raise TypeError(
                f"DictInfoToList env info must be a dict of batched values, got {type(vector_infos).__name__}"
            )
        n = self.num_envs
        list_info: list[_Info] = [{} for _ in range(n)]
        for key, value in vector_infos.items():  # pyright: ignore[reportUnknownVariableType]
            if key.startswith("_"):  # pyright: ignore[reportUnknownMemberType]
                continue
            if isinstance(value, dict):
                per_env: _Value = self._convert(value)
            elif isinstance(value, np.ndarray) and value.ndim >= 1 and len(value) == n:  # pyright: ignore[reportUnknownArgumentType]
                per_env = value  # pyright: ignore[reportUnknownVariableType]
            else:
                raise _InfoLayoutError(
                    f"DictInfoToList info[{key!r}] must be a dict or an array with num_envs={n} rows, got "
                    f"{describe(value)}"  # pyright: ignore[reportUnknownArgumentType]
                )
            mask = vector_infos.get(f"_{key}")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
            if mask is not None and len(mask) != n:  # pyright: ignore[reportUnknownArgumentType]
                raise _InfoLayoutError(
                    f"DictInfoToList info['_{key}'] must have num_envs={n} entries, got {describe(mask)}"  # pyright: ignore[reportUnknownArgumentType]
                )
            for i in range(n):
                if mask is None or mask[i]:
                    list_info[i][key] = per_env[i]
        return list_info

