"""Fixtures of the conformance suite (the plugin in :mod:`conformance.plugin` parametrizes them).

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from typing import cast

import pytest

from conformance._engine.case import Case
from conformance._engine.options import CaseParam
from conformance._engine.state import TargetState
from conformance._engine.session import get_session
from conformance.plugin import CASE_KEY

_HEADLESS = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


@pytest.fixture(scope="session", autouse=True)
def _headless_rendering() -> Iterator[None]:
    """Render modes such as ``"human"`` must not open windows or audio devices during the run.

    Only defaults are set (a user's own ``SDL_VIDEODRIVER`` wins), and the environment is restored afterwards.
    """
    added = [name for name in _HEADLESS if name not in os.environ]
    for name in added:
        os.environ[name] = _HEADLESS[name]
    yield
    for name in added:
        os.environ.pop(name, None)


@pytest.fixture
def conformance_case(request: pytest.FixtureRequest) -> Case:
    """The (rule, target) item under check."""
    param: CaseParam = request.param
    case: Case = get_session(request.config).case(param)
    # pytest 9's FixtureRequest.node is untyped: the item is a pytest.Item.
    item = cast(pytest.Item, request.node)  # pyright: ignore[reportUnknownMemberType]
    item.stash[CASE_KEY] = case
    return case


@pytest.fixture
def conformance_target(request: pytest.FixtureRequest) -> TargetState:
    """The shared state of a target, for the construction check."""
    param: CaseParam = request.param
    state: TargetState = get_session(request.config).state(param.target)
    return state
