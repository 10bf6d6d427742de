"""Every broken functional target, the rule it must violate, and the rules it may violate as a consequence."""

from __future__ import annotations

from tests.meta.catalog import Broken

__all__ = ["BROKEN", "CORRECT"]

_FUNC = "tests.meta.broken_func.func"


def _func(rule: str, name: str, *collateral: str) -> Broken:
    return Broken(rule, f"{_FUNC}:{name}", "--func-env", collateral)


BROKEN: tuple[Broken, ...] = (
    _func("FUNC-001", "Func001ObservationSpaceWithoutSeed"),
    _func("FUNC-002", "Func002TransitionMutatesState", "FUNC-003"),
    _func("FUNC-003", "Func003HiddenCounter"),
    _func("FUNC-004", "Func004GlobalNoise", "FUNC-003", "FUNC-005"),
    _func("FUNC-004", "Func004PrivateGenerator"),
    _func("FUNC-004", "Func004ReadsGlobalState"),
    _func("FUNC-005", "Func005DefaultsDisagree"),
    _func("FUNC-006", "Func006InitialOutside"),
    _func("FUNC-007", "Func007TransitionLeavesSpace"),
    _func("FUNC-008", "Func008ArrayReward"),
    _func("FUNC-009", "Func009IntTerminal"),
    _func("FUNC-010", "Func010ListInfo"),
    _func("FUNC-011", "Func011TerminalNotTransformed"),
    _func("FUNC-012", "Func012FloatFrame"),
    _func("FUNC-013", "Func013CopiedNoise"),
    _func("FUNC-014", "Func014MixedRows"),
    _func("FUNC-008", "FuncBatch008RewardShape"),
    _func("FUNC-009", "FuncBatch009PythonBool"),
)

CORRECT: tuple[str, ...] = ("tests.meta.broken_func._base:Drift", "tests.meta.broken_func.controls:SingleStates",
                             "tests.meta.broken_func.controls:CoinSlips")
"""Correct functional targets."""
