"""Import paths as a fresh interpreter sees them, and the names a reproducer gives what has none."""

from __future__ import annotations

import functools
import importlib.util
import json
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance._engine.callables import call_name, import_path, location, module_importable, unimportable_modules
from tests.meta.broken._base import Walk


class Outer:
    """A class with a nested one, reachable by its dotted qualified name."""

    class Inner:
        """Nested."""


def _line() -> int:
    return sys._getframe(1).f_lineno


@pytest.fixture
def loose_module(tmp_path: Path) -> Iterator[types.ModuleType]:
    """A module loaded from a file under a name no finder knows (what pytest's importlib mode does)."""
    source = tmp_path / "loose.py"
    source.write_text("class Loose:\n    pass\n")
    spec = importlib.util.spec_from_file_location("loose_conformance_module", source)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_importable_objects_have_paths() -> None:
    assert import_path(Walk) == "tests.meta.broken._base:Walk"
    assert import_path(Outer.Inner) == f"{__name__}:Outer.Inner"
    assert import_path(json.dumps) == "json:dumps"


def test_objects_without_a_path() -> None:
    class Local:
        pass

    assert import_path(Local) is None
    assert import_path(lambda: None) is None
    assert import_path(functools.partial(Walk)) is None
    assert import_path(Walk()) is None


def test_module_importability(loose_module: types.ModuleType) -> None:
    assert module_importable("json") and module_importable("tests.meta.broken._base")
    assert not module_importable("__main__")
    assert not module_importable(loose_module.__name__)
    assert not module_importable("not_loaded_anywhere_xyz")
    assert import_path(loose_module.Loose) is None


def test_unimportable_modules_are_named_for_pickling_by_value(loose_module: types.ModuleType) -> None:
    assert unimportable_modules(loose_module.Loose) == [loose_module]
    assert unimportable_modules(loose_module.Loose()) == [loose_module]
    assert unimportable_modules(functools.partial(loose_module.Loose)) == [loose_module]
    assert unimportable_modules(Walk) == [] and unimportable_modules(Walk()) == []


def test_reproducer_names() -> None:
    assert call_name(Walk) == "Walk"
    assert call_name(lambda: None) == "factory"
    assert call_name(functools.partial(Walk)) == "factory"
    line = _line() + 2

    def here() -> None:
        """Defined on a known line."""

    assert location(here).endswith(f"test_callables.py:{line}")
    assert location(functools.partial(here)) == location(here)
    assert location(len) == "module builtins"
