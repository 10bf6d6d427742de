"""Run the docstring examples of every module of the three packages.

The project's pytest does not collect doctests itself (``--doctest-modules`` would import the conformance suite's
test modules as plain modules), so this test walks the packages and runs each module's examples with
:func:`doctest.testmod`. An example that drifts from the behaviour fails here, so the docs a learner reads stay true.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import warnings

import pytest

from reference.error import DependencyNotInstalled

_PACKAGES = ("gymspec", "reference", "conformance")
# The suite's own test modules, its conftest and the CLI entry are not documentation modules.
_SKIP_PREFIXES = ("conformance.test_", "conformance.conftest", "conformance.__main__")


def _modules() -> list[str]:
    names: list[str] = []
    for package_name in _PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            if not info.name.startswith(_SKIP_PREFIXES):
                names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("module_name", _modules())
def test_docstring_examples(module_name: str) -> None:
    try:
        module = importlib.import_module(module_name)
    except DependencyNotInstalled as exc:  # a module for an optional backend (PyTorch, JAX, ...)
        pytest.skip(str(exc))
    with warnings.catch_warnings():
        # Some examples show a warning-raising call (e.g. a lossy Box cast); the example checks the result.
        warnings.simplefilter("ignore")
        result = doctest.testmod(
            module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False, report=False
        )
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {module_name}"


def test_the_walk_finds_the_documented_modules() -> None:
    """Guard against a walk that silently finds nothing (the parametrized test would then pass vacuously)."""
    modules = _modules()
    assert {"reference.core", "reference.spaces.box", "reference.wrappers.common", "gymspec.rules"} <= set(modules)
    finder = doctest.DocTestFinder()
    for name in ("reference._env", "reference.spaces.box", "reference.wrappers.common"):
        assert any(test.examples for test in finder.find(importlib.import_module(name))), name
