"""A correct multi-task vector env: each sub-env is a different task (its own start offset and push).

Rules that compare a sub-env with "its" single env must compare sub-env ``i`` with ``env.env_fns[i]()``, never
with sub-env 0's factory: on this target, sub-env ``i`` reset with seed ``s`` starts where task ``i`` does, which
no other task does.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from reference.vector import SyncVectorEnv
from tests.meta.broken_vector._base import Hop

__all__ = ["Task", "sync_multitask"]

_OFFSET = 0.5
_PUSH = 0.4


class Task(Hop):
    """``Hop`` as task ``index``: the start is shifted by ``0.5 * index`` and the push is ``0.4 + 0.2 * index``.

    Args:
        index: The task.
    """

    def __init__(self, index: int) -> None:
        super().__init__(push=_PUSH + 0.2 * index)
        self._offset = _OFFSET * index

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        _, info = super().reset(seed=seed, options=options)
        self._x += self._offset
        return self._obs(), info


def sync_multitask(num_envs: int) -> SyncVectorEnv[Any, Any]:
    """A ``SyncVectorEnv`` whose sub-env ``i`` is task ``i`` (``env_fns[i]`` builds it)."""
    return SyncVectorEnv([partial(Task, index) for index in range(num_envs)], autoreset_mode="NextStep")
