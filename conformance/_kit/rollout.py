"""Driving an env through a plan and recording what it returned, for the checks to inspect and compare.

:func:`run` resets with the plan's seed, takes the plan's actions one by one and, whenever an episode ends, resets
*without* a seed and carries on, so one rollout spans several episodes. Hooks see every raw result before it is
unpacked (the tuple-shape rules need that) and every unpacked transition after. Malformed results make the rollout
stop with :class:`~conformance._engine.outcomes.NotCheckable`, naming the rule that reports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from conformance._engine.describe import describe_exception, is_bool, is_tuple, summarize
from conformance._engine.handles import Handle, TargetError
from conformance._engine.outcomes import NotCheckable
from conformance._engine.record import snapshot
from conformance._kit.freeze import Freezer
from conformance._kit.strategies import Actions
from conformance.equality import difference

__all__ = ["Comparable", "Record", "drive", "ended", "first_difference", "run", "unpack_reset", "unpack_step"]


@dataclass(frozen=True)
class Record:
    """One result of a rollout, snapshotted when it was returned.

    Hooks see the objects as returned in ``obs`` and ``info``; the records :func:`run` returns keep only the
    copies (``obs`` is ``obs_copy`` there), so a long rollout holds no reference to what the target returned.

    Attributes:
        index: Position in the rollout (0 is the first reset).
        kind: ``"reset"`` or ``"step"``.
        action: The action (``None`` for resets).
        obs: The observation (the object as returned, not a copy; see ``obs_copy``).
        obs_copy: A copy taken at return time (large arrays past the rollout's copy budget kept as digests:
            :mod:`conformance._kit.freeze`).
        reward: The reward (``None`` for resets).
        terminated: The flag (``None`` for resets).
        truncated: The flag (``None`` for resets).
        info: The info as returned.
        info_copy: A copy taken at return time.
    """

    index: int
    kind: str
    action: Any
    obs: Any
    obs_copy: Any
    reward: Any
    terminated: Any
    truncated: Any
    info: Any
    info_copy: Any

    FIELDS: ClassVar[tuple[str, ...]] = ("observation", "reward", "terminated", "truncated", "info")
    """The names of :meth:`values`, for messages."""

    def values(self) -> tuple[Any, ...]:
        """The compared parts: observation, reward, flags and info (copies taken at return time)."""
        return (self.obs_copy, self.reward, self.terminated, self.truncated, self.info_copy)

    def kept(self) -> Record:
        """This record without the objects as returned (what a rollout keeps)."""
        # Built directly: dataclasses.replace costs as much again as the record, on every step of every rollout.
        return Record(self.index, self.kind, self.action, self.obs_copy, self.obs_copy, self.reward, self.terminated,
                      self.truncated, self.info_copy, self.info_copy)

    def where(self) -> str:
        """``"reset at position 0"``/``"step at position k"``, for messages (they say "the {where}")."""
        return f"{self.kind} at position {self.index}"


def unpack_reset(result: Any) -> tuple[Any, Any]:
    """Split a reset result, or stop as not checkable when it is not a 2-tuple (ENV-005 reports that)."""
    if not is_tuple(result) or len(result) != 2:
        raise NotCheckable(f"reset returned {summarize(result)}, not a 2-tuple (reported by ENV-005)")
    return result[0], result[1]


def unpack_step(result: Any) -> tuple[Any, Any, Any, Any, Any]:
    """Split a step result, or stop as not checkable when it is not a 5-tuple (ENV-008 reports that)."""
    if not is_tuple(result) or len(result) != 5:
        raise NotCheckable(f"step returned {summarize(result)}, not a 5-tuple (reported by ENV-008)")
    return result[0], result[1], result[2], result[3], result[4]


def ended(terminated: Any, truncated: Any) -> bool:
    """Whether an episode ended (malformed flags that cannot be read as truth values count as "no")."""
    try:
        return bool(terminated) or bool(truncated)
    except Exception:  # noqa: BLE001 - flag-type rules report malformed flags
        return False


def drive(env: Handle, actions: Sequence[Any], taken: int) -> None:
    """After a rollout took its ``taken``-th action: when that was the plan's last one and its item is still under
    its floor (episode ends it has not seen), append one more action of the plan's stream, so the rollout goes on
    (:meth:`~conformance._engine.evidence.Tally.wants_more` decides, up to the episode cap)."""
    tally = env.tally
    if taken == len(actions) and isinstance(actions, Actions) and tally is not None and tally.wants_more(taken):
        actions.more()


_REPLACEMENTS = 8  # actions tried in place of one the env rejects, before its rejection ends the rollout


def _step(env: Handle, actions: Sequence[Any], index: int) -> tuple[Any, Any]:
    """``env.step(actions[index])``, and the action it took. An action the env rejects (``step`` raises on an
    element of its action space: ENV-016's finding) is passed over when the item's rule does not own ``step`` and the
    actions are a plan's: the handle's ``on_rejected`` is told, the reproducer makes the call inside ``try``, and
    another action of the plan's stream takes its place (in the list every instance of the example shares), so the
    other rules are checked with the actions the env accepts."""
    tries = 0
    while True:
        action = actions[index]
        try:
            return env.step(action), action
        except TargetError as error:
            rejected = env.on_rejected
            if error.method != "step" or rejected is None or not isinstance(actions, Actions) \
                    or tries >= _REPLACEMENTS:
                raise
            tries += 1
            env.passed_over(f"the env rejects this action (ENV-016): {describe_exception(error.error)}")
            rejected(error)
            actions.replace(index, tries)


ResultHook = Callable[[int, str, Any], None]
RecordHook = Callable[[Record], None]


def run(
    env: Handle,
    seed: int | None,
    actions: Sequence[Any],
    *,
    on_result: ResultHook | None = None,
    on_record: RecordHook | None = None,
    between: Callable[[int], None] | None = None,
    reset_kwargs: dict[str, Any] | None = None,
    max_episodes: int | None = None,
) -> list[Record]:
    """Reset with ``seed`` and step through ``actions``, resetting unseeded after each episode end.

    Args:
        env: The env (a handle, so every call is recorded and timed).
        seed: The seed of the first reset (``None``: an unseeded first reset).
        actions: The actions, in order.
        on_result: Called with ``(index, kind, raw result)`` before unpacking.
        on_record: Called with each unpacked :class:`Record`.
        between: Called with the position before each step (e.g. to render or sample in between).
        reset_kwargs: Extra keyword arguments of the first reset.
        max_episodes: Stop (without resetting) once this many episodes have ended.

    Returns:
        The records, the first reset included.
    """
    records: list[Record] = []
    freeze = Freezer()

    def reset(index: int, **kwargs: Any) -> None:
        result = env.reset(**kwargs)
        if on_result is not None:
            on_result(index, "reset", result)
        obs, info = unpack_reset(result)
        record = Record(index, "reset", None, obs, freeze(obs), None, None, None, info, freeze(info))
        if on_record is not None:
            on_record(record)
        records.append(record.kept())

    first = dict(reset_kwargs or {})
    if seed is not None:
        first["seed"] = seed
    reset(0, **first)
    position, episodes, taken = 1, 0, 0
    while taken < len(actions):
        if between is not None:
            between(position)
        result, action = _step(env, actions, taken)
        if on_result is not None:
            on_result(position, "step", result)
        obs, reward, terminated, truncated, info = unpack_step(result)
        record = Record(
            position, "step", action, obs, freeze(obs), snapshot(reward), terminated, truncated, info, freeze(info)
        )
        if on_record is not None:
            on_record(record)
        records.append(record.kept())
        position += 1
        taken += 1
        if ended(terminated, truncated):
            episodes += 1
            if max_episodes is not None and episodes >= max_episodes:
                break
            reset(position)
            position += 1
        drive(env, actions, taken)
    return records


class Comparable(Protocol):
    """A record of a single or vector rollout, as :func:`first_difference` compares them."""

    FIELDS: ClassVar[tuple[str, ...]]

    @property
    def kind(self) -> str:
        """``"reset"``, ``"step"``..."""
        ...

    def values(self) -> tuple[Any, ...]:
        """The compared parts, in the order of ``FIELDS``."""
        ...


_FLAGS = frozenset({"terminated", "truncated"})
"""A single env's flags: ``bool`` and ``numpy.bool_`` are the same flag to every rule (ENV-013, ENV-014)."""


def _difference(name: str, u: Any, v: Any) -> str | None:
    """How two parts of a result differ, exactly (types included) except where the rules take two types as one:
    a flag that is ``True`` in one result and ``np.True_`` in the other is the same flag."""
    if name in _FLAGS and is_bool(u) and is_bool(v):
        return None if bool(u) == bool(v) else f"{name}: {bool(u)!r} != {bool(v)!r}"
    return difference(u, v, name)


def first_difference(a: Sequence[Comparable], b: Sequence[Comparable]) -> tuple[int, str] | None:
    """The first position where two rollouts (single or vector) differ, and how (``None`` when identical, or when
    they differ only in types the rules accept as one, see :func:`_difference`)."""
    for index, (x, y) in enumerate(zip(a, b)):
        if x.kind != y.kind:
            return index, f"{x.kind} != {y.kind}"
        for name, u, v in zip(x.FIELDS, x.values(), y.values()):
            found = _difference(name, u, v)
            if found is not None:
                return index, found
    if len(a) != len(b):
        return min(len(a), len(b)), f"rollout length {len(a)} != {len(b)}"
    return None
