"""What a class declares in its source, read from a fresh execution of its defining module.

Construction can change class attributes (a constructor that writes into the ``metadata`` dict it inherits), and the
suite meets a target only after its first construction. To know what a class declared, :func:`declared_attribute`
executes the class's module again into a new module object, which is never put in ``sys.modules`` (so nothing of
the running process is replaced), and reads the attribute from the class of the same qualified name there.
"""

from __future__ import annotations

import importlib.util
import warnings
from typing import Any

__all__ = ["Undeclared", "declared_attribute"]


class Undeclared(Exception):
    """The declaration cannot be read (an extension module, a module that fails to execute again, ...)."""


_FRESH: dict[str, Any] = {}


def _fresh_module(name: str) -> Any:
    if name in _FRESH:
        return _FRESH[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module") or spec.origin is None \
            or not spec.origin.endswith(".py"):
        raise Undeclared(f"module {name!r} has no Python source to execute again")
    module = importlib.util.module_from_spec(spec)
    try:
        with warnings.catch_warnings():
            # A module that registers its envs at import registers them again: Gymnasium warns about overriding.
            warnings.simplefilter("ignore")
            spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - whatever the module does, it cannot be read again
        raise Undeclared(f"module {name!r} cannot be executed again ({type(exc).__name__}: {exc})") from None
    _FRESH[name] = module
    return module


def declared_attribute(cls: type, name: str) -> Any:
    """The value ``cls.<name>`` has right after ``cls``'s module is executed, before any instance exists.

    Raises:
        Undeclared: If the module cannot be executed again or has no class of that qualified name.
    """
    module = _fresh_module(cls.__module__)
    found: Any = module
    for part in cls.__qualname__.split("."):
        if part == "<locals>" or not hasattr(found, part):
            raise Undeclared(f"{cls.__module__}.{cls.__qualname__} is not reachable from its module")
        found = getattr(found, part)
    if name not in getattr(found, "__dict__", {}):
        raise Undeclared(f"{cls.__module__}.{cls.__qualname__} declares no {name} in a fresh module")
    return found.__dict__[name]
