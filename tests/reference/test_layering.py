"""The reference packages are layered like Gymnasium's: environments depend on the framework, never the reverse.

Wrappers, the functional adapters and the vector envs are framework: they must not import an environment package
(doctest examples, which build environments to show the framework at work, are strings and do not count).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import reference

ROOT = Path(reference.__file__).parent
FRAMEWORK = ["wrappers", "functional", "vector", "_framework.py", "core.py", "_env.py", "_wrapper.py"]


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, at module level or inside functions."""
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            modules.add(node.module)
            modules.update(f"{node.module}.{alias.name}" for alias in node.names)
    return modules


def framework_files() -> list[Path]:
    files: list[Path] = []
    for entry in FRAMEWORK:
        path = ROOT / entry
        files.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return files


@pytest.mark.parametrize("path", framework_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_framework_module_imports_no_environment_package(path: Path) -> None:
    envs = sorted(m for m in imported_modules(path) if m == "reference.envs" or m.startswith("reference.envs."))
    assert envs == [], f"{path.relative_to(ROOT)} imports {envs}; move what it needs to reference._framework"


def test_the_check_sees_imports() -> None:
    # The scan above must find an import that is there, or it would pass vacuously.
    assert "reference._framework" in imported_modules(ROOT / "envs" / "_rendering.py")
