"""Gymnasium's module path for the functional API: ``from reference.experimental.functional import FuncEnv``.

The class lives in :mod:`reference.functional` (with its ``Env`` and ``VectorEnv`` adapters); this module gives it,
and its type variables under Gymnasium's names, at the path Gymnasium documents.
"""

from __future__ import annotations

from reference.functional.func_env import ActT as ActType
from reference.functional.func_env import FuncEnv
from reference.functional.func_env import ObsT as ObsType
from reference.functional.func_env import ParamsT as Params
from reference.functional.func_env import RenderStateT as RenderStateType
from reference.functional.func_env import RewardT as RewardType
from reference.functional.func_env import StateT as StateType
from reference.functional.func_env import TerminalT as TerminalType

__all__ = [
    "ActType",
    "FuncEnv",
    "ObsType",
    "Params",
    "RenderStateType",
    "RewardType",
    "StateType",
    "TerminalType",
]
