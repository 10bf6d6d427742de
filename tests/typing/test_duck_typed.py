"""A duck-typed env with no base class is accepted when (and only when) its signatures are right.

The positive half is checked here by mypy and pyright (``test_mypy.py``, ``test_pyright.py``) and at run time; the
negative half lives in ``negative/cases.py`` and is checked by ``test_negative_cases.py``.
"""

from __future__ import annotations

import gymspec
from tests.typing._duck import DuckEnv, DuckSpace


def test_duck_typed_env_is_accepted() -> None:
    env: gymspec.Env[int, int] = DuckEnv()
    space: gymspec.Space[int] = DuckSpace()
    assert isinstance(env, gymspec.Env)
    assert isinstance(space, gymspec.Space)
    obs, info = env.reset(seed=1)
    assert env.observation_space.contains(obs) and info == {}
    assert space.contains(space.sample())
