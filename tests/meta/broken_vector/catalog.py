"""Every broken vector target (:class:`tests.meta.catalog.Broken`), the rule it must violate, and the rules it may violate as a consequence.

Targets are classes taking ``num_envs`` (``--vector-env``). ``collateral`` lists fnmatch patterns of rules the one
change necessarily breaks too; the meta-tests check that nothing else *in the target's area* fails.
"""

from __future__ import annotations

from tests.meta.catalog import Broken

__all__ = ["BROKEN", "CORRECT", "CORRECT_SLOW"]

_VECTOR = "tests.meta.broken_vector.vector"
_AUTORESET = "tests.meta.broken_vector.autoreset"
_DIRECT = "tests.meta.broken_vector.direct"
_COPIES = "tests.meta.broken_vector.copies"


def _vec(rule: str, name: str, *collateral: str) -> Broken:
    return Broken(rule, f"{_VECTOR}:{name}", "--vector-env", collateral)


def _auto(rule: str, name: str, *collateral: str) -> Broken:
    return Broken(rule, f"{_AUTORESET}:{name}", "--vector-env", collateral)


# Changing what a sub-env's data looks like also makes the target disagree with its own sub-envs.
_DIFFERENTIAL = ("VEC-018", "AUTORESET-*")

BROKEN: tuple[Broken, ...] = (
    _vec("VEC-001", "Vec001FloatNumEnvs"),
    # issue 37 item 2: every other rule skips, reported by VEC-001 (none may fail with the suite's internal ending).
    _vec("VEC-001", "Vec001SingleSpaceUnreadable"),
    _vec("VEC-002", "Vec002UntiledBounds"),
    _vec("VEC-003", "Vec003ActionsAsBox"),
    _vec("VEC-004", "Vec004NoAutoresetMode"),
    _vec("VEC-005", "Vec005InfoNotDict", "VEC-014", *_DIFFERENTIAL),
    _vec("VEC-006", "Vec006SameSeedEverywhere", *_DIFFERENTIAL),
    _vec("VEC-007", "Vec007SeedListAnyLength"),
    # Not reproducible: the rules that compare with a baseline or a model are not checkable (the root-cause gate).
    _vec("VEC-008", "Vec008NoisyRewards"),
    _vec("VEC-009", "Vec009ResetKeepsAutoresetFlags", *_DIFFERENTIAL),
    _vec("VEC-010", "Vec010FourTuple", "VEC-0*", *_DIFFERENTIAL),
    _vec("VEC-011", "Vec011ObservationsScaled", *_DIFFERENTIAL),
    _vec("VEC-012", "Vec012RewardColumn", *_DIFFERENTIAL),
    _vec("VEC-013", "Vec013IntFlags", *_DIFFERENTIAL),
    _vec("VEC-014", "Vec014MaskMissing", *_DIFFERENTIAL),
    _vec("VEC-015", "Vec015StaleMaskedEntries", *_DIFFERENTIAL),
    _vec("VEC-016", "Vec016RejectsAction", "AUTORESET-*"),
    _vec("VEC-017", "Vec017NoCopy"),
    _vec("VEC-018", "Vec018DoubledRewards", "AUTORESET-*"),
    _vec("VEC-019", "Vec019CloseTwiceRaises"),
    _vec("VEC-020", "Vec020UsableAfterClose"),
    _auto("AUTORESET-001", "Autoreset001UnknownMode"),
    _auto("AUTORESET-002", "Autoreset002NoFinalReward", "AUTORESET-012", "VEC-018"),
    # issue 37 item 9: terminations and truncations one array (gymnax's done in both).
    _auto("AUTORESET-002", "Autoreset002FlagsMerged", "AUTORESET-012", "VEC-018"),
    _auto("AUTORESET-003", "Autoreset003RewardOnResetStep", "AUTORESET-012", "VEC-018"),
    # A sub-env that waits on a step where it would have ended is reported as a missing final step (002 comes
    # first in the model's order), whenever a drawn rollout has one.
    _auto("AUTORESET-004", "Autoreset004OthersWait", "AUTORESET-002", "AUTORESET-012", "VEC-018"),
    _auto("AUTORESET-005", "Autoreset005FinalObsReturned", "AUTORESET-012", "VEC-018"),
    _auto("AUTORESET-006", "Autoreset006NoFinalObs", "AUTORESET-002", "AUTORESET-012", "VEC-018"),
    _auto("AUTORESET-007", "Autoreset007FinalInfoUnmasked", "AUTORESET-012", "VEC-018"),
    _auto("AUTORESET-008", "Autoreset008ResetsByItself", "VEC-018"),
    _auto("AUTORESET-009", "Autoreset009ResetsEverything",
          "AUTORESET-002", "AUTORESET-010", "AUTORESET-012", "VEC-018"),
    _auto("AUTORESET-010", "Autoreset010AnyMask"),
    _auto("AUTORESET-011", "Autoreset011PopsMask"),
    _auto("AUTORESET-012", "Autoreset012UnseededResetReplays"),
    # h26b (issue 26 item 2): vector envs written directly (no env_fns).
    Broken("VEC-021", f"{_DIRECT}:SlideReseedsUnseeded", "--vector-env", ("VEC-008", "VEC-009")),
    Broken("VEC-022", f"{_DIRECT}:SlideIdenticalRows", "--vector-env", ("VEC-024",)),
    # issue 37 item 11: identical sub-envs after a reset without a seed.
    Broken("VEC-024", f"{_DIRECT}:SlideUnseededAlike", "--vector-env"),
    # h26v (issue 26 item 2): written directly, seeding its sub-envs as copies (s + i), so the suite's num_envs=1
    # copies model it; a sub-env that disagrees with its copy at a step ending its episode is AUTORESET-002's first.
    Broken("VEC-023", f"{_COPIES}:LanesSharedNoise", "--vector-env"),
    # issue 37 item 13: one slip stream shared by the sub-envs, whose first steps often agree with their copies'.
    Broken("VEC-023", f"{_COPIES}:LanesSharedSlips", "--vector-env"),
    Broken("AUTORESET-009", f"{_COPIES}:LanesPartialClearsOthers", "--vector-env", ("AUTORESET-002", "AUTORESET-012")),
    Broken("AUTORESET-004", f"{_COPIES}:LanesOthersWait", "--vector-env", ("AUTORESET-002", "AUTORESET-012")),
    # issue 37 item 11: a generator re-created from the reset seed at each autoreset; its copies share the defect.
    Broken("VEC-021", f"{_COPIES}:LanesRestartsOnAutoreset", "--vector-env"),
)

CORRECT: tuple[str, ...] = (
    "tests.meta.broken_vector.correct:sync_next_step",
    "tests.meta.broken_vector.correct:sync_same_step",
    "tests.meta.broken_vector.correct:sync_disabled",
    # Async without shared memory (observations pickled through the pipes) once; CORRECT_SLOW has the other modes.
    "tests.meta.broken_vector.correct:async_next_step_pickled",
    # h24 (issue 24): sub-envs that are different tasks; sub-env i is compared with env_fns[i](), not env_fns[0]().
    "tests.meta.broken_vector.multitask:sync_multitask",
    # h26b: written directly, one generator shared by the sub-envs and advanced correctly (legal).
    "tests.meta.broken_vector.direct:Slide",
    "tests.meta.broken_vector.direct:SlideSameStep",
    # h26v: written directly, seeding its sub-envs as copies: the copies model them exactly, in every mode.
    "tests.meta.broken_vector.copies:Lanes",
    "tests.meta.broken_vector.copies:LanesSameStep",
    "tests.meta.broken_vector.copies:LanesDisabled",
    # issue 37 item 1: a next episode that starts where the last one ended (final_obs equal to the returned one).
    "tests.meta.broken_vector.odd:resume_sync_same_step",
)
"""Correct vector targets of the regular run: reference Sync in every mode, Async without shared memory, a multi-task
Sync, and vector envs written directly (one shared generator; sub-envs seeded as copies, in every mode).

Async *with* shared memory in every mode is among the suite's embedded defaults (``CartPole-v1/async/*``), which CI's
first command (``pytest --pyargs conformance``) runs, and ``tests/meta/test_reference_envs.py`` under ``-m slow``; the
factories for it are in :mod:`tests.meta.broken_vector.correct` too.
"""

CORRECT_SLOW: tuple[str, ...] = (
    "tests.meta.broken_vector.correct:async_same_step_pickled",
    "tests.meta.broken_vector.correct:async_disabled_pickled",
)
"""Correct vector targets checked under ``-m slow`` only: Async without shared memory in the two other modes.

CI keeps what they would add: the suite on Async in these modes with shared memory (the embedded defaults
``CartPole-v1/async/SameStep`` and ``/Disabled``, CI's first command) and pickled in ``Disabled``
(``tests/reference/vector/test_conformance.py``), the pickled transport (``async_next_step_pickled``), and Async's
results equal to Sync's in every mode, with and without shared memory (``tests/reference/vector/test_differential.py``).
"""
