"""Every public wrapper documents itself with an example (``tests/test_doctests.py`` runs them)."""

from __future__ import annotations

import ast
from pathlib import Path
from types import ModuleType


def _docstring(package: ModuleType, name: str) -> str:
    """The class docstring, read from the source for the lazily imported wrappers (their backends may be absent)."""
    lazy: dict[str, str] = getattr(package, "_LAZY", {})
    if name in lazy:
        path = Path(str(package.__file__)).with_name(f"{lazy[name]}.py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
        return ast.get_docstring(node) or ""
    return getattr(package, name).__doc__ or ""


def test_every_public_wrapper_has_an_example() -> None:
    import reference.wrappers as wrappers

    names = [name for name in wrappers.__all__ if name != "vector"]
    missing = [name for name in names if ">>>" not in _docstring(wrappers, name)]
    assert missing == []
