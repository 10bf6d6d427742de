"""Run mypy and pyright as the typing tests do, and read their diagnostics.

pyright comes from the package index as ``basedpyright`` (pinned in the ``test`` extra): its wheel ships the Node.js
runtime it needs, so it runs offline. A plain ``pyright`` executable (which fetches Node.js on first use) is used
when basedpyright is absent; with neither, the pyright tests skip and say why.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MYPY_CONFIG = ROOT / "mypy.ini"
_MYPY_LINE = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+): (?P<kind>error|note): (?P<text>.*)$")
_PYRIGHT_NAMES = ("basedpyright", "pyright")


@dataclass(frozen=True)
class Diagnostic:
    """One message of a checker: an error, or a note explaining the error before it (mypy)."""

    path: str
    line: int
    kind: str
    text: str


def run_mypy(paths: Sequence[Path] = ()) -> tuple[int, str, list[Diagnostic]]:
    """Run ``mypy`` with the repository's configuration on ``paths`` (default: the configured files).

    Returns:
        The exit status, the raw output and the parsed diagnostics.
    """
    command = [sys.executable, "-m", "mypy", "--config-file", str(MYPY_CONFIG), "--no-error-summary"]
    result = subprocess.run([*command, *map(str, paths)], cwd=ROOT, capture_output=True, text=True, check=False)
    found: list[Diagnostic] = []
    for raw in result.stdout.splitlines():
        match = _MYPY_LINE.match(raw)
        if match is not None:
            found.append(Diagnostic(match["path"], int(match["line"]), match["kind"], match["text"]))
    return result.returncode, result.stdout + result.stderr, found


def pyright_executable() -> str | None:
    """The pyright command beside this interpreter (or on ``PATH``), basedpyright first; ``None`` if absent."""
    here = Path(sys.executable).parent
    for name in _PYRIGHT_NAMES:
        local = here / name
        if local.exists():
            return str(local)
        found = shutil.which(name)
        if found is not None:
            return found
    return None


def run_pyright(config: Path | None = None) -> tuple[int, str, list[Diagnostic]]:
    """Run pyright in JSON mode with ``config`` (default: ``[tool.pyright]`` of pyproject.toml).

    Returns:
        The exit status, the raw output and the errors (each one multi-line message).

    Raises:
        FileNotFoundError: No pyright executable is installed.
    """
    executable = pyright_executable()
    if executable is None:
        raise FileNotFoundError("neither basedpyright nor pyright is installed (pip install -e '.[test]')")
    command = [executable, "--outputjson", "--pythonpath", sys.executable]
    if config is not None:
        command += ["--project", str(config)]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    found: list[Diagnostic] = []
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return result.returncode, result.stdout + result.stderr, found
    for item in report.get("generalDiagnostics", []):
        if item.get("severity") == "error":
            line = int(item["range"]["start"]["line"]) + 1
            found.append(Diagnostic(item["file"], line, "error", item["message"]))
    return result.returncode, result.stdout + result.stderr, found


def write_pyright_config(directory: Path, files: Sequence[Path]) -> Path:
    """Write a strict pyright configuration that checks ``files`` alone, resolving imports from the repository."""
    config = directory / "pyrightconfig.json"
    settings = {
        "include": [str(path) for path in files],
        "extraPaths": [str(ROOT)],
        "typeCheckingMode": "strict",
    }
    config.write_text(json.dumps(settings, indent=2))
    return config
