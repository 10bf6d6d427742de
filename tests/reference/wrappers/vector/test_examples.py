"""Run the docstring examples of every vector-wrapper module (the project's pytest does not collect doctests)."""

from __future__ import annotations

import doctest
import importlib

import pytest

_MODULES = [
    "reference.wrappers.vector",
    "reference.wrappers.vector.common",
    "reference.wrappers.vector.dict_info_to_list",
    "reference.wrappers.vector.stateful_observation",
    "reference.wrappers.vector.stateful_reward",
    "reference.wrappers.vector.vectorize_action",
    "reference.wrappers.vector.vectorize_observation",
    "reference.wrappers.vector.vectorize_reward",
]


@pytest.mark.parametrize("module_name", _MODULES)
def test_doctests(module_name: str) -> None:
    module = importlib.import_module(module_name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest examples failed in {module_name}"
    assert result.attempted > 0, f"{module_name} has no examples"


def test_every_public_wrapper_has_an_example_and_is_sorted() -> None:
    import reference.wrappers.vector as wrappers

    assert wrappers.__all__ == sorted(wrappers.__all__)
    missing = [name for name in wrappers.__all__ if ">>>" not in (getattr(wrappers, name).__doc__ or "")]
    assert missing == []
