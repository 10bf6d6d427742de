"""Stepping and resetting a run of sub-environments: the one loop ``SyncVectorEnv`` and every async worker run.

``SyncVectorEnv`` calls :func:`step_envs` on all its sub-envs; each ``AsyncVectorEnv`` worker calls it on its slice,
with views of the slice's rows of the shared buffers. Both therefore apply the autoreset modes identically:

* ``NextStep``: a sub-env whose episode ended in the previous step is reset instead of stepped (its action is
  ignored); that step reports reward 0 and no termination or truncation.
* ``SameStep``: a sub-env whose episode ends is reset in the same step; the step reports the new episode's first
  observation, and ``info`` carries the ending step's observation and info as ``final_obs``/``final_info``.
* ``Disabled``: nothing is reset; the caller refuses to step ended sub-envs until they are reset.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeAlias

import numpy as np
from numpy.typing import NDArray

from gymspec import AnyEnv, AutoresetMode, InfoDict, Options

__all__ = ["Actions", "IndexedInfos", "Rows", "failed_position", "reset_envs", "step_envs"]

#: ``(position in the run, info)`` pairs, in the order they are to be merged into a batched info dict.
IndexedInfos: TypeAlias = list[tuple[int, InfoDict]]
#: One sub-env's observation or action: an element of its space, whose type the loop never inspects.
Element: TypeAlias = Any


class Rows(Protocol):
    """Where observations go (``rows[k] = observation``): a batch array, a row writer or a plain list."""

    def __setitem__(self, index: int, value: Element, /) -> None: ...


class Actions(Protocol):
    """Where actions come from (``actions[k]``): a batch array, a list or a reader of shared memory."""

    def __getitem__(self, index: int, /) -> Element: ...


def step_envs(
    mode: AutoresetMode,
    envs: Sequence[AnyEnv],
    actions: Actions,
    ended: list[bool],
    observations: Rows,
    rewards: NDArray[np.float64],
    terminations: NDArray[np.bool_],
    truncations: NDArray[np.bool_],
) -> IndexedInfos:
    """Step every sub-env of a run once, applying ``mode``; position ``k`` of every argument is ``envs[k]``.

    Args:
        mode: The autoreset mode.
        envs: The sub-envs.
        actions: Their actions.
        ended: Whether each sub-env's episode ended at its previous step (read by ``NextStep``; set by ``NextStep``
            and ``Disabled``, cleared when ``NextStep`` resets).
        observations: Receives each sub-env's observation.
        rewards: Receives each reward.
        terminations: Receives each termination flag.
        truncations: Receives each truncation flag.

    Returns:
        The non-empty infos, with the positions they belong to (a ``SameStep`` reset contributes two entries:
        ``final_obs``/``final_info`` first, then the new episode's info).
    """
    next_step, same_step = mode is AutoresetMode.NEXT_STEP, mode is AutoresetMode.SAME_STEP
    infos: IndexedInfos = []
    for k in range(len(envs)):
        env = envs[k]
        if next_step and ended[k]:
            observation, info = env.reset()
            rewards[k] = 0.0
            terminations[k] = truncations[k] = ended[k] = False
        else:
            observation, reward, terminated, truncated, info = env.step(actions[k])
            rewards[k] = reward
            terminations[k] = terminated
            truncations[k] = truncated
            if terminated or truncated:
                if same_step:
                    infos.append((k, {"final_obs": observation, "final_info": info}))
                    observation, info = env.reset()
                else:
                    ended[k] = True
        observations[k] = observation
        if info:
            infos.append((k, info))
    return infos


def reset_envs(
    envs: Sequence[AnyEnv],
    selected: Sequence[int],
    seeds: Sequence[int | None],
    options: Options | None,
    ended: list[bool],
    observations: Rows,
) -> IndexedInfos:
    """Reset the selected sub-envs of a run; every position refers to ``envs``.

    Args:
        envs: The sub-envs.
        selected: The positions to reset, in increasing order.
        seeds: One seed per position of ``envs``.
        options: The options for every reset; each sub-env gets its own copy, so one that edits them affects
            neither the others nor the caller.
        ended: Cleared for every reset sub-env.
        observations: Receives each reset sub-env's observation.

    Returns:
        The non-empty infos, with their positions.
    """
    infos: IndexedInfos = []
    for k in selected:
        own_options = None if options is None else dict(options)
        observations[k], info = envs[k].reset(seed=seeds[k], options=own_options)
        ended[k] = False
        if info:
            infos.append((k, info))
    return infos


def failed_position(exc: BaseException) -> int | None:
    """The position :func:`step_envs` or :func:`reset_envs` was serving when ``exc`` escaped from it.

    Read from the traceback (the loops keep no bookkeeping for it, so the step costs nothing extra).

    Args:
        exc: An exception raised through one of the two loops.

    Returns:
        The position of the sub-env that raised, or ``None`` when ``exc`` did not come from either loop.
    """
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code in _LOOPS:
            position = tb.tb_frame.f_locals.get("k")
            return position if isinstance(position, int) else None
        tb = tb.tb_next
    return None


_LOOPS = (step_envs.__code__, reset_envs.__code__)
