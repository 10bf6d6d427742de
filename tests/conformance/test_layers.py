"""The conformance package's layers only point down: a suite module imports the check API
(:mod:`conformance._kit.api`) and nothing else of conformance; the engine and the kit never import the plugin, the
public front ends, the check API or the suite's test modules; :mod:`conformance.results` (the record every layer
shares) imports nothing of the suite; and no two modules import each other, directly or round a longer loop."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path

import conformance

_ROOT = Path(conformance.__file__).parent
_FACE = "conformance._kit.api"
_ABOVE = ("conformance.plugin", "conformance.check", "conformance.__main__", "conformance.conftest", _FACE)


def _name(path: Path) -> str:
    parts = path.relative_to(_ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, *, anywhere: bool) -> Iterator[str]:
    """The conformance modules ``path`` imports: at module level (``anywhere``: also inside functions), never those
    under ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = ast.walk(tree) if anywhere else iter(tree.body)
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("conformance"):
            yield node.module
            # "from conformance import rule_warnings" imports a module too
            yield from (f"{node.module}.{alias.name}" for alias in node.names
                        if (_ROOT.parent / f"{node.module}.{alias.name}".replace(".", "/")).with_suffix(".py").exists())
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name.startswith("conformance"))


_MODULES = {_name(path): path for path in _ROOT.rglob("*.py")}


def test_the_engine_and_the_kit_never_import_what_sits_above_them() -> None:
    wrong = {
        name: sorted(m for m in _imports(path, anywhere=True)
                     if m in _ABOVE or m.rsplit(".", 1)[-1].startswith("test_"))
        for name, path in _MODULES.items()
        if name.startswith(("conformance._engine", "conformance._kit")) and name != _FACE
    }
    assert {name: found for name, found in wrong.items() if found} == {}


_SUITES = {name: path for name, path in _MODULES.items() if name.rsplit(".", 1)[-1].startswith("test_")}


def test_a_suite_module_imports_only_the_check_api() -> None:
    # One face for the checks: a reader finds every name a check uses in one module, grouped by idiom, and a kit
    # or engine module can change behind it without touching the suites.
    wrong = {name: sorted(m for m in _imports(path, anywhere=True) if m != _FACE)
             for name, path in _SUITES.items()}
    assert {name: found for name, found in wrong.items() if found} == {}


def test_the_check_api_exports_what_the_suites_use_in_sorted_order() -> None:
    face = importlib.import_module(_FACE)
    exported: list[str] = list(face.__all__)
    used = {alias.name for path in _SUITES.values() for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.module == _FACE for alias in node.names}
    assert exported == sorted(exported)
    # A name no suite imports is a dead export; a name the face lacks fails the suite's import already.
    assert sorted(set(exported) - used) == []


def test_the_record_module_depends_on_nothing_of_the_suite() -> None:
    assert sorted(_imports(_MODULES["conformance.results"], anywhere=True)) == []


def test_no_import_cycles() -> None:
    graph = {name: {m for m in _imports(path, anywhere=False) if m in _MODULES and m != name}
             for name, path in _MODULES.items()}
    # A package's own __init__ importing its submodules is no cycle with them.
    for name in graph:
        graph[name] -= {parent for parent in graph if name.startswith(parent + ".")}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def _late_imports(path: Path) -> Iterator[tuple[int, str]]:
    """Imports inside functions with no comment saying why: none on their line, none on the line above their block
    of imports (a ``try:`` line with a comment counts)."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            above = node.lineno - 2
            while above >= 0 and lines[above].strip().startswith(("from ", "import ", ")")):
                above -= 1
            said = "#" in lines[node.lineno - 1] or (above >= 0 and "#" in lines[above])
            if not said:
                yield node.lineno, lines[node.lineno - 1].strip()


def test_an_import_inside_a_function_says_why_it_is_late() -> None:
    # An optional dependency, an import cycle or an import kept out of runs that never check a target: each is
    # deliberate and says so, so a reader can tell it from an import left behind.
    bare = {f"{name}:{line}": text for name, path in _MODULES.items() for line, text in _late_imports(path)}
    assert bare == {}
