"""Tests for reference.experimental.functional, Gymnasium's module path of FuncEnv."""

from __future__ import annotations

import reference
import reference.functional
import reference.functional.func_env as canonical
from reference.experimental import functional


def test_func_env_and_type_variables_are_the_canonical_ones() -> None:
    assert functional.FuncEnv is canonical.FuncEnv is reference.functional.FuncEnv
    assert functional.StateType is canonical.StateT and functional.Params is canonical.ParamsT
    assert reference.experimental.functional is functional
