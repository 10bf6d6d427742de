"""Objects that cross interpreters, and how ``conformance.check_env`` names its target: import paths as a fresh
interpreter sees them, targets shipped pickled, and the launch of a check.

**Import paths.** Where a Python object lives, as seen from a fresh interpreter: its import path, or why it has none.

``conformance.check_env`` runs the suite in a child interpreter that gets this process's ``sys.path``. An object the
child can import by ``module:qualname`` is passed as an ordinary ``--env`` target (the reproducer then imports it as
any other); anything else — an instance, a lambda, a class defined in a notebook, a script's ``__main__`` or inside a
test function, a module pytest imported with ``--import-mode=importlib`` — travels pickled, and these helpers name it
for the reproducer.

**Pickled targets.** Targets that reach the suite pickled: what ``conformance.check_env`` was given when it cannot be
imported by path.

The calling process writes a *shipment* (:func:`ship`): the object pickled with cloudpickle (by value where its module
cannot be imported) and a JSON manifest naming it for reports and reproducers. It runs the suite with the target
option set to :data:`SPEC` and the environment variable :data:`ENV_VAR` set to the manifest's path; the suite's
target parser (:mod:`conformance._engine.targets`) turns that into a :class:`~conformance._engine.targets.Target`
with :func:`pickled_target`. Every construction unpickles a fresh copy, so no two instances share state, exactly as
if a class had been called twice.

A factory (class, function, lambda, ``functools.partial``) is called with the construction's keyword arguments. An
instance is returned as its copy; it cannot be built in another render mode, so a construction that asks for one is
not checkable and its item skips, saying to pass a class or factory to check those rules.

**Launch.** How ``conformance.check_env`` names its target to the suite: one target option, and what travels beside it.

A string is what the command line takes (a ``module:attr`` path or a registered id); a class or function a fresh
interpreter can import becomes its ``module:qualname`` path; anything else is shipped pickled
(:mod:`conformance._engine.callables`). The target's kind — env, vector env or FuncEnv — is read from its shape when
the caller does not say it.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import pickle
import sys
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, cast

from conformance._engine.options import classify
from conformance._engine.outcomes import NotCheckable
from conformance._engine.targets import Kind, Target, registry_module

__all__ = [
    "ENV_VAR",
    "Launch",
    "Manifest",
    "SPEC",
    "Shipment",
    "call_name",
    "factory_kind",
    "import_path",
    "launch_for",
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


# --- Launch --------------------------------------------------------------------------------------------------------

_VECTORIZATION_MODES = ("sync", "async", "vector_entry_point")
_OPTION: dict[Kind, str] = {"env": "--env", "vector": "--vector-env", "func": "--func-env"}
_FUNC_MEMBERS = ("initial", "transition", "observation", "reward", "terminal")
_VECTOR_MEMBERS = ("num_envs", "single_action_space", "single_observation_space")


@dataclass(frozen=True)
class Shipment:
    """An object to pickle for the suite's process.

    Attributes:
        obj: The factory or instance.
        manifest: Its names and how it is built.
        by_value: Modules whose members must be pickled by value (the suite's process cannot import them).
    """

    obj: object
    manifest: Manifest
    by_value: tuple[ModuleType, ...] = ()


@dataclass(frozen=True)
class Launch:
    """The suite's arguments for one target.

    Attributes:
        option: The target option (``--env``, ``--env-id``, ``--vector-env``, ``--vector-env-id``, ``--func-env``).
        spec: Its value.
        args: Options that go with it (``--registry``, ``--vectorization-mode``).
        shipment: The object to pickle when ``spec`` is :data:`~conformance._engine.callables.SPEC`.
    """

    option: str
    spec: str
    args: tuple[str, ...] = ()
    shipment: Shipment | None = None


def _has_members(obj: object, names: Iterable[str]) -> bool:
    return all(callable(getattr(obj, name, None)) for name in names)


def _annotated(cls: type, names: Iterable[str]) -> bool:
    wanted = set(names)
    return any(wanted & set(vars(klass).get("__annotations__", {})) for klass in cls.__mro__)


def _takes_num_envs(factory: typing.Callable[..., object]) -> bool:
    try:
        return "num_envs" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def factory_kind(factory: typing.Callable[..., object]) -> Kind:
    """Tell a class's or factory's kind from its shape.

    A class with ``initial``, ``transition``, ``observation``, ``reward`` and ``terminal`` builds FuncEnvs; one that
    takes a ``num_envs`` argument, or annotates ``num_envs`` or ``single_*_space``, builds vector envs; a function
    that takes ``num_envs`` builds vector envs, and one whose return annotation is a class builds what that class
    is. Everything else builds envs.
    """
    if isinstance(factory, type):
        if _has_members(factory, _FUNC_MEMBERS):
            return "func"
        if _takes_num_envs(factory) or _annotated(factory, _VECTOR_MEMBERS):
            return "vector"
        return "env"
    if _takes_num_envs(factory):
        return "vector"
    try:
        returned = typing.get_type_hints(factory).get("return")
    except Exception:  # noqa: BLE001 - an annotation that cannot be resolved tells nothing
        returned = None
    return factory_kind(returned) if isinstance(returned, type) else "env"


def _instance_kind(obj: object) -> Kind | None:
    if _has_members(obj, _FUNC_MEMBERS):
        return "func"
    if hasattr(obj, "num_envs"):
        return "vector"
    if _has_members(obj, ("reset", "step")):
        return "env"
    return None


def _string_launch(target: str, kind: Kind | None, registry: str | None, mode: str | None) -> Launch:
    option, _ = classify(target)
    if option == "--env":  # a "module:attr" path to a callable; classify imported the module
        if registry is not None or mode is not None:
            raise ValueError(f"check_env registry and vectorization_mode apply to registered ids, got {target!r}")
        module_name, _, attr_path = target.partition(":")
        obj: object = sys.modules[module_name]
        for part in attr_path.split("."):
            obj = getattr(obj, part)
        return Launch(_OPTION[kind or (factory_kind(obj) if callable(obj) else "env")], target)
    if kind == "func":
        raise ValueError(
            f"check_env target must be a FuncEnv, its class or factory, or a 'module:attr' path to one when kind is "
            f"'func', got {target!r} (registered ids make envs, not FuncEnvs)"
        )
    vector = kind == "vector"
    if mode is not None and not vector:
        raise ValueError(f"check_env vectorization_mode applies to vector ids (kind='vector'), got kind={kind!r}")
    if mode is not None and mode not in _VECTORIZATION_MODES:
        raise ValueError(f"check_env vectorization_mode must be one of {list(_VECTORIZATION_MODES)}, got {mode!r}")
    args: list[str] = []
    if registry is not None:
        registry_module(registry, vector=vector)  # raises TargetSpecError (a ValueError) saying what is wrong
        args += ["--registry", registry]
    if mode is not None:
        args += ["--vectorization-mode", mode]
    return Launch("--vector-env-id" if vector else "--env-id", target, tuple(args))


def _factory_launch(factory: typing.Callable[..., object], kind: Kind | None) -> Launch:
    option = _OPTION[kind or factory_kind(factory)]
    path = import_path(factory)
    if path is not None:
        return Launch(option, path)
    inner = getattr(factory, "func", factory)  # functools.partial: name the function it binds
    qualname = getattr(inner, "__qualname__", type(factory).__qualname__)
    module = getattr(inner, "__module__", type(factory).__module__)
    noun = "class" if isinstance(factory, type) else "function" if inspect.isfunction(factory) else "callable"
    name = call_name(factory)
    what = f"the {noun} {qualname} defined in {location(factory)}"
    # Tested outside a condition, which would narrow `factory` to partial[Unknown] for pyright from here on.
    partial = isinstance(factory, functools.partial)
    manifest = Manifest(
        id=f"{module}:{qualname}" + (" (partial)" if partial else ""),
        callee=name,
        what=what,
        imports=(f"# {name}: {what}, which cannot be imported by path: define it here",),
    )
    return Launch(option, SPEC, shipment=Shipment(factory, manifest, tuple(unimportable_modules(factory))))


def _instance_launch(instance: object, kind: Kind | None) -> Launch:
    found = _instance_kind(instance)
    cls = type(instance)
    if found is None:
        raise TypeError(
            "check_env target must be an env or FuncEnv instance, a class or factory of an env, vector env or "
            f"FuncEnv, a registered id or a 'module:attr' path, got {instance!r}"
        )
    if found == "vector" or kind == "vector":
        raise TypeError(
            "check_env target must be a vector env's class or factory (the suite builds its own, with num_envs=4), "
            f"got an instance of {cls.__qualname__}. Hint: pass a function taking num_envs"
        )
    try:
        mode = getattr(instance, "render_mode", None)
    except Exception:  # noqa: BLE001 - RENDER-001 reports an unreadable render_mode; ship the instance as mode-less
        mode = None
    manifest = Manifest(
        id=f"{cls.__module__}:{cls.__qualname__} instance",
        callee="copy.deepcopy",
        call_args=("instance",),
        what=f"a {cls.__qualname__} instance",
        imports=("import copy", f"# instance: the {cls.__qualname__} given to check_env (each construction checked a "
                 "fresh copy of it)"),
        instance=True,
        render_mode=mode if isinstance(mode, str) else None,
    )
    shipment = Shipment(instance, manifest, tuple(unimportable_modules(instance)))
    return Launch(_OPTION[kind or found], SPEC, shipment=shipment)


def launch_for(target: object, kind: Kind | None, registry: str | None, mode: str | None) -> Launch:
    """The suite's arguments for a ``check_env`` target.

    Args:
        target: A string (``module:attr`` or a registered id), a class or factory, or an instance.
        kind: The kind the caller gave, if any.
        registry: ``--registry`` for ids.
        mode: ``--vectorization-mode`` for vector ids.

    Raises:
        TypeError: If the target is none of those, or a vector env instance.
        ValueError: If ``registry`` or ``mode`` do not fit the target.
    """
    if isinstance(target, str):
        return _string_launch(target, kind, registry, mode)
    if registry is not None or mode is not None:
        raise ValueError(
            f"check_env registry and vectorization_mode apply to registered ids (strings), got {target!r}"
        )
    if isinstance(target, type) or (callable(target) and _instance_kind(target) is None):
        return _factory_launch(target, kind)
    return _instance_launch(target, kind)
