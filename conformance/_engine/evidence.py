"""What an item observed, counted as its calls return (:class:`Tally`), and the least a rule needs to be judged
(:class:`Floor`): a pass is evidence, and a rule that observed too little never passes.

Every call a check makes through a :class:`~conformance._engine.handles.Handle` is counted into the item's tally when
it returns: steps, episode ends (terminated, truncated, both), seeded and unseeded resets, each sub-env's autoresets
and the steps after them, frames per render mode, constructions, instances interleaved in one example. The check
adds what only it can say it judged (:meth:`Tally.judged`: "episodes at the declared limit"). The item's record
carries the result (:class:`conformance.results.Evidence`), so "passed" always says on what.

Each rule declares its floor beside its check (``@checks("ENV-024", floor=Floor(...))``; docs/writing-checks.md
lists them all). An item that ends without a violation but under its floor is *not checked*, an error naming what it
saw and what it needed (:func:`shortfall`), never a pass. Where the floor is about episode ends and the rollouts ran
to the episode cap without them (episodes that do not end, or never terminate), the item is *not observed*: a skip
that says so, since that is no defect of the env and no pass either.

A rollout whose plan is spent while its item is still under its floor goes on (:meth:`Tally.wants_more`), with
actions from the plan's sampler, until the floor is met, the episode cap is reached or the item's time is spent.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from conformance._engine.describe import is_mapping, is_tuple
from conformance.results import Evidence

__all__ = ["EPISODE_CAPS", "REJECTED", "Floor", "Tally", "episode_cap", "shortfall", "strongest"]

REJECTED = "rejected actions passed over"
"""The judged count of actions the env rejected that rollouts passed over (ENV-016 reports them)."""


@dataclass(frozen=True)
class Floor:
    """The least evidence a rule's statement needs to be judged (each count as :class:`~conformance.results.Evidence`
    names it). ``Floor()`` needs nothing: a rule about fixed facts of the target (its spaces, its metadata).

    Attributes:
        steps: ``step`` calls.
        ends: Episode ends (a vector env's: sub-env ends).
        terminated: Episode ends with ``terminated`` true.
        seeded_resets: Resets given a seed.
        unseeded_resets: Resets without one.
        autoresets: Sub-env episode ends a later step went past.
        autoreset_envs: Distinct sub-envs seen past such an end.
        after_autoreset: Sub-env steps after their first autoreset.
        renders: Frames (every mode).
        renders_after_step: Frames drawn after the episode had taken a step.
        constructions: Instances constructed.
        instances: Instances interleaved within one example.
        processes: Processes the observations came from beyond the item's own.
        examples: Examples.
        judged: What the check counts itself (:meth:`Tally.judged`), by name.
        otherwise: Another floor that serves as well (``Floor(steps=30) | Floor(ends=2)``: a rule about first
            episodes has seen enough in 30 steps of them, or in two that ended sooner).
    """

    steps: int = 0
    ends: int = 0
    terminated: int = 0
    seeded_resets: int = 0
    unseeded_resets: int = 0
    autoresets: int = 0
    autoreset_envs: int = 0
    after_autoreset: int = 0
    renders: int = 0
    renders_after_step: int = 0
    constructions: int = 0
    instances: int = 0
    processes: int = 0
    examples: int = 0
    judged: Mapping[str, int] = field(default_factory=dict[str, int])
    otherwise: Floor | None = None

    def __post_init__(self) -> None:
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            if item.name not in ("judged", "otherwise") and (not isinstance(value, int) or value < 0):
                raise ValueError(f"Floor {item.name} must be a non-negative int, got {value!r}")
        if any(not isinstance(count, int) or count < 0 for count in self.judged.values()):
            raise ValueError(f"Floor judged must map names to non-negative ints, got {dict(self.judged)!r}")

    def __or__(self, other: Floor) -> Floor:
        """A floor met by this one's counts or by ``other``'s."""
        if self.otherwise is None:
            return dataclasses.replace(self, otherwise=other)
        return dataclasses.replace(self, otherwise=self.otherwise | other)

    def needs(self) -> list[tuple[str, int]]:
        """The counts it asks for, ``(name, least)``, in declaration order (zero counts left out)."""
        found = [(item.name, int(getattr(self, item.name))) for item in dataclasses.fields(self)
                 if item.name not in ("judged", "otherwise")]
        return [(name, needed) for name, needed in [*found, *sorted(self.judged.items())] if needed]

    def missing(self, evidence: Evidence) -> list[tuple[str, int, int]]:
        """What ``evidence`` lacks: ``(name, seen, needed)`` for each count under this floor (nothing when it, or
        an alternative floor, is met)."""
        lacking = [(name, evidence.count(name), needed) for name, needed in self.needs() if evidence.count(name) < needed]
        if lacking and self.otherwise is not None and not self.otherwise.missing(evidence):
            return []
        return lacking

    @property
    def episodic(self) -> bool:
        """Whether it asks for events only episodes that end can give (ends, terminations, autoresets), or for
        what the check judges at such events (its ``judged`` counts): rollouts are driven to them, up to the
        episode cap."""
        return bool(self.ends or self.terminated or self.autoresets or self.autoreset_envs or self.after_autoreset
                    or self.judged or (self.otherwise is not None and self.otherwise.episodic))

    def describe(self) -> str:
        """``"30 steps, 3 episode ends"``, ``"30 steps, or 2 episode ends"``; ``"nothing"`` for an empty floor."""
        text = ", ".join(f"{needed} {_words(name, needed)}" for name, needed in self.needs()) or "nothing"
        return text if self.otherwise is None else f"{text}, or {self.otherwise.describe()}"


def strongest(floors: Iterable[Floor]) -> Floor:
    """One floor that asks for what each of ``floors`` asks for (each count the largest; their alternatives left
    out): what a run shared by several rules is driven to."""
    chosen = list(floors)
    judged: dict[str, int] = {}
    for floor in chosen:
        for name, needed in floor.judged.items():
            judged[name] = max(judged.get(name, 0), needed)

    def most(name: str) -> int:
        return max((int(getattr(floor, name)) for floor in chosen), default=0)

    return Floor(
        steps=most("steps"), ends=most("ends"), terminated=most("terminated"), seeded_resets=most("seeded_resets"),
        unseeded_resets=most("unseeded_resets"), autoresets=most("autoresets"), autoreset_envs=most("autoreset_envs"),
        after_autoreset=most("after_autoreset"), renders=most("renders"), renders_after_step=most("renders_after_step"),
        constructions=most("constructions"), instances=most("instances"), processes=most("processes"),
        examples=most("examples"), judged=judged,
    )


_WORDS = {
    "steps": ("step", "steps"),
    "ends": ("episode end", "episode ends"),
    "terminated": ("terminated episode end", "terminated episode ends"),
    "seeded_resets": ("seeded reset", "seeded resets"),
    "unseeded_resets": ("unseeded reset", "unseeded resets"),
    "autoresets": ("autoreset", "autoresets"),
    "autoreset_envs": ("sub-env past an autoreset", "sub-envs past an autoreset"),
    "after_autoreset": ("sub-env step after an autoreset", "sub-env steps after an autoreset"),
    "renders": ("frame", "frames"),
    "renders_after_step": ("frame after a step", "frames after a step"),
    "constructions": ("construction", "constructions"),
    "instances": ("instance interleaved", "instances interleaved"),
    "processes": ("other process", "other processes"),
    "examples": ("example", "examples"),
}


def _words(name: str, count: int) -> str:
    one, many = _WORDS.get(name, (name, name))
    return one if count == 1 else many


EPISODE_CAPS: dict[str, int] = {"quick": 1000, "default": 3000, "thorough": 20000}
"""Steps a rollout may run for an episode-end floor when the target declares no step limit, per profile: an env
whose episodes do not end within this many steps is *not observed* on such a rule."""
_CAP_LIMITS = 2  # with a declared limit L, a floor of N ends may take (N + _CAP_LIMITS) * L steps


def episode_cap(floor: Floor, limit: int | None, profile: str) -> int:
    """How many steps one rollout may run to meet ``floor`` (``limit``: the target's declared
    ``spec.max_episode_steps``): several times the declared limit, or the profile's fixed cap without one."""
    fixed = EPISODE_CAPS.get(profile, EPISODE_CAPS["default"])
    if limit is None or limit <= 0:
        return fixed
    wanted = max(1, floor.ends, floor.terminated, floor.autoresets, floor.autoreset_envs)
    return (wanted + _CAP_LIMITS) * limit


@dataclass
class _Instance:
    """What the tally remembers of one instance between its calls."""

    stepped: bool = False  # a step since the last reset (a frame drawn now is a frame after a step)
    run: int = 0  # steps into the current episode (a single env's)
    runs: Any = None  # a vector env's: each sub-env's steps into its current episode
    ended: Any = None  # a vector env's: which sub-envs ended on its last step
    past: set[int] = field(default_factory=set[int])  # a vector env's: sub-envs seen past an autoreset


def passed_over_note(rule_id: str, evidence: Evidence, rejected: list[str]) -> str:
    """The line a pass adds when its rollouts passed over actions the env rejects (ENV-016 reports them): how many
    steps, and which actions when the item saw them itself (an item run in another process brings back the count
    only). Empty when it passed over none."""
    count = evidence.judged.get(REJECTED, 0)
    if not count:
        return ""
    named = (": " + "; ".join(rejected[:3]) + ("; ..." if len(rejected) > 3 else "")) if rejected else ""
    return (f"{rule_id} checked with the actions the env accepts; it passed over {count} step(s) with an action "
            f"it rejects (reported by ENV-016){named}")


@dataclass
class Tally:
    """The counts of one item, updated as its calls return (a :class:`~conformance._engine.case.Case` holds one).

    Attributes:
        floor: The item's floor (what a rollout is driven to).
        cap: Steps one rollout may run to meet an episodic floor (:func:`episode_cap`; 0 before it is known).
        seconds: Seconds of target time the item may spend driving rollouts past their plans.
        also: Floors a rollout is driven to besides ``floor`` (a shared run's observers', each with its own
            alternatives: met when every one is).
    """

    floor: Floor = field(default_factory=Floor)
    also: tuple[Floor, ...] = ()
    cap: int = 0
    seconds: float = 0.0
    examples: int = 0
    constructions: int = 0
    instances: int = 0
    processes: int = 0
    steps: int = 0
    ends: int = 0
    terminated: int = 0
    truncated: int = 0
    both: int = 0
    longest: int = 0
    seeded_resets: int = 0
    unseeded_resets: int = 0
    autoresets: int = 0
    after_autoreset: int = 0
    renders_after_step: int = 0
    target_seconds: float = 0.0
    """Seconds the target's calls took (constructions, resets, steps, renders, closes)."""
    capped: bool = False
    """Whether a rollout ran to the episode cap still under the floor (its episodes do not end, or not that way)."""
    out_of_time: bool = False
    """Whether a rollout stopped short of the floor because the item's time was spent."""
    rejected: list[str] = field(default_factory=list[str])
    """The actions the env rejected that rollouts passed over (:meth:`passed_over`), described."""
    exhausted: list[str] = field(default_factory=list[str])
    """Why rollouts that ran as far as they could gave no event of the kind the floor asks for (its episodes ended
    another way), as the check said (:meth:`exhaust`)."""
    renders: dict[str, int] = field(default_factory=dict[str, int])
    judged_counts: dict[str, int] = field(default_factory=dict[str, int])
    _sub_envs: set[int] = field(default_factory=set[int])
    _live: dict[int, _Instance] = field(default_factory=dict[int, _Instance])
    _called: set[int] = field(default_factory=set[int])
    _begun: float = field(default_factory=time.monotonic)

    # --- what the check and the case tell it ---------------------------------------------------------------------

    def new_example(self) -> None:
        """An example starts: its instances are new ones."""
        self.examples += 1
        self._live.clear()
        self._called.clear()

    def constructed(self) -> None:
        """An instance of the target was constructed (or read from the probe)."""
        self.constructions += 1

    def judged(self, name: str, count: int = 1) -> None:
        """The check judged ``count`` more of what ``name`` counts (a floor's ``judged`` entry)."""
        self.judged_counts[name] = self.judged_counts.get(name, 0) + count

    def exhaust(self, why: str) -> None:
        """A rollout ran as far as it could without the event the floor asks for, because ``why`` ("the episode
        ended truncated, not terminated"): if the item ends under its floor, it was not observed (a skip), not
        unchecked."""
        if why not in self.exhausted:
            self.exhausted.append(why)

    def passed_over(self, action: str) -> None:
        """A rollout passed over an action the env rejects (``action`` says which and how), stepping on with
        another: counted as judged, and named in the item's record."""
        self.judged(REJECTED)
        if action not in self.rejected:
            self.rejected.append(action)

    def another_process(self, count: int = 1) -> None:
        """Observations came from ``count`` more processes than the item's own."""
        self.processes += count

    def evidence(self) -> Evidence:
        """The counts so far, as the item's record carries them."""
        return Evidence(
            examples=self.examples, constructions=self.constructions, instances=self.instances,
            processes=self.processes, steps=self.steps, ends=self.ends, terminated=self.terminated,
            truncated=self.truncated, both=self.both, longest=self.longest, seeded_resets=self.seeded_resets,
            unseeded_resets=self.unseeded_resets, autoresets=self.autoresets, autoreset_envs=len(self._sub_envs),
            after_autoreset=self.after_autoreset, renders=dict(sorted(self.renders.items())),
            renders_after_step=self.renders_after_step, judged=dict(sorted(self.judged_counts.items())),
        )

    # --- driving rollouts ----------------------------------------------------------------------------------------

    def wants_more(self, rollout_steps: int) -> bool:
        """Whether a rollout that has taken ``rollout_steps`` steps and spent its plan should go on: the item is
        under its episodic floor, the rollout is under the episode cap and the item has time left. Reaching the cap
        marks the tally :attr:`capped` (later rollouts are not driven again), running out of time
        :attr:`out_of_time`."""
        floors = (self.floor, *self.also)
        if not any(floor.episodic for floor in floors) or self.capped or self.out_of_time or self.cap <= 0:
            return False
        evidence = self.evidence()
        if not any(floor.missing(evidence) for floor in floors):
            return False
        if rollout_steps >= self.cap:
            self.capped = True
            return False
        if self.seconds and self.target_seconds >= self.seconds:
            self.out_of_time = True
            return False
        return True

    # --- what the calls returned ---------------------------------------------------------------------------------

    def returned(self, handle: object, method: str, kwargs: Mapping[str, Any], result: Any, mode: str, *,
                 instance: bool, seconds: float) -> None:
        """Count a call on ``handle`` that returned ``result`` after ``seconds`` (``instance``: the handle is one of
        the target's instances, not a layer or a space)."""
        self.target_seconds += seconds
        key = id(handle)
        state = self._live.get(key)
        if state is None:  # not setdefault: that builds an _Instance for every call
            state = self._live[key] = _Instance()
        if instance and key not in self._called:
            self._called.add(key)
            self.instances = max(self.instances, len(self._called))
        try:
            if method == "reset":
                self._reset(state, kwargs)
            elif method in ("step", "transition"):
                self._step(state, result, method)
            elif method in ("render", "render_image"):  # a functional env's frames are its render_image's
                mode = mode or ("rgb_array" if method == "render_image" else "")
                self.renders[mode] = self.renders.get(mode, 0) + 1
                self.renders_after_step += state.stepped
            elif method == "terminal":
                self._ended(state, result)
        except Exception:  # noqa: BLE001, S110 - a malformed result counts as a call only; the rules report it
            pass

    def _reset(self, state: _Instance, kwargs: Mapping[str, Any]) -> None:
        seed = kwargs.get("seed")
        options = kwargs.get("options")
        mask = options.get("reset_mask") if is_mapping(options) else None
        if _seeded(seed):
            self.seeded_resets += 1
        else:
            self.unseeded_resets += 1
        if mask is not None and state.ended is not None:
            chosen = np.asarray(mask, dtype=bool).reshape(-1)
            if chosen.shape == state.ended.shape:
                # A partial reset of sub-envs that ended: the caller's autoreset ("Disabled").
                self._autoreset(state, np.flatnonzero(chosen & state.ended))
                state.ended = state.ended & ~chosen
                state.runs[chosen] = 0
            return
        state.stepped, state.run, state.runs, state.ended = False, 0, None, None

    def _step(self, state: _Instance, result: Any, method: str) -> None:
        self.steps += 1
        state.stepped = True
        if method != "step" or not is_tuple(result) or len(result) != 5:
            return
        flags: tuple[Any, Any] = (result[2], result[3])
        if _plain(flags[0]) and _plain(flags[1]):  # a single env's usual flags: no array to build
            self._single(state, bool(flags[0]), bool(flags[1]))
            return
        terminated: Any = np.asarray(flags[0])
        truncated: Any = np.asarray(flags[1])
        if terminated.ndim == 0 and truncated.ndim == 0:
            self._single(state, bool(terminated), bool(truncated))
            return
        terms = terminated.astype(bool).reshape(-1)
        truncs = truncated.astype(bool).reshape(-1)
        if terms.shape != truncs.shape:
            return
        if state.ended is not None and state.ended.shape == terms.shape:
            self._autoreset(state, np.flatnonzero(state.ended))
        self.after_autoreset += len(state.past)
        runs = state.runs if state.runs is not None and state.runs.shape == terms.shape else np.zeros(terms.shape, int)
        runs = runs + 1
        self.longest = max(self.longest, int(runs.max(initial=0)))
        ended = terms | truncs
        for index in np.flatnonzero(ended):
            self._end(bool(terms[index]), bool(truncs[index]))
        runs[ended] = 0
        state.runs, state.ended = runs, ended

    def _single(self, state: _Instance, done_t: bool, done_u: bool) -> None:
        """A single env's step that returned these flags."""
        state.run += 1
        self.longest = max(self.longest, state.run)
        if done_t or done_u:
            self._end(done_t, done_u)
            state.run = 0

    def _ended(self, state: _Instance, result: Any) -> None:
        """A functional env's ``terminal``: true ends the episode its state is in."""
        flags = np.asarray(result, dtype=bool).reshape(-1)
        for _ in range(int(flags.sum())):
            self._end(True, False)
        del state

    def _end(self, terminated: bool, truncated: bool) -> None:
        self.ends += 1
        self.terminated += terminated
        self.truncated += truncated
        self.both += terminated and truncated

    def _autoreset(self, state: _Instance, indices: Any) -> None:
        for index in indices:
            self.autoresets += 1
            state.past.add(int(index))
            self._sub_envs.add(int(index))


def _plain(flag: object) -> bool:
    """Whether a flag is a Python ``bool`` (what most single envs return), which needs no array to be read."""
    return type(flag) is bool


def _seeded(seed: object) -> bool:
    if isinstance(seed, bool):
        return False
    if isinstance(seed, int):
        return True
    if isinstance(seed, (list, tuple)):
        return any(isinstance(item, int) and not isinstance(item, bool) for item in seed)  # pyright: ignore[reportUnknownVariableType]
    return type(seed).__name__ in ("int64", "int32", "uint32", "uint64")


def shortfall(rule_id: str, target: str, floor: Floor, tally: Tally) -> tuple[str, bool] | None:
    """Why an item that found nothing did not pass: ``(message, observed)``, ``observed`` false when its episodes
    did not give the events its floor asks for within the cap (*not observed*: a skip) and true when it had too
    little time or too few examples (*not checked*: an error); ``None`` when it met its floor."""
    evidence = tally.evidence()
    missing = floor.missing(evidence)
    if not missing:
        return None
    seen = "; ".join(f"observed {found} of {needed} {_words(name, needed)}" for name, found, needed in missing)
    other = floor.otherwise
    while other is not None:
        # An alternative floor the item could have met instead: what it lacked there too.
        lacked = [(name, found, needed) for name, found, needed in dataclasses.replace(other, otherwise=None).missing(
            evidence)]
        seen += " (or " + ", ".join(f"{found} of {needed} {_words(name, needed)}" for name, found, needed in lacked) + ")"
        other = other.otherwise
    if floor.episodic and (tally.capped or tally.exhausted):
        ending = ("no episode ended" if evidence.ends == 0 else f"{evidence.ends} episode "
                  f"end{'s' if evidence.ends != 1 else ''} ({evidence.terminated} terminated, {evidence.truncated} "
                  "truncated)")
        ran = [f"a rollout ran to the episode cap of {tally.cap} steps"] if tally.capped else []
        ran += tally.exhausted
        return (f"{rule_id} not observed on {target}: {seen}: {'; '.join(ran)}; it saw {ending}. The rule is about "
                f"such episodes, so it was neither violated nor passed (saw {evidence.describe()}). An env whose "
                "episodes reach them later: run with --conformance-profile thorough (a larger cap)", False)
    cost = ""
    if evidence.steps and tally.target_seconds:
        cost = f"; the target's calls took {tally.target_seconds:.1f} s ({tally.target_seconds / max(1, evidence.steps) * 1e3:.1f} ms a step)"
    why = " (the item's time was spent)" if tally.out_of_time else ""
    return (f"{rule_id} not checked on {target}: {seen}{why}{cost} (saw {evidence.describe()}); raise "
            "--conformance-budget or use --conformance-profile thorough", True)
