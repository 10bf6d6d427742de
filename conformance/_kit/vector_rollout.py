"""Driving a vector env through a plan of batched actions and recording what it returned.

:func:`run` resets with the plan's seed and takes the plan's actions one by one. Autoreset is the env's business,
except under ``"Disabled"``, where the rollout plays the caller's part: after a step on which sub-envs ended, it
resets exactly those with ``reset(options={"reset_mask": ended})`` before stepping again. Every result is
snapshotted when returned. Malformed results stop the rollout as not checkable, naming the rule that reports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from conformance._engine.describe import is_array, is_dict, is_list, is_mapping, is_tuple, rebuilt_tuple, summarize
from conformance._engine.handles import Handle
from conformance._engine.outcomes import NotCheckable
from conformance._engine.record import snapshot
from conformance._kit.rollout import drive
from gymspec import AutoresetMode, autoreset_mode_of

__all__ = [
    "EpisodeClock",
    "VecRecord",
    "comparable",
    "declared_mode",
    "ended_flags",
    "overlong_sub_episode",
    "run",
    "unpack_reset",
    "unpack_step",
]


@dataclass(frozen=True)
class VecRecord:
    """One result of a vector rollout, snapshotted when it was returned.

    Attributes:
        index: Position in the rollout (0 is the first reset).
        kind: ``"reset"``, ``"partial"`` (a reset with ``reset_mask``) or ``"step"``.
        arg: The actions of a step, the mask of a partial reset, the seed of a reset.
        obs: The observations as returned (not a copy; see ``obs_copy``).
        obs_copy: A copy taken at return time.
        rewards: The rewards (``None`` for resets).
        terminations: The flags (``None`` for resets).
        truncations: The flags (``None`` for resets).
        info: The info as returned.
        info_copy: A copy taken at return time.
    """

    index: int
    kind: str
    arg: Any
    obs: Any
    obs_copy: Any
    rewards: Any
    terminations: Any
    truncations: Any
    info: Any
    info_copy: Any

    FIELDS: ClassVar[tuple[str, ...]] = ("observations", "rewards", "terminations", "truncations", "info")
    """The names of :meth:`values`, for messages."""

    def values(self) -> tuple[Any, ...]:
        """The compared parts (copies taken at return time; object arrays as lists, compared item by item)."""
        parts = (self.obs_copy, self.rewards, self.terminations, self.truncations, self.info_copy)
        return tuple(comparable(part) for part in parts)

    def where(self) -> str:
        """The call and its position, e.g. ``"partial reset at position 3"`` (messages say "the {where}")."""
        names = {"reset": "reset", "partial": "partial reset", "step": "step"}
        return f"{names.get(self.kind, self.kind)} at position {self.index}"


def declared_mode(metadata: Any) -> tuple[AutoresetMode, bool]:
    """The autoreset mode a vector env declares, and whether it declares one at all.

    Args:
        metadata: The env's ``metadata`` (any mapping, or something else).

    Returns:
        ``(mode, declared)``; an absent (or unreadable) declaration means ``NextStep``.
    """
    if not is_mapping(metadata) or "autoreset_mode" not in metadata:
        return AutoresetMode.NEXT_STEP, False
    mode = autoreset_mode_of(metadata["autoreset_mode"])
    return (AutoresetMode.NEXT_STEP, True) if mode is None else (mode, True)


def unpack_reset(result: Any) -> tuple[Any, Any]:
    """Split a reset result, or stop as not checkable (VEC-005 reports malformed ones)."""
    if not is_tuple(result) or len(result) != 2:
        raise NotCheckable(f"reset returned {summarize(result)}, not a 2-tuple (reported by VEC-005)")
    return result[0], result[1]


def unpack_step(result: Any) -> tuple[Any, Any, Any, Any, Any]:
    """Split a step result, or stop as not checkable (VEC-010 reports malformed ones)."""
    if not is_tuple(result) or len(result) != 5:
        raise NotCheckable(f"step returned {summarize(result)}, not a 5-tuple (reported by VEC-010)")
    return result[0], result[1], result[2], result[3], result[4]


def ended_flags(terminations: Any, truncations: Any, n: int) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which sub-envs ended, or stop as not checkable when the flags are malformed (VEC-013 reports that)."""
    try:
        terms = np.asarray(terminations, dtype=bool).reshape(-1)
        truncs = np.asarray(truncations, dtype=bool).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise NotCheckable(f"the flags cannot be read as bool arrays ({exc}; reported by VEC-013)") from None
    if terms.shape != (n,) or truncs.shape != (n,):
        raise NotCheckable(
            f"the flags have shapes {terms.shape} and {truncs.shape}, not ({n},) (reported by VEC-013)"
        )
    ended: np.ndarray[Any, np.dtype[np.bool_]] = terms | truncs
    return ended


class EpisodeClock:
    """Each sub-env's steps into its current episode, counted the way the declared autoreset mode defines episodes.

    Under ``NextStep`` the step after an ending is the reset step: it belongs to no episode and restarts the
    count. Under ``SameStep`` (reset inside the ending step) and ``Disabled`` (the caller resets the ended
    sub-envs before stepping again) the next step is the new episode's first.
    """

    def __init__(self, n: int, mode: AutoresetMode) -> None:
        self._next_step = mode is AutoresetMode.NEXT_STEP
        self._counts = np.zeros(n, dtype=int)
        self._resetting = np.zeros(n, dtype=bool)

    def tick(self, ended: np.ndarray[Any, np.dtype[np.bool_]], limit: int) -> list[int]:
        """Count one step whose flags were ``ended``; the sub-envs that ran ``limit`` steps without ending."""
        self._counts = np.where(self._resetting, 0, self._counts + 1)
        late = [int(i) for i in np.flatnonzero((self._counts >= limit) & ~ended)]
        if self._next_step:
            self._resetting = ended & ~self._resetting
        else:
            self._counts[ended] = 0
        return late


def overlong_sub_episode(results: Sequence[Any], limit: int, mode: AutoresetMode) -> str | None:
    """Which sub-env of a recorded vector rollout ran ``limit`` steps without its episode ending, or None.

    ``results`` are what the env returned from its seeded reset on: 5-tuples are steps, 2-tuples the partial
    resets a ``Disabled`` rollout makes (they reset only sub-envs that ended, whose count is already restarted).
    For a reproducer's assertion: the same clock as the check (:class:`EpisodeClock`), over the replayed results.
    """
    clock: EpisodeClock | None = None
    for position, result in enumerate(results):
        if not is_tuple(result) or len(result) != 5:
            continue
        ended = np.asarray(result[2], dtype=bool).reshape(-1) | np.asarray(result[3], dtype=bool).reshape(-1)
        clock = clock or EpisodeClock(ended.size, mode)
        late = clock.tick(ended, limit)
        if late:
            return (f"sub-env {late[0]} had not ended its episode by step {limit} (result {position}, "
                    f"autoreset mode {mode.value})")
    return None


RecordHook = Callable[[VecRecord], None]
ResultHook = Callable[[int, str, Any], None]


def run(
    env: Handle,
    seed: Any,
    actions: Sequence[Any],
    n: int,
    mode: AutoresetMode,
    *,
    on_record: RecordHook | None = None,
    on_result: ResultHook | None = None,
    stop: Callable[[VecRecord], bool] | None = None,
) -> list[VecRecord]:
    """Reset with ``seed`` and step through ``actions`` (resetting ended sub-envs under ``"Disabled"``).

    Args:
        env: The vector env (a handle, so calls are recorded and timed).
        seed: The first reset's seed (``None``, an int or a list).
        actions: Batched actions, in order.
        n: ``num_envs``.
        mode: The declared autoreset mode.
        on_record: Called with each :class:`VecRecord`.
        on_result: Called with ``(index, kind, raw result)`` before unpacking.
        stop: Called with each step's record; the rollout ends when it returns true.

    Returns:
        The records, the first reset included.
    """
    records: list[VecRecord] = []

    def add(record: VecRecord) -> None:
        records.append(record)
        if on_record is not None:
            on_record(record)

    def reset(kind: str, arg: Any, **kwargs: Any) -> None:
        result = env.reset(**kwargs)
        if on_result is not None:
            on_result(len(records), kind, result)
        obs, info = unpack_reset(result)
        add(VecRecord(len(records), kind, arg, obs, snapshot(obs), None, None, None, info, snapshot(info)))

    reset("reset", seed, **({} if seed is None else {"seed": seed}))
    for taken, batch in enumerate(actions, start=1):
        result = env.step(batch)
        if on_result is not None:
            on_result(len(records), "step", result)
        obs, rewards, terms, truncs, info = unpack_step(result)
        record = VecRecord(
            len(records), "step", batch, obs, snapshot(obs), snapshot(rewards), snapshot(terms), snapshot(truncs),
            info, snapshot(info),
        )
        add(record)
        if stop is not None and stop(record):
            break
        ended = ended_flags(terms, truncs, n)
        if mode is AutoresetMode.DISABLED and ended.any():
            mask = ended.copy()
            reset("partial", mask, options={"reset_mask": mask})
        drive(env, actions, taken)
    return records


def comparable(value: Any) -> Any:
    """``value`` with object arrays (``final_obs``) turned into lists, so they compare element by element."""
    if is_array(value) and value.dtype == object:
        return [comparable(item) for item in value.tolist()] if value.ndim else comparable(value.item())
    if is_tuple(value):
        return rebuilt_tuple(value, (comparable(item) for item in value))
    if is_list(value):
        return [comparable(item) for item in value]
    if is_dict(value):
        return {key: comparable(item) for key, item in value.items()}
    return value
