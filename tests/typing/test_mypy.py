"""The whole repository is clean under ``mypy --strict`` (configuration in mypy.ini).

This is where the positive typing cases (Gymnasium classes and duck-typed envs assigned to protocol-typed variables)
are actually checked, together with every module of the three packages, the tests and the benchmarks.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_repository_is_mypy_clean() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "mypy.ini")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
