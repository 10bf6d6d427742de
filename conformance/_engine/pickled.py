"""Targets that reach the suite pickled: what ``conformance.check_env`` was given when it cannot be imported by path.

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

import json
import os
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, cast

from conformance._engine.outcomes import NotCheckable
from conformance._engine.targets import Kind, Target

__all__ = ["ENV_VAR", "SPEC", "Manifest", "pickled_target", "ship"]

SPEC = "conformance._engine.pickled:target"
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
