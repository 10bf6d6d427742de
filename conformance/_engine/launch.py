"""How ``conformance.check_env`` names its target to the suite: one target option, and what travels beside it.

A string is what the command line takes (a ``module:attr`` path or a registered id); a class or function a fresh
interpreter can import becomes its ``module:qualname`` path; anything else is shipped pickled
(:mod:`conformance._engine.callables`). The target's kind — env, vector env or FuncEnv — is read from its shape when
the caller does not say it.
"""

from __future__ import annotations

import functools
import inspect
import sys
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType

from conformance._engine.callables import call_name, import_path, location, unimportable_modules
from conformance._engine.options import classify
from conformance._engine.callables import SPEC, Manifest
from conformance._engine.targets import Kind, registry_module

__all__ = ["Launch", "Shipment", "factory_kind", "launch_for"]

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
