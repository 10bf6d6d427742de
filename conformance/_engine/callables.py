"""Objects that cross interpreters: where a Python object lives as seen from a fresh interpreter, and targets shipped pickled when they cannot be imported by path.

**Import paths.** Where a Python object lives, as seen from a fresh interpreter: its import path, or why it has none.

``conformance.check_env`` runs the suite in a child interpreter that gets this process's ``sys.path``. An object the
child can import by ``module:qualname`` is passed as an ordinary ``--env`` target (the reproducer then imports it as
any other); anything else — an instance, a lambda, a class defined in a notebook, a script's ``__main__`` or inside a
test function, a module pytest imported with ``--import-mode=importlib`` — travels pickled, and these helpers name it
for the reproducer.

**Pickled targets.** Targets that reach the suite pickled: what ``conformance.check_env`` was given when it cannot be imported by path.

The calling process writes a *shipment* (:func:`ship`): the object pickled with cloudpickle (by value where its module
cannot be imported) and a JSON manifest naming it for reports and reproducers. It runs the suite with the target
option set to :data:`SPEC` and the environment variable :data:`ENV_VAR` set to the manifest's path; the suite's
target parser (:mod:`conformance._engine.targets`) turns that into a :class:`~conformance._engine.targets.Target`
with :func:`pickled_target`. Every construction unpickles a fresh copy, so no two instances share state, exactly as
if a class had been called twice.

A factory (class, function, lambda, ``functools.partial``) is called with the construction's keyword arguments. An
instance is returned as its copy; it cannot be built in another render mode, so a construction that asks for one is
not checkable and its item skips, saying to pass a class or factory to check those rules.
"""

from __future__ import annotations

import inspect
import json
import os
import pickle
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, cast

from conformance._engine.outcomes import NotCheckable
from conformance._engine.targets import Kind, Target

__all__ = [
    "ENV_VAR",
    "Manifest",
    "SPEC",
    "call_name",
    "import_path",
    "location",
    "module_importable",
    "pickled_target",
    "ship",
    "unimportable_modules",
]


# --- Import paths --------------------------------------------------------------------------------------------------

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


# --- Pickled targets -----------------------------------------------------------------------------------------------

SPEC = "conformance._engine.callables:target"
"""The target option value that names the shipped object (``--env``, ``--vector-env`` or ``--func-env``)."""

ENV_VAR = "CONFORMANCE_PICKLED"
"""The environment variable holding the manifest's path."""

_PAYLOAD = "target.pickle"
_MANIFEST = "target.json"


class _CloudPickle(Protocol):
    """The part of the ``cloudpickle`` module used here (it ships no type information)."""

    def list_registry_pickle_by_value(self) -> set[str]: ...
    def register_pickle_by_value(self, module: ModuleType) -> None: ...
    def unregister_pickle_by_value(self, module: ModuleType) -> None: ...
    def dumps(self, obj: object) -> bytes: ...


@dataclass(frozen=True)
class Manifest:
    """How the shipped object is named and built.

    Attributes:
        id: The target id shown in reports (``"module:qualname"``, with ``" instance"`` for an instance).
        callee: Source of the callable the reproducer calls.
        call_args: Source of its leading positional arguments.
        imports: Lines at the top of the reproducer (imports, and a comment saying what the callee stands for).
        what: The object in a sentence, for messages (``"the class MyEnv defined in test_envs.py:12"``).
        instance: Whether the object is an instance (returned as a copy) rather than a factory (called).
        render_mode: The instance's own ``render_mode`` (``None`` for factories).
        payload: The pickle's file name, beside the manifest.
    """

    id: str
    callee: str
    what: str
    imports: tuple[str, ...] = ()
    call_args: tuple[str, ...] = ()
    instance: bool = False
    render_mode: str | None = None
    payload: str = _PAYLOAD


def ship(obj: object, manifest: Manifest, directory: Path, *, by_value: Sequence[ModuleType] = ()) -> Path:
    """Pickle ``obj`` into ``directory`` and write the manifest beside it.

    Args:
        obj: The factory or instance.
        manifest: Its names (``payload`` is where the pickle goes, relative to ``directory``).
        directory: An existing directory that outlives the suite's run.
        by_value: Modules whose classes and functions must travel by value (the child cannot import them).

    Returns:
        The manifest's path, the value of :data:`ENV_VAR`.

    Raises:
        TypeError: If cloudpickle cannot pickle ``obj``.
    """
    import cloudpickle as untyped  # pyright: ignore[reportMissingTypeStubs] - typed by _CloudPickle

    cloudpickle = cast("_CloudPickle", untyped)
    registered = [module for module in by_value if module.__name__ not in cloudpickle.list_registry_pickle_by_value()]
    for module in registered:
        cloudpickle.register_pickle_by_value(module)
    try:
        data = cloudpickle.dumps(obj)
    except Exception as exc:  # noqa: BLE001 - pickling runs arbitrary __reduce__ code; any failure means the same
        raise TypeError(
            f"check_env target must be picklable with cloudpickle when it is {manifest.what}, got {obj!r} "
            f"({type(exc).__name__}: {exc}). Hint: pass its class or a factory that builds it"
        ) from exc
    finally:
        for module in registered:
            cloudpickle.unregister_pickle_by_value(module)
    (directory / manifest.payload).write_bytes(data)
    path = directory / _MANIFEST
    path.write_text(json.dumps(asdict(manifest)), encoding="utf-8")
    return path


def _load_manifest(path: str) -> tuple[Manifest, Path]:
    data: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    data["imports"] = tuple(data.get("imports", ()))
    data["call_args"] = tuple(data.get("call_args", ()))
    return Manifest(**data), Path(path).parent / data.get("payload", _PAYLOAD)


class _Factory:
    """Builds one instance per call from the pickle (read once per process; forked item processes share it)."""

    def __init__(self, manifest: Manifest, payload: Path) -> None:
        self._manifest = manifest
        self._payload = payload
        self._data: bytes | None = None

    def _fresh(self) -> Any:
        if self._data is None:
            self._data = self._payload.read_bytes()
        try:
            return pickle.loads(self._data)  # noqa: S301 - our own pickle, written by this run's caller
        except Exception as exc:
            raise RuntimeError(
                f"check_env could not rebuild {self._manifest.what} in the suite's process "
                f"({type(exc).__name__}: {exc}). Hint: define it in a module this interpreter can import"
            ) from exc

    def __call__(self, **kwargs: Any) -> Any:
        obj = self._fresh()
        if not self._manifest.instance:
            return obj(**kwargs)
        own = self._manifest.render_mode
        mode = kwargs.pop("render_mode", own)
        if mode != own:
            raise NotCheckable(
                f"it needs an env built with render_mode={mode!r}, and check_env was given an instance (render_mode="
                f"{own!r}); pass the class, or a factory taking render_mode, to check this rule"
            )
        if kwargs:
            raise NotCheckable(
                f"it needs an env built with {', '.join(f'{key}=...' for key in kwargs)}, and check_env was given an "
                "instance; pass the class or a factory to check this rule"
            )
        return obj


def pickled_target(kind: Kind, kwargs: Mapping[str, Any]) -> Target:
    """The target :data:`SPEC` names, from the manifest at :data:`ENV_VAR`.

    Args:
        kind: The kind the option gave it.
        kwargs: ``--env-kwargs`` (for factories; an instance is built with its own render mode only).

    Returns:
        The target; an unavailable one (every item skips) when the variable is unset or the manifest unreadable.
    """
    path = os.environ.get(ENV_VAR)
    try:
        if not path:
            raise FileNotFoundError(f"the environment variable {ENV_VAR} is not set")
        manifest, payload = _load_manifest(path)
    except (OSError, ValueError, TypeError) as exc:
        return _unavailable(kind, f"{SPEC} names the object conformance.check_env ships, and there is none: {exc}")
    own: dict[str, Any] = {} if manifest.render_mode is None else {"render_mode": manifest.render_mode}
    factory: Callable[..., Any] = _Factory(manifest, payload)
    return Target(
        id=manifest.id,
        kind=kind,
        factory=factory,
        imports=manifest.imports,
        callee=manifest.callee,
        call_args=manifest.call_args,
        kwargs=own if manifest.instance else dict(kwargs),
        fixed=manifest.instance,
    )


def _unavailable(kind: Kind, reason: str) -> Target:
    def factory(**kw: Any) -> Any:
        raise RuntimeError(reason)

    return Target(id=SPEC, kind=kind, factory=factory, imports=(), callee="", unavailable=reason)
