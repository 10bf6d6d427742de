"""Where a Python object lives, as seen from a fresh interpreter: its import path, or why it has none.

``conformance.check_env`` runs the suite in a child interpreter that gets this process's ``sys.path``. An object the
child can import by ``module:qualname`` is passed as an ordinary ``--env`` target (the reproducer then imports it as
any other); anything else — an instance, a lambda, a class defined in a notebook, a script's ``__main__`` or inside a
test function, a module pytest imported with ``--import-mode=importlib`` — travels pickled, and these helpers name it
for the reproducer.
"""

from __future__ import annotations

import inspect
import os
import sys
from importlib.machinery import ModuleSpec
from types import ModuleType

__all__ = ["call_name", "import_path", "location", "module_importable", "unimportable_modules"]

_FALLBACK_NAME = "factory"


def _finders_spec(name: str, path: list[str] | None) -> ModuleSpec | None:
    # The finders a fresh interpreter has too (site's .pth files install editable-install finders), asked directly:
    # importlib.util.find_spec would answer from sys.modules, which knows modules no path leads to.
    for finder in sys.meta_path:
        find_spec = getattr(finder, "find_spec", None)
        if find_spec is None:
            continue
        try:
            spec = find_spec(name, path)
        except Exception:  # noqa: BLE001, S112 - a finder that cannot answer does not find it
            continue
        if isinstance(spec, ModuleSpec):
            return spec
    return None


def _same_file(first: str | None, second: str | None) -> bool:
    if first is None or second is None:
        return first == second
    try:
        return os.path.samefile(first, second)
    except OSError:
        return False


def module_importable(name: str) -> bool:
    """Whether ``import name`` in a fresh interpreter with this ``sys.path`` loads the module loaded here.

    Args:
        name: A loaded module's name.

    Returns:
        ``False`` for ``__main__``, for modules not loaded here, and for modules no finder reaches by that name
        (or reaches at another file).
    """
    module = sys.modules.get(name)
    if name == "__main__" or module is None:
        return False
    parent, _, _ = name.rpartition(".")
    search: list[str] | None = None
    if parent:
        if not module_importable(parent):
            return False
        search = list(getattr(sys.modules[parent], "__path__", []))
    spec = _finders_spec(name, search)
    if spec is None:
        return False
    return _same_file(spec.origin if spec.has_location else None, getattr(module, "__file__", None))


def _resolve(module: ModuleType, qualname: str) -> object:
    found: object = module
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


def import_path(obj: object) -> str | None:
    """``"module:qualname"`` when a fresh interpreter imports ``module`` and finds ``obj`` itself at ``qualname``.

    Args:
        obj: A class or function.

    Returns:
        The path, or ``None`` (a lambda, a local class, an object of ``__main__`` or of an unimportable module).
    """
    module_name = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module_name, str) or not isinstance(qualname, str) or "<" in qualname:
        return None
    if not module_importable(module_name):
        return None
    try:
        found = _resolve(sys.modules[module_name], qualname)
    except AttributeError:
        return None
    return f"{module_name}:{qualname}" if found is obj else None


def unimportable_modules(obj: object) -> list[ModuleType]:
    """The loaded modules that define ``obj`` (or its class) and that a fresh interpreter cannot import.

    Their classes and functions must be pickled by value. ``__main__`` is left out: cloudpickle pickles its
    members by value already.
    """
    owners = [obj] if isinstance(obj, type) or callable(obj) else [type(obj)]
    inner = getattr(obj, "func", None)  # functools.partial
    if inner is not None:
        owners.append(inner)
    found: list[ModuleType] = []
    for owner in owners:
        name = getattr(owner, "__module__", None)
        module = sys.modules.get(name) if isinstance(name, str) else None
        if module is None or name == "__main__" or module in found or module_importable(module.__name__):
            continue
        found.append(module)
    return found


def call_name(obj: object) -> str:
    """The name a reproducer calls ``obj`` by: its ``__name__`` when that is an identifier, else ``"factory"``."""
    name = getattr(obj, "__name__", None)
    return name if isinstance(name, str) and name.isidentifier() else _FALLBACK_NAME


def location(obj: object) -> str:
    """Where ``obj`` (a class or function) is defined, for a comment: ``"path/to/file.py:12"`` or its module."""
    target = getattr(obj, "func", obj)  # functools.partial
    try:
        path = inspect.getsourcefile(target)  # type: ignore[arg-type]
        _, line = inspect.getsourcelines(target)  # type: ignore[arg-type]
    except (TypeError, OSError):
        module = getattr(target, "__module__", None)
        return f"module {module}" if isinstance(module, str) else "an unknown place"
    if path is None:
        return "an unknown place"
    try:
        shown = os.path.relpath(path)
    except ValueError:  # another drive, on Windows
        shown = path
    return f"{shown if not shown.startswith('..') else path}:{line}"
