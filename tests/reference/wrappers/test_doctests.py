"""Run the docstring examples of every wrappers module (the project's pytest does not collect doctests)."""

from __future__ import annotations

import doctest
import importlib

import pytest

_MODULES = [
    "reference.wrappers.common",
    "reference.wrappers.env_checker",
    "reference.wrappers.frame_noise",
    "reference.wrappers.frame_stack",
    "reference.wrappers.passive_env_checker",
    "reference.wrappers.record_video",
    "reference.wrappers.result_checks",
    "reference.wrappers.rendering",
    "reference.wrappers.stateful_action",
    "reference.wrappers.stateful_observation",
    "reference.wrappers.stateful_reward",
    "reference.wrappers.transform_action",
    "reference.wrappers.transform_observation",
    "reference.wrappers.transform_reward",
    "reference.wrappers.utils",
    "reference.registration",
    "reference.registration._env_spec",
    "reference.utils.performance",
]


@pytest.mark.parametrize("module_name", _MODULES)
def test_doctests(module_name: str) -> None:
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {module_name}"


def test_every_public_wrapper_has_an_example() -> None:
    import reference.wrappers as wrappers

    missing = [name for name in wrappers.__all__ if ">>>" not in (getattr(wrappers, name).__doc__ or "")]
    assert missing == []
