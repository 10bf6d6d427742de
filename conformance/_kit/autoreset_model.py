"""A model of a vector env's declared autoreset mode, built from single-env semantics.

:class:`VectorModel` follows a vector env call by call and says where its results disagree with the mode:

* *structurally*, always: under ``"NextStep"`` a sub-env that ended on the previous step reports reward 0 and both
  flags false; under ``"SameStep"`` ``final_obs``/``final_info`` are masked exactly for the sub-envs that ended;
  a partial reset leaves the observations of the sub-envs it does not select untouched and adds no info for them.
  No structural check concludes a defect from two values being *equal*: a ``final_obs`` equal to the observation the
  step returned is what an env does whose next episode starts where the last one ended (or, by chance, a card game
  dealt the same hand twice), so only a single env says what the terminal observation was;
* *exactly*, when one single env per sub-env is available (made from the target's own sub-env factories): each
  sub-env's observation, reward, flags and info must equal what its single env returns when driven alone by the
  mode's rules. A sub-env is predicted exactly only after a seeded reset has put both in the same state; after a
  disagreement it is no longer predicted exactly (its state is unknown), while structural checks go on;
* *exactly, by copies*, for a vector env written directly: the single envs are the target's own ``num_envs=1``
  constructions (:mod:`conformance._kit.own_model`, which states the assumptions). They become a model only once a
  seeded reset shows the target seeds its sub-envs as copies (``s + i``), and a disagreement that a generator shared
  by the sub-envs could explain is reported under VEC-023 (a SHOULD), not under an AUTORESET rule.

Each :class:`Problem` names the rules it violates, so rule-specific tests pick theirs and the stateful test
(AUTORESET-012) reports any; its :class:`Claim` is what a reproducer asserts about it, over what the disagreeing call
returned (the prediction written out as a literal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from conformance._engine.describe import is_array, is_integer, is_mapping, summarize
from conformance._engine.handles import Handle, TargetError
from conformance._engine.record import snapshot, source
from conformance._kit.batching import SplitError, row_source, split, sub_info
from conformance._kit.own_model import OwnCopies
from conformance._kit.rollout import unpack_reset as unpack_single_reset
from conformance._kit.rollout import unpack_step as unpack_single_step
from conformance._kit.vector_rollout import ended_flags
from conformance.equality import value_difference
from gymspec import AutoresetMode

__all__ = ["LATEST", "Claim", "Problem", "VectorModel", "seeds_for"]

GENERIC = "AUTORESET-012"
OWN = "VEC-023"
"""The rule of a disagreement with a copy (:mod:`conformance._kit.own_model`) that a shared generator could explain."""
# Steps a sub-env must agree with its copy on before it counts as drawing its own randomness.
_PROOF = 2
# The AUTORESET rules whose disagreements with a copy are kept once the sub-env is proven to draw its own randomness.
_CROSS_TALK = ("AUTORESET-002", "AUTORESET-004", "AUTORESET-005", "AUTORESET-009")
_FINAL_KEYS = ("final_obs", "final_info")
LATEST = "latest"
"""The name a reproducer gives what the disagreeing call returned (a claim reads it)."""
_SUB_INFO = "from conformance._kit.batching import sub_info"


@dataclass(frozen=True)
class Claim:
    """What a reproducer asserts about a disagreement, as source reading :data:`LATEST` (what the disagreeing call
    of ``env``, the vector env, returned) and ``env``.

    Attributes:
        kind: ``"equal"`` (``left`` equals ``right``, values compared as :func:`~conformance.equality.value_difference`
            does), ``"unequal"``, or ``"true"`` (``left`` is a condition, ``right`` the expression the message shows).
        left: What the target returned (or the condition).
        right: What the model predicts, as a literal (or the expression shown).
        problem: What differs, for the assertion's message.
        imports: Import lines the expressions need.
    """

    kind: str
    left: str
    right: str
    problem: str
    imports: tuple[str, ...] = ()


@dataclass(frozen=True)
class Problem:
    """One disagreement between the target and the model.

    Attributes:
        rules: The rules it violates (the first is the most specific).
        where: The call and sub-env, e.g. ``"step at position 4, sub-env 1"``.
        what: What disagrees.
        expected: What the model predicts.
        actual: What the target returned.
        claim: What a reproducer asserts about it (``None``: the prediction is no literal).
    """

    rules: tuple[str, ...]
    where: str
    what: str
    expected: str
    actual: str
    claim: Claim | None = None


def _equal(actual: str, expected: Any, problem: str) -> Claim | None:
    """The claim that what the target returned (``actual``, source) equals the prediction ``expected``."""
    literal = source(expected)
    if "not_literal(" in literal:
        return None
    return Claim("equal", actual, literal, problem, (_SUB_INFO,) if "sub_info(" in actual else ())


def _flag(index: int, i: int) -> str:
    return f"bool(np.asarray({LATEST}[{index}]).reshape(-1)[{i}])"


def seeds_for(seed: Any, n: int) -> list[Any]:
    """The per-sub-env seeds a vector ``reset(seed=...)`` stands for (VEC-006, VEC-007)."""
    if seed is None:
        return [None] * n
    if isinstance(seed, int) or is_integer(seed):
        return [int(seed) + i for i in range(n)]
    return list(seed)


class VectorModel:
    """Predicts, call by call, what a vector env in ``mode`` returns.

    Args:
        mode: The declared autoreset mode.
        n: ``num_envs``.
        single_obs: The single observation space.
        subs: One single env per sub-env (handles; :class:`~conformance._kit.own_model.OwnCopies` for a vector env
            written directly), or ``None`` for structural predictions only.
    """

    def __init__(self, mode: AutoresetMode, n: int, single_obs: Any, subs: Sequence[Handle] | None) -> None:
        self.mode = mode
        self.n = n
        self.single_obs = single_obs
        self.subs = subs if isinstance(subs, OwnCopies) or subs is None else list(subs)
        self.own = subs if isinstance(subs, OwnCopies) else None
        self.established = False
        """Copies only: a seeded reset showed that the target seeds its sub-envs as copies (``s + i``)."""
        self.proven = [0] * n
        """Copies only: how many steps of the sub-env agreed with its copy's; from :data:`_PROOF` on, it is taken
        to draw its own randomness (one is not enough: the first sub-env of a shared stream agrees on its first
        draw)."""
        self.ever_exact = False
        """Whether any sub-env was ever predicted exactly."""
        self.ended = [False] * n
        self.synced = [False] * n
        self.after_partial = [False] * n
        self.last_obs: list[Any] = [None] * n
        self._info = f"{LATEST}[1]"
        """Source of the info the call being followed returned (``[1]`` of a reset, ``[4]`` of a step)."""

    @property
    def exact(self) -> bool:
        """Whether any sub-env is predicted exactly."""
        return any(self.synced)

    def why_not_exact(self) -> str:
        """Why no sub-env was ever predicted exactly (for a not-checkable verdict)."""
        if self.own is not None:
            refused = self.own.refused
            if refused is not None:
                return (f"the target exposes no sub-env factories (env_fns), and its own num_envs=1 copies are no model "
                        f"of its sub-envs: {refused}")
            return ("the target exposes no sub-env factories (env_fns), and no seeded reset showed that its sub-envs "
                    "are seeded as its own num_envs=1 copies (s + i) with a random start, so their states are unknown")
        return "no seeded reset put the model's single envs in the sub-envs' states"

    def _rules(self, i: int, rules: tuple[str, ...], drawn: bool = False) -> tuple[str, ...]:
        """The rules a disagreement of sub-env ``i`` violates: ``rules`` for single envs from ``env_fns``; for
        copies, VEC-023 unless the sub-env is proven to draw its own randomness and ``rules`` name cross-talk."""
        if self.own is None:
            return rules
        if not drawn and self.proven[i] >= _PROOF and any(rule in _CROSS_TALK for rule in rules):
            return rules
        return (OWN,)

    # --- helpers -------------------------------------------------------------------------------------------------

    def _row(self, i: int) -> str:
        """Source of sub-env ``i``'s observation in what the call being followed returned."""
        return row_source(self.single_obs, f"{LATEST}[0]", i)

    def _rows(self, obs: Any, where: str) -> list[Any] | None:
        try:
            return split(self.single_obs, obs, self.n, "observations")
        except SplitError:
            return None  # VEC-011 reports observations outside the batched space

    def _single(self, i: int, method: str, *args: Any, **kwargs: Any) -> Any:
        """Call the model's sub-env ``i``; on failure stop predicting it exactly."""
        if self.subs is None:
            return None
        try:
            return self.subs[i].call(method, *args, record=False, **kwargs)
        except TargetError:
            self.synced[i] = False
            return None

    def _compare(
        self, problems: list[Problem], rules: tuple[str, ...], where: str, name: str, expected: Any,
        actual: tuple[Any, str],
    ) -> bool:
        """Whether ``actual`` (the value and its source) equals ``expected``; else a problem."""
        found = value_difference(actual[0], expected, name)
        if found is None:
            return True
        whom = ("its own num_envs=1 copy, seeded as the target seeds its sub-envs," if self.own is not None
                 else "the single env driven alone")
        alone = f"{whom} gives another value"
        claim = _equal(actual[1], expected, f"{where}: {name} is not what {whom} returns")
        problems.append(Problem(rules, where, f"{found} ({alone})", summarize(expected), summarize(actual[0]),
                                claim))
        return False

    def _exact_reset(self, problems: list[Problem], i: int, rules: tuple[str, ...], where: str, row: Any,
                     info: Any, seed: Any = None) -> None:
        result = self._single(i, "reset", **({} if seed is None else {"seed": seed}))
        if result is None:
            return
        rules = self._rules(i, rules, drawn=True)
        obs, single_info = unpack_single_reset(result)
        ok = self._compare(problems, rules, where, "observation", obs, (row, self._row(i)))
        reported = sub_info(info, i, exclude=self._hidden())
        shown = f"sub_info({self._info}, {i}, exclude={self._hidden()!r})"
        ok = ok and self._compare(problems, rules, where, "info", single_info, (reported, shown))
        self.synced[i] = ok
        if self.own is None:
            self.ever_exact = self.ever_exact or ok

    def _hidden(self) -> tuple[str, ...]:
        return _FINAL_KEYS if self.mode is AutoresetMode.SAME_STEP else ()

    # --- the calls -----------------------------------------------------------------------------------------------

    def reset(self, seed: Any, obs: Any, info: Any, where: str) -> list[Problem]:
        """Follow ``reset(seed=seed)`` (no mask), which returned ``(obs, info)``."""
        self._info = f"{LATEST}[1]"
        problems: list[Problem] = []
        seeds = seeds_for(seed, self.n)
        rows = self._rows(obs, where)
        if self.own is not None and rows is not None:
            return self._own_reset(problems, seeds, rows, info, where)
        for i in range(self.n):
            self.ended[i] = self.after_partial[i] = False
            if self.subs is not None and (self.synced[i] or seeds[i] is not None) and rows is not None:
                self.synced[i] = True
                self._exact_reset(problems, i, ("VEC-009", GENERIC), f"{where}, sub-env {i}", rows[i], info,
                                  seeds[i])
            else:
                self.synced[i] = False  # unseeded (the sub-envs' generators are unknown) or unreadable
            if rows is not None:
                self.last_obs[i] = snapshot(rows[i])
        return problems

    def _own_reset(self, problems: list[Problem], seeds: list[Any], rows: list[Any], info: Any,
                   where: str) -> list[Problem]:
        """A full reset followed by copies: a seeded one (re)establishes the seeding convention, an unseeded one
        continues the copies that were in step."""
        seeded = all(seed is not None for seed in seeds)
        in_step = list(self.synced)
        for i in range(self.n):
            self.ended[i] = self.after_partial[i] = False
            self.synced[i] = False
            self.last_obs[i] = snapshot(rows[i])
        if self.own is None or self.own.refused is not None or not (seeded or any(in_step)):
            return problems
        agreed: list[Problem] = []
        failed: int | None = None
        for i in range(self.n):
            if not seeded and not in_step[i]:
                continue
            self.synced[i] = True
            self._exact_reset(agreed, i, (OWN,), f"{where}, sub-env {i}", rows[i], info, seeds[i])
            if agreed or not self.synced[i]:
                failed = i
                break
        if not self.established:
            distinct = any(value_difference(rows[0], row) is not None for row in rows[1:])
            if seeded and failed is None and distinct:
                self.established = self.ever_exact = True
                return problems
            if seeded and failed is not None and self.own.refused is None:
                found = agreed[0].what.split(" (", 1)[0] if agreed else "reset raised"
                self.own.refuse(f"sub-env {failed} after reset(seed={summarize(seeds[0])}) is not its copy reset with "
                                f"seed {summarize(seeds[failed])} ({found}), so the target does not seed its sub-envs "
                                "as copies (legal: one generator shared by all, say)")
            self.synced = [False] * self.n  # a fixed start shared by everything is no evidence of the convention
            return problems
        return problems + agreed

    def partial(self, mask: Any, obs: Any, info: Any, where: str) -> list[Problem]:
        """Follow ``reset(options={"reset_mask": mask})``, which returned ``(obs, info)``."""
        self._info = f"{LATEST}[1]"
        problems: list[Problem] = []
        rows = self._rows(obs, where)
        if rows is None:
            self.synced = [False] * self.n
        selected = [bool(flag) for flag in np.asarray(mask).reshape(-1)]
        for i in range(self.n):
            at = f"{where}, sub-env {i}"
            if selected[i]:
                self.ended[i] = False
                if self.synced[i] and rows is not None:
                    self._exact_reset(problems, i, ("AUTORESET-009", GENERIC), at, rows[i], info)
            else:
                self.after_partial[i] = True
                reported = sub_info(info, i)
                if reported:
                    problems.append(Problem(("AUTORESET-009", GENERIC), at, "a sub-env outside reset_mask reports info",
                                            "no info entries for it", summarize(reported),
                                            _equal(f"sub_info({self._info}, {i})", {},
                                                   f"{at}: a sub-env outside reset_mask reports info")))
                if rows is not None and self.last_obs[i] is not None:
                    found = value_difference(rows[i], self.last_obs[i], "observation")
                    if found is not None:
                        problems.append(Problem(("AUTORESET-009", GENERIC), at,
                                                f"a sub-env outside reset_mask changed its observation ({found})",
                                                summarize(self.last_obs[i]), summarize(rows[i]),
                                                _equal(self._row(i), self.last_obs[i], f"{at}: a sub-env outside "
                                                       "reset_mask changed its observation")))
            if rows is not None:
                self.last_obs[i] = snapshot(rows[i])
        return problems

    def step(self, actions: Any, single_act: Any, result: tuple[Any, Any, Any, Any, Any], where: str) -> list[Problem]:
        """Follow ``step(actions)``, which returned ``result`` (already unpacked)."""
        self._info = f"{LATEST}[4]"
        obs, rewards, terms, truncs, info = result
        problems: list[Problem] = []
        rows = self._rows(obs, where)
        ended_now = ended_flags(terms, truncs, self.n)
        try:
            action_rows = split(single_act, actions, self.n, "actions")
        except SplitError:
            action_rows = None
        if rows is None or action_rows is None:
            self.synced = [False] * self.n  # the model envs cannot follow this step
        resetting = [self.mode is AutoresetMode.NEXT_STEP and flag for flag in self.ended]
        for i in range(self.n):
            at = f"{where}, sub-env {i}"
            reward = np.asarray(rewards).reshape(-1)[i]
            term, trunc = bool(np.asarray(terms).reshape(-1)[i]), bool(np.asarray(truncs).reshape(-1)[i])
            if resetting[i]:
                self._next_step_reset(problems, i, at, reward, term, trunc, rows, info)
            elif self.mode is AutoresetMode.SAME_STEP:
                self._same_step(problems, i, at, bool(ended_now[i]), info, rows, action_rows, (reward, term, trunc))
            elif self.synced[i] and rows is not None and action_rows is not None:
                others = any(resetting[j] for j in range(self.n) if j != i)
                self._plain_step(problems, i, at, action_rows[i], (rows[i], reward, term, trunc, sub_info(info, i)),
                                 others)
            self.after_partial[i] = False
            self.ended[i] = False if resetting[i] else bool(ended_now[i])
            if self.mode is AutoresetMode.SAME_STEP:
                self.ended[i] = False
            if rows is not None:
                self.last_obs[i] = snapshot(rows[i])
        if self.mode is AutoresetMode.SAME_STEP:
            problems += self._final_masks(info, ended_now, where)
        return problems

    # --- per-mode predictions ------------------------------------------------------------------------------------

    def _next_step_reset(self, problems: list[Problem], i: int, at: str, reward: Any, term: bool, trunc: bool,
                         rows: list[Any] | None, info: Any) -> None:
        rules = ("AUTORESET-003", GENERIC)
        if reward != 0 or term or trunc:
            got = f"(float(np.asarray({LATEST}[1]).reshape(-1)[{i}]), {_flag(2, i)}, {_flag(3, i)})"
            claim = _equal(got, (0.0, False, False), f"{at}: the sub-env ended on the previous step, yet this step's "
                           "(reward, terminated, truncated) are not a reset step's")
            problems.append(Problem(rules, at, "the sub-env ended on the previous step but was not reset by this one",
                                    "reward 0.0, terminated False, truncated False (a reset step)",
                                    f"reward {summarize(reward)}, terminated {term}, truncated {trunc}", claim))
            self.synced[i] = False
            return
        if self.synced[i] and rows is not None:
            self._exact_reset(problems, i, rules, at, rows[i], info)

    def _plain_step(self, problems: list[Problem], i: int, at: str, action: Any, got: tuple[Any, ...],
                    others_resetting: bool) -> None:
        result = self._single(i, "step", action)
        if result is None:
            return
        expected = unpack_single_step(result)
        single_ended = bool(expected[2]) or bool(expected[3])
        if single_ended:
            rules: tuple[str, ...] = ("AUTORESET-002", GENERIC)
            if self.mode is AutoresetMode.DISABLED:
                rules = ("AUTORESET-002", "AUTORESET-008", GENERIC)
        elif self.after_partial[i]:
            rules = ("AUTORESET-009", GENERIC)
        elif others_resetting:
            rules = ("AUTORESET-004", GENERIC)
        else:
            rules = (GENERIC,)
        rules = self._rules(i, rules)
        names = ("observation", "reward", "terminated", "truncated", "info")
        for name, want, have, shown in zip(names, expected, got, self._step_sources(i)):
            if not self._compare(problems, rules, at, name, want, (have, shown)):
                self.synced[i] = False
                return
        self.proven[i] += 0 if single_ended else 1

    def _step_sources(self, i: int, exclude: tuple[str, ...] = ()) -> tuple[str, ...]:
        """Source of sub-env ``i``'s observation, reward, flags and info in what a step returned."""
        info = f"sub_info({LATEST}[4], {i}" + (f", exclude={exclude!r})" if exclude else ")")
        return (self._row(i), f"np.asarray({LATEST}[1]).reshape(-1)[{i}]", _flag(2, i), _flag(3, i), info)

    def _same_step(self, problems: list[Problem], i: int, at: str, ended: bool, info: Any, rows: list[Any] | None,
                   action_rows: list[Any] | None, flags: tuple[Any, bool, bool]) -> None:
        if not (self.synced[i] and rows is not None and action_rows is not None):
            return
        result = self._single(i, "step", action_rows[i])
        if result is None:
            return
        obs, reward, term, trunc, step_info = unpack_single_step(result)
        top = sub_info(info, i, exclude=_FINAL_KEYS)
        sources = self._step_sources(i, _FINAL_KEYS)
        if not (bool(term) or bool(trunc)):
            got = (rows[i], *flags, top)
            for name, want, have, shown in zip(("observation", "reward", "terminated", "truncated", "info"),
                                               (obs, reward, term, trunc, step_info), got, sources):
                if not self._compare(problems, self._rules(i, (GENERIC,)), at, name, want, (have, shown)):
                    self.synced[i] = False
                    return
            self.proven[i] += 1
            return
        final = self._rules(i, ("AUTORESET-005", GENERIC))
        for name, want, have, shown in zip(("reward", "terminated", "truncated"), (reward, term, trunc), flags,
                                           sources[1:4]):
            if not self._compare(problems, final, at, name, want, (have, shown)):
                self.synced[i] = False
                return
        if not ended:
            return
        final_obs = _entry(info, "final_obs", i)
        final_info = sub_info(info.get("final_info"), i) if is_mapping(info) else {}
        real = self._rules(i, ("AUTORESET-002", GENERIC))
        shown = f"({LATEST}[4]['final_obs'][{i}] if 'final_obs' in {LATEST}[4] else None)"
        ok = self._compare(problems, real, at, "final_obs", obs, (final_obs, shown))
        ok = ok and self._compare(problems, real, at, "final_info", step_info,
                                  (final_info, f"sub_info({LATEST}[4].get('final_info'), {i})"))
        reset = self._single(i, "reset") if ok else None
        if reset is None:
            self.synced[i] = False
            return
        first, reset_info = unpack_single_reset(reset)
        start = self._rules(i, ("AUTORESET-005", GENERIC), drawn=True)
        ok = self._compare(problems, start, at, "observation (the new episode's first)", first, (rows[i], sources[0]))
        self.synced[i] = ok and self._compare(problems, start, at, "info (the reset's)", reset_info, (top, sources[4]))

    def _final_masks(self, info: Any, ended: Any, where: str) -> list[Problem]:
        problems: list[Problem] = []
        if not is_mapping(info):
            return problems
        expected = [bool(flag) for flag in ended]
        info_of = f"{LATEST}[4]"
        for key, rule in (("final_obs", "AUTORESET-006"), ("final_info", "AUTORESET-007")):
            mask = info.get(f"_{key}")
            shown = f"{info_of}.get('_{key}')"
            if mask is None and key not in info:
                actual = [False] * self.n
            elif is_array(mask) and mask.dtype == np.bool_ and mask.shape == (self.n,):
                actual = [bool(flag) for flag in mask]
            else:
                claim = Claim("true", f"isinstance({shown}, np.ndarray) and {shown}.dtype == np.bool_ and "
                              f"{shown}.shape == ({self.n},)", shown, f"{where}: info['_{key}'] is no bool array of "
                              f"shape ({self.n},)")
                problems.append(Problem((rule, GENERIC), where, f"info['_{key}'] is malformed",
                                        f"a bool array of shape ({self.n},)", summarize(mask), claim))
                continue
            if actual != expected:
                marked = f"np.asarray({info_of}.get('_{key}', np.zeros({self.n}, dtype=np.bool_))).tolist()"
                problems.append(Problem((rule, GENERIC), where,
                                        f"info['_{key}'] does not mark exactly the ended sub-envs",
                                        f"{expected} (terminated | truncated)", f"{actual}",
                                        _equal(marked, expected, f"{where}: info['_{key}'] does not mark exactly the "
                                               "ended sub-envs (terminated | truncated)")))
            elif any(expected) and key == "final_obs" and not (
                is_array(info.get(key)) and info[key].dtype == object and info[key].shape == (self.n,)
            ):
                final = f"{info_of}.get('final_obs')"
                claim = Claim("true", f"isinstance({final}, np.ndarray) and {final}.dtype == object and "
                              f"{final}.shape == ({self.n},)", final, f"{where}: info['final_obs'] is not an object "
                              "array of length num_envs")
                problems.append(Problem((rule, GENERIC), where, "info['final_obs'] is not an object array of length "
                                        "num_envs", f"ndarray(shape=({self.n},), dtype=object)",
                                        summarize(info.get(key)), claim))
            elif any(expected) and key == "final_info" and not is_mapping(info.get(key)):
                final = f"{info_of}.get('final_info')"
                claim = Claim("true", f"isinstance({final}, dict)", final, f"{where}: info['final_info'] is not a dict")
                problems.append(Problem((rule, GENERIC), where, "info['final_info'] is not a dict", "a dict",
                                        summarize(info.get(key)), claim))
            elif key == "final_obs":
                problems += self._final_obs_members(info, expected, where)
        return problems

    def _final_obs_members(self, info: Mapping[str, Any], ended: list[bool], where: str) -> list[Problem]:
        for i in (i for i, flag in enumerate(ended) if flag):
            value = _entry(info, "final_obs", i)
            try:
                inside = bool(self.single_obs.contains(value))
            except Exception:  # noqa: BLE001 - a raising contains answers "no"
                inside = False
            if not inside:
                final = f"{LATEST}[4]['final_obs'][{i}]"
                claim = Claim("true", f"env.single_observation_space.contains({final})", final,
                              f"{where}, sub-env {i}: info['final_obs'] holds a value outside single_observation_space")
                return [Problem(("AUTORESET-006", GENERIC), f"{where}, sub-env {i}",
                                "info['final_obs'] holds a value outside single_observation_space",
                                f"an element of {self.single_obs!r}", summarize(value), claim)]
        return []


def _entry(info: Any, key: str, i: int) -> Any:
    try:
        return info[key][i]
    except Exception:  # noqa: BLE001 - a missing entry compares unequal to the model's value
        return None
