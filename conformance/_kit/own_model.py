"""The single-env model of a vector env written directly (no ``env_fns``): its own ``num_envs=1`` construction.

A vector env built from sub-env factories is modelled by those factories' envs (see
:func:`conformance._kit.vector_checks.model_envs`). A vector env written directly (Gymnasium's ``CartPoleVectorEnv``,
``FunctionalJaxVectorEnv``) has none, so sub-env ``i`` is modelled by a *copy*: one more construction of the target
itself with ``num_envs=1``, seen as a single env through :class:`OneCopy`. The model rests on these assumptions,
each checked where it can be and named when it fails:

1. **The constructor takes ``num_envs``** (every ``--vector-env`` factory and ``make_vec`` does): the copy is
   ``case.make("one_i", num_envs=1)``. A construction that raises, or whose ``num_envs``, single spaces or declared
   autoreset mode differ from the target's, gives no model.
2. **Sub-env ``i`` is the same environment as the copy's one sub-env** (``VectorEnv`` runs "multiple independent
   copies of the same environment"). A multi-task vector env breaks this. Built with Sync or Async it exposes
   ``env_fns``, and the factories model it, not this module; written directly, its copies are all task 0's: sub-envs
   that start differently make the first seeded reset refuse the copies, and dynamics that differ show on a
   sub-env's first steps, before it is proven (below), so they are VEC-023's (a SHOULD). Only tasks that differ
   solely in states first reached after two agreeing steps could reach an AUTORESET rule.
3. **Seeding follows the Sync convention** (sub-env ``i`` of ``reset(seed=s)`` is seeded ``s + i``) — *learned, not
   assumed*: copy ``i`` is reset with ``s + i``, and the model becomes exact only once one seeded reset gave every
   sub-env its copy's observation and info while the rows were not all equal (a random start, so the agreement is
   the convention, not a fixed start shared by everything). Vector envs written directly need not seed so
   (``CartPoleVectorEnv`` draws every start from one generator, ``CartPoleJaxVectorEnv`` splits one key): a first
   seeded reset that disagrees makes this target's copies "no model" for the rest of the process, and the items
   that need exact predictions are not checkable, with that reason.
4. **A copy is driven as a single env through its own vector API**: ``step(a)`` is ``step`` of the one-row batch;
   a reset after an ended episode is the copy's own autoreset (under ``"NextStep"`` one more step, under
   ``"SameStep"`` the new start the final step returned) and under ``"Disabled"`` its ``reset()`` without a seed.
   The copy therefore shares the target's code at ``num_envs=1``: comparing with it shows what differs between
   ``n`` sub-envs and one — sub-envs that wait for one that resets, a partial reset that clears other sub-envs'
   state, misindexed final observations, randomness that is not each sub-env's own — never a defect the one-copy
   construction has too (a ``final_obs`` that is the next episode's first observation goes unseen: equal values are
   also what an env does whose episodes start where the last one ended, so no check concludes a defect from them);
   model-free checks see what they can of those: VEC-021's autoresets that restart a sub-env's generator
   (:mod:`conformance._kit.vector_restarts`), VEC-024's identical sub-envs after an unseeded reset.

Which differences are defects: a shared generator is legal (``CartPoleVectorEnv``), so a disagreement that a shared
generator can explain — a drawn start, or a step of a sub-env not yet seen to step as its copy does — is reported
under VEC-023 (a SHOULD), never under a MUST. Only a sub-env *proven* to draw its own randomness (one of its steps
already agreed with its copy) has its later disagreements reported under the AUTORESET rule of the moment
(AUTORESET-004: it waited while another reset; AUTORESET-009: a partial reset of others touched it; AUTORESET-002:
its final step). The model itself is :class:`~conformance._kit.autoreset_model.VectorModel`.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from conformance._engine.case import Case
from conformance._engine.describe import describe_exception, is_integer, is_mapping, summarize
from conformance._engine.handles import ConstructionFailed, Handle, TargetError
from conformance._engine.outcomes import NotCheckable
from conformance._kit.batching import SplitError, batch_of_one, split, sub_info
from conformance._kit.vector_rollout import declared_mode
from gymspec import AutoresetMode

__all__ = ["OneCopy", "OwnCopies", "own_copies", "refusal"]

_FINAL_KEYS = ("final_obs", "final_info")
# Per target state: why its copies are no model (learned once per process; a seeded reset is deterministic).
_REFUSED: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def _first(value: Any) -> Any:
    return np.asarray(value).reshape(-1)[0]


class OneCopy:
    """A vector env with ``num_envs=1`` seen as a single env (the model of one sub-env; see the module).

    Args:
        vector: The ``num_envs=1`` construction.
        mode: Its declared autoreset mode.
    """

    def __init__(self, vector: Any, mode: AutoresetMode) -> None:
        self.vector = vector
        self.mode = mode
        self.single_observation_space = vector.single_observation_space
        self.single_action_space = vector.single_action_space
        self._ended = False
        self._last_action: Any = None
        self._pending: tuple[Any, dict[str, Any]] | None = None
        """Under ``"SameStep"``: the new episode's first observation and info, returned by the final step."""

    def _row(self, obs: Any) -> Any:
        try:
            return split(self.single_observation_space, obs, 1, "observations")[0]
        except SplitError as exc:
            raise ValueError(f"OneCopy observations must split into one row: {exc}") from None

    def reset(self, *, seed: Any = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
        """A seeded or unseeded reset; after an ended episode (no seed), the copy's own autoreset."""
        ended, pending = self._ended, self._pending
        self._ended, self._pending = False, None
        if seed is None and options is None and ended:
            if self.mode is AutoresetMode.NEXT_STEP and self._last_action is not None:
                obs, _, _, _, info = self.vector.step(batch_of_one(self.single_action_space, self._last_action))
                return self._row(obs), sub_info(info, 0)
            if self.mode is AutoresetMode.SAME_STEP and pending is not None:
                return pending
        kwargs: dict[str, Any] = {} if seed is None else {"seed": seed}
        if options is not None:
            kwargs["options"] = options
        obs, info = self.vector.reset(**kwargs)
        return self._row(obs), sub_info(info, 0)

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        """One step of the one-row batch; under ``"SameStep"`` an ending step returns the final observation and
        info (and keeps the new start for the next :meth:`reset`)."""
        self._last_action = action
        obs, rewards, terms, truncs, info = self.vector.step(batch_of_one(self.single_action_space, action))
        reward, term, trunc = _first(rewards), bool(_first(terms)), bool(_first(truncs))
        ended = term or trunc
        self._ended = ended
        if self.mode is AutoresetMode.SAME_STEP and ended:
            self._pending = (self._row(obs), sub_info(info, 0, exclude=_FINAL_KEYS))
            final_info = sub_info(info.get("final_info"), 0) if is_mapping(info) else {}
            return info["final_obs"][0], reward, term, trunc, final_info
        return self._row(obs), reward, term, trunc, sub_info(info, 0)

    def close(self) -> None:
        """Close the construction."""
        self.vector.close()


class OwnCopies(Sequence[Handle]):
    """The copies of one target instance, made on first use (a target whose copies are no model makes one).

    Args:
        case: The item's case.
        var: The target instance's variable (for the reproducer).
        n: ``num_envs``.
        mode: The target's declared autoreset mode.
        facts: ``(single_observation_space, single_action_space)`` of the target.
    """

    def __init__(self, case: Case, var: str, n: int, mode: AutoresetMode, facts: tuple[Any, Any]) -> None:
        self.case = case
        self.var = var
        self.n = n
        self.mode = mode
        self.facts = facts
        self._made: dict[int, Handle] = {}

    @property
    def refused(self) -> str | None:
        """Why this target's copies are no model (``None`` while they may be)."""
        return refusal(self.case)

    def refuse(self, reason: str) -> None:
        """Record, for the rest of the process, that the copies are no model of this target."""
        _REFUSED[self.case.state] = reason

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, index: int) -> Handle: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Handle]: ...

    def __getitem__(self, index: int | slice) -> Handle | Sequence[Handle]:
        if isinstance(index, slice):
            return [self[i] for i in range(self.n)[index]]
        found = self._made.get(index)
        if found is None:
            found = self._make(index)
            self._made[index] = found
        return found

    def __iter__(self) -> Iterator[Handle]:
        return (self[i] for i in range(self.n))

    def _make(self, i: int) -> Handle:
        case = self.case
        if not self._made:
            case.note("# the model: copies of the target made with num_envs=1, sub-env i's copy seeded s + i")
        one: Handle | None = None
        try:
            one = case.make(f"one_{i}", num_envs=1)
            problem = self._mismatch(one)
        except TargetError as exc:
            problem = f"its construction with num_envs=1 raised {describe_exception(exc.error)}"
        except ConstructionFailed as exc:
            problem = f"its construction with num_envs=1 raised {describe_exception(exc.error.error)}"
        except NotCheckable as exc:
            problem = f"its construction with num_envs=1 cannot be used here ({exc})"
        if one is None or problem is not None:
            self.refuse(problem or "its construction with num_envs=1 failed")
            raise TargetError(f"one_{i}", "construct", ValueError(problem))
        imports = ("from conformance._kit.own_model import OneCopy", "from gymspec import AutoresetMode")
        return case.wrap(OneCopy(one.raw, self.mode), f"sub_{i}", f"OneCopy({one.var}, AutoresetMode.{self.mode.name})",
                         imports=imports, counted=False)

    def _mismatch(self, one: Handle) -> str | None:
        """Why a ``num_envs=1`` construction is no copy of the target (``None`` when it is one)."""
        try:
            n = one.get("num_envs")
            spaces = (one.get("single_observation_space"), one.get("single_action_space"))
            metadata = one.get("metadata") if one.has("metadata") else None
        except TargetError as error:
            return f"its num_envs=1 construction cannot be read ({error})"
        if not (isinstance(n, int) or is_integer(n)) or int(n) != 1:
            return f"its construction with num_envs=1 has num_envs={summarize(n)}"
        for name, mine, theirs in zip(("single_observation_space", "single_action_space"), spaces, self.facts):
            try:
                same = bool(mine == theirs)
            except Exception:  # noqa: BLE001 - spaces that cannot be compared are not known to be the same
                same = False
            if not same:
                return (f"its num_envs=1 construction has another {name} ({summarize(mine)}, not "
                        f"{summarize(theirs)})")
        if declared_mode(metadata)[0] is not self.mode:
            return "its num_envs=1 construction declares another autoreset mode"
        return None

    def close(self) -> None:
        """Forget the copies; their constructions are the case's (made with ``case.make``, closed at the example's
        end), so closing them here too would close each twice."""
        self._made.clear()


def own_copies(case: Case, env: Handle, n: int, mode: AutoresetMode, facts: tuple[Any, Any]) -> OwnCopies | None:
    """The copies modelling the sub-envs of ``env`` (a target without ``env_fns``), or ``None`` when this target's
    copies are already known to be no model (see :attr:`OwnCopies.refused`, which says why)."""
    if refusal(case) is not None:
        return None
    return OwnCopies(case, env.var, n, mode, facts)


def refusal(case: Case) -> str | None:
    """Why this target's copies are known to be no model of it (``None`` when that is not known)."""
    return _REFUSED.get(case.state)
