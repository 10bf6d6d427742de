"""The whole repository is clean under ``mypy --strict`` (configuration in mypy.ini).

This is where the positive typing cases (``positive/``: Gymnasium's and the reference's classes, and classes written
from scratch, assigned to protocol-typed variables) are checked by mypy, together with every module of the three
packages, the tests and the benchmarks.
"""

from __future__ import annotations

from tests.typing._checkers import run_mypy


def test_repository_is_mypy_clean() -> None:
    status, output, _ = run_mypy()
    assert status == 0, output
