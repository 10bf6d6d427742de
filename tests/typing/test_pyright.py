"""The repository is clean under pyright as ``[tool.pyright]`` in pyproject.toml configures it.

The shipped packages and the typing tests are checked in strict mode, the other tests, benchmarks and scripts in
standard mode.

This is where the positive typing cases of ``positive/`` are checked by pyright. pyright is ``basedpyright`` from
the package index (pinned in the ``test`` extra; it ships its own Node.js, so it needs no network); the test skips,
saying so, when no pyright is installed.
"""

from __future__ import annotations

import pytest

from tests.typing._checkers import pyright_executable, run_pyright


def test_configured_paths_are_pyright_clean() -> None:
    if pyright_executable() is None:
        pytest.skip("pyright is not installed: pip install -e '.[test]' brings basedpyright")
    status, output, found = run_pyright()
    assert '"summary"' in output, output[-3000:]
    listing = "\n".join(f"{d.path}:{d.line}: {d.text}" for d in found)
    assert status == 0 and not found, listing or output[-3000:]
