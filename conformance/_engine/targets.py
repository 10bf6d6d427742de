"""What the suite checks: the targets named on the command line, or, when none is, the reference's registered envs,
vector envs and functional envs.

**Targets.** What the suite checks: the targets named on the command line (or the reference's registered envs).

A :class:`Target` is a factory plus what the reproducer needs to rebuild it in a script. Nothing is imported or
constructed while parsing, so a target whose module or constructor is broken still yields items (and one clear
error, from the construction check) instead of a collection error. The one exception is a ``--registry`` given as
a module path: it is imported up front, because without its ``make`` no id target can exist.

Target kinds: ``env`` (``--env``, ``--env-id``, ``CONFORMANCE_ENV``), ``vector`` (``--vector-env``,
``--vector-env-id``) and ``func`` (``--func-env``); each test declares the kinds it checks. Any of the three options
may name ``conformance._engine.callables:target``, the object ``conformance.check_env`` ships when its target cannot be
imported by path (:mod:`conformance._engine.callables`).

**Default targets.** The reference's vector envs and functional envs: what the suite checks, besides its envs, when no
target is named.

Vector targets are made with the reference's ``make_vec``, so each reproducer is a single public call:

* ``SyncVectorEnv`` over ``FrozenLake-v1`` (short, slippery episodes with an info key) in each autoreset mode;
* ``AsyncVectorEnv`` (shared memory) over ``CartPole-v1`` in each autoreset mode;
* ``CartPole-v1``'s vector entry point (one batched functional env, no sub-env factories).

Functional targets are the ``FuncEnv`` classes of ``reference.envs.functional``.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from conformance._engine.describe import is_dict
from conformance._engine.record import source
from conformance._engine.sweep import Match, is_glob

__all__ = [
    "FUNC_TARGETS",
    "REGISTRIES",
    "Target",
    "TargetSpecError",
    "TargetsRequest",
    "VECTOR_NUM_ENVS",
    "VECTOR_TARGETS",
    "default_targets",
    "parse_kwargs",
    "reference_func_targets",
    "reference_vector_targets",
    "registry_module",
    "resolve_targets",
    "shard",
]


# --- Targets -------------------------------------------------------------------------------------------------------

_Kwargs: TypeAlias = dict[str, Any]
Kind: TypeAlias = Literal["env", "vector", "func"]
Expander: TypeAlias = Callable[[str, "str | None", str, bool], "list[Match]"]
"""``(registry module, module to import first, id pattern, vector) -> matches`` (see :mod:`.sweep`)."""

REGISTRIES: dict[str, str] = {"reference": "reference.registration", "gymnasium": "gymnasium"}
"""Registry name → the module whose ``make``/``make_vec`` resolve ids (``--registry`` also takes a module path)."""

VECTOR_NUM_ENVS = 4
"""``num_envs`` of every vector target construction (enough for sub-envs at different points of their episodes)."""

_PICKLED = "conformance._engine.callables:target"  # pickled.SPEC (pickled imports this module)
_ATTR_PATH = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
_IDENTIFIER_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class TargetSpecError(ValueError):
    """A target option is malformed (reported as a usage error)."""


@dataclass(frozen=True)
class Target:
    """One thing to check, with a factory and the source lines that rebuild it.

    Attributes:
        id: The name shown in node ids and reports (what the user typed, made unique).
        kind: ``"env"``, ``"vector"`` or ``"func"``.
        factory: Called with keyword arguments (``render_mode=...``, ``num_envs=...``) to build one instance;
            the target's ``kwargs`` are already bound.
        imports: Import lines the reproducer needs.
        callee: Source of the callable the reproducer calls, e.g. ``"gymnasium.make"``.
        call_args: Source of its leading positional arguments, e.g. ``("'CartPole-v1'",)``.
        kwargs: Extra keyword arguments given to every construction (``--env-kwargs``).
        unavailable: Why the target cannot exist at all (then every item skips with this reason).
        env_id: The registered id it is made from (``--env-id``, ``--vector-env-id``), else ``None``.
        registry: The module whose ``make``/``make_vec`` make it (set with ``env_id``).
        fixed: Whether every construction returns a copy of one given object (an instance passed to
            ``conformance.check_env``): such a factory takes no arguments of its own, so the reproducer shows none.
    """

    id: str
    kind: Kind
    factory: Callable[..., Any]
    imports: tuple[str, ...]
    callee: str
    call_args: tuple[str, ...] = ()
    kwargs: Mapping[str, Any] = field(default_factory=dict[str, Any])
    unavailable: str | None = None
    env_id: str | None = None
    registry: str | None = None
    fixed: bool = False

    @property
    def default_render_mode(self) -> str | None:
        """The render mode a construction that names none receives: one bound in ``kwargs``, else ``None``."""
        mode = self.kwargs.get("render_mode")
        return mode if isinstance(mode, str) else None

    @property
    def base_kwargs(self) -> dict[str, Any]:
        """Keyword arguments every construction of this kind needs (vector envs get ``VECTOR_NUM_ENVS``)."""
        return {"num_envs": VECTOR_NUM_ENVS} if self.kind == "vector" else {}

    def construct(self, **extra: Any) -> Any:
        """Build a new instance with the kind's base kwargs, the target's kwargs and ``extra``."""
        return self.factory(**{**self.base_kwargs, **self.kwargs, **extra})

    def constructor_source(self, **extra: Any) -> str:
        """Source of the expression :meth:`construct` evaluates, for the reproducer."""
        merged = {} if self.fixed else {**self.base_kwargs, **self.kwargs, **extra}
        args = [*self.call_args, *(f"{key}={source(value)}" for key, value in merged.items())]
        return f"{self.callee}({', '.join(args)})"


@dataclass(frozen=True)
class TargetsRequest:
    """Everything the options say about targets (lists are in command-line order)."""

    envs: Sequence[str] = ()
    env_var_envs: Sequence[str] = ()
    env_ids: Sequence[str] = ()
    vector_envs: Sequence[str] = ()
    vector_env_ids: Sequence[str] = ()
    func_envs: Sequence[str] = ()
    registry: str = "reference"
    vectorization_mode: str | None = None
    env_kwargs: Mapping[str, Any] = field(default_factory=dict[str, Any])
    expander: Expander | None = None
    """How id globs are expanded (:func:`conformance._engine.sweep.expand`, isolated or not); ``None``: globs
    are only checked for form (when validating options before the run)."""


def parse_kwargs(text: str | None) -> _Kwargs:
    """Parse ``--env-kwargs``.

    Args:
        text: A JSON object, or ``None``/empty for no kwargs.

    Returns:
        The decoded keyword arguments.

    Raises:
        TargetSpecError: If the text is not a JSON object with string keys.
    """
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise TargetSpecError(f"--env-kwargs must be a JSON object, got {text!r} ({exc})") from None
    if not is_dict(value):
        raise TargetSpecError(f"--env-kwargs must be a JSON object, got {text!r}")
    return value


def _resolve_attr(path: str) -> Any:
    module_name, _, attr_path = path.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in attr_path.split("."):
        obj = getattr(obj, part)
    return obj


def _attr_target(spec: str, kind: Kind, kwargs: Mapping[str, Any], source_name: str = "") -> Target:
    if spec == _PICKLED:  # what conformance.check_env ships when its target cannot be imported by path
        from conformance._engine.callables import pickled_target  # late: callables imports this module

        return pickled_target(kind, kwargs)
    if not _ATTR_PATH.match(spec):
        name = source_name or f"--{'env' if kind == 'env' else kind + '-env'}"
        raise TargetSpecError(
            f"{name} must be 'pkg.module:attr' (an importable module, a colon, an attribute), got {spec!r}"
        )
    module_name, _, attr_path = spec.partition(":")
    head = attr_path.split(".")[0]

    def factory(**kw: Any) -> Any:
        return _resolve_attr(spec)(**kw)

    return Target(
        id=spec,
        kind=kind,
        factory=factory,
        imports=(f"from {module_name} import {head}",),
        callee=attr_path,
        kwargs=dict(kwargs),
    )


def _split_id(spec: str) -> tuple[str | None, str]:
    """``"module:ID"`` → (module, ID); a bare id has no module."""
    module, sep, env_id = spec.partition(":")
    if sep and _IDENTIFIER_PATH.match(module):
        return module, env_id
    return None, spec


def registry_module(registry: str, *, vector: bool = False) -> str:
    """The module whose ``make`` (and ``make_vec``) resolve ids for ``--registry``.

    A name of :data:`REGISTRIES` maps to its module, which is not imported here (a missing Gymnasium surfaces at
    construction, per target). Anything else is an importable module path whose module must have a callable
    ``make``, and a callable ``make_vec`` too when ``vector`` ids are to be made; it is imported to check that.

    Args:
        registry: What ``--registry`` says: ``"reference"``, ``"gymnasium"`` or a module path such as
            ``"mypkg.envs"``.
        vector: Whether ``make_vec`` is needed (``--vector-env-id`` was given).

    Returns:
        The module's import path.

    Raises:
        TargetSpecError: If ``registry`` is neither a known name nor a module with what is needed.
    """
    known = REGISTRIES.get(registry)
    if known is not None:
        return known
    expectation = f"one of {sorted(REGISTRIES)} or an importable module path"
    if not _IDENTIFIER_PATH.match(registry):
        raise TargetSpecError(f"--registry must be {expectation}, got {registry!r}")
    try:
        module = importlib.import_module(registry)
    except Exception as exc:  # noqa: BLE001 - whatever the import raised, the option cannot be used
        raise TargetSpecError(
            f"--registry must be {expectation}, got {registry!r} (importing it raised {type(exc).__name__}: {exc})"
        ) from None
    needed = ("make", "make_vec") if vector else ("make",)
    missing = [name for name in needed if not callable(getattr(module, name, None))]
    if missing:
        raise TargetSpecError(
            f"--registry must be a module with a callable {' and '.join(needed)}, got {registry!r} "
            f"(it has no callable {' or '.join(missing)}). Hint: name the module that defines make(id, **kwargs)"
            f"{' and make_vec(id, num_envs=..., **kwargs)' if vector else ''}, e.g. --registry reference.registration"
        )
    return registry


def _id_target(spec: str, registry: str, kwargs: Mapping[str, Any], *, vector_mode: str | None = None) -> Target:
    module, env_id = _split_id(spec)
    vector = vector_mode is not None
    registry_path = registry_module(registry, vector=vector)

    def factory(**kw: Any) -> Any:
        if module is not None:
            importlib.import_module(module)  # registers its ids, as make("module:ID") does
        registry_mod = importlib.import_module(registry_path)
        if vector:
            extra = {} if not vector_mode else {"vectorization_mode": vector_mode}
            return registry_mod.make_vec(env_id, **extra, **kw)
        return registry_mod.make(env_id, **kw)

    imports = [f"import {module}"] if module is not None else []
    call = "make_vec" if vector else "make"
    if registry == "gymnasium":
        imports.append("import gymnasium")
        prefix = f"gymnasium.{call}"
    else:
        imports.append(f"from {registry_path} import {call}")
        prefix = call
    call_args = (repr(env_id),) + ((f"vectorization_mode={vector_mode!r}",) if vector and vector_mode else ())
    target_id = spec if registry == "reference" else f"{registry}/{spec}"
    if vector:  # the same id may be an env target too
        target_id += f"/{vector_mode or 'make_vec'}"
    return Target(
        id=target_id,
        kind="vector" if vector else "env",
        factory=factory,
        imports=tuple(imports),
        callee=prefix,
        call_args=call_args,
        kwargs=dict(kwargs),
        env_id=env_id,
        registry=registry_path,
    )


def _id_targets(spec: str, request: TargetsRequest, *, vector_mode: str | None = None) -> list[Target]:
    """The targets of one ``--env-id``/``--vector-env-id``: one id, or every id a glob matches."""
    kwargs = request.env_kwargs
    module, env_id = _split_id(spec)
    if not is_glob(env_id):
        return [_id_target(spec, request.registry, kwargs, vector_mode=vector_mode)]
    flag = "--vector-env-id" if vector_mode is not None else "--env-id"
    if request.expander is None:
        return []  # only validating: the sweep runs when the session resolves its targets
    registry_path = registry_module(request.registry, vector=vector_mode is not None)
    try:
        matches = request.expander(registry_path, module, env_id, vector_mode is not None)
    except LookupError as exc:
        raise TargetSpecError(f"{flag} {spec!r} could not be expanded: {exc}") from None
    if not matches:
        raise TargetSpecError(
            f"{flag} must match at least one registered id, got {spec!r} (no id of {registry_path!r} matches "
            f"{env_id!r}{' after importing ' + repr(module) if module else ''})"
        )
    targets: list[Target] = []
    for match in matches:
        found = _id_target(f"{module}:{match.env_id}" if module else match.env_id, request.registry, kwargs,
                           vector_mode=vector_mode)
        if match.unavailable:
            found = dataclasses.replace(found, unavailable=f"{match.env_id} is left out: {match.unavailable}")
        targets.append(found)
    return targets


def _without_repeats(targets: Iterable[Target]) -> list[Target]:
    """Targets in order, an id met again (a sweep overlapping another, or a named id) kept once."""
    seen: set[str] = set()
    kept: list[Target] = []
    for target in targets:
        if target.id not in seen:
            seen.add(target.id)
            kept.append(target)
    return kept


def shard(targets: Sequence[Target], index: int, count: int) -> list[Target]:
    """The targets of shard ``index`` (1-based) of ``count``: every ``count``-th target in id order."""
    ordered = sorted(targets, key=lambda target: target.id)
    return [target for position, target in enumerate(ordered) if position % count == index - 1]


def _unique(targets: Iterable[Target]) -> list[Target]:
    seen: dict[str, int] = {}
    out: list[Target] = []
    for target in targets:
        count = seen.get(target.id, 0) + 1
        seen[target.id] = count
        if count > 1:
            fields: dict[str, Any] = {**target.__dict__, "id": f"{target.id}#{count}"}
            target = Target(**fields)
        out.append(target)
    return out


def default_targets(kwargs: Mapping[str, Any]) -> list[Target]:
    """The reference's registered envs, or one unavailable placeholder saying why there are none.

    Args:
        kwargs: ``--env-kwargs``, applied to each.

    Returns:
        One env target per registered id with an entry point, then the reference's vector and functional
        targets (below).
    """
    try:
        lookup = importlib.import_module("reference.registration")
        importlib.import_module("reference.envs")
        registry: Mapping[str, Any] = lookup.registry
    except Exception as exc:  # noqa: BLE001 - any import problem means "no embedded default yet"
        reason = (
            "no target given (--env, --env-id, CONFORMANCE_ENV) and the reference's registered envs are not "
            f"available: {type(exc).__name__}: {exc}"
        )
        return [_placeholder(reason)]
    ids = [env_id for env_id, spec in registry.items() if getattr(spec, "entry_point", None) is not None]
    if not ids:
        return [_placeholder("no target given and the reference registry has no env with an entry point")]

    envs = [_id_target(env_id, "reference", kwargs) for env_id in ids]
    return envs + reference_vector_targets() + reference_func_targets()


def _placeholder(reason: str) -> Target:
    def factory(**kw: Any) -> Any:
        raise RuntimeError(reason)

    return Target(id="no-target", kind="env", factory=factory, imports=(), callee="", unavailable=reason)


def resolve_targets(request: TargetsRequest) -> list[Target]:
    """Turn the options into targets, in option order; the reference's envs when nothing is named.

    Args:
        request: The parsed options.

    Returns:
        The targets, with unique ids.

    Raises:
        TargetSpecError: If an option is malformed.
    """
    kwargs = request.env_kwargs
    targets: list[Target] = [_attr_target(spec, "env", kwargs) for spec in request.envs]
    targets += [_attr_target(spec, "env", kwargs, "the CONFORMANCE_ENV environment variable")
                for spec in request.env_var_envs]
    targets += _without_repeats(
        [found for spec in request.env_ids for found in _id_targets(spec, request)]
    )
    targets += [_attr_target(spec, "vector", kwargs) for spec in request.vector_envs]
    targets += _without_repeats(
        [
            found
            for spec in request.vector_env_ids
            for found in _id_targets(spec, request, vector_mode=request.vectorization_mode or "")
        ]
    )
    targets += [_attr_target(spec, "func", kwargs) for spec in request.func_envs]
    if not targets and not (request.env_ids or request.vector_env_ids):
        targets = default_targets(kwargs)
    return _unique(targets)


# --- Default targets -----------------------------------------------------------------------------------------------

_REGISTRY = "reference.registration"
_MODES = ("NextStep", "SameStep", "Disabled")

VECTOR_TARGETS: tuple[tuple[str, str, Mapping[str, Any]], ...] = (
    *(
        (f"FrozenLake-v1/sync/{mode}", "FrozenLake-v1",
         {"vectorization_mode": "sync", "vector_kwargs": {"autoreset_mode": mode}, "max_episode_steps": 8})
        for mode in _MODES
    ),
    *(
        (f"CartPole-v1/async/{mode}", "CartPole-v1",
         {"vectorization_mode": "async", "vector_kwargs": {"autoreset_mode": mode}, "max_episode_steps": 25})
        for mode in _MODES
    ),
    ("CartPole-v1/vector_entry_point", "CartPole-v1", {"vectorization_mode": "vector_entry_point"}),
)
"""``(target id, env id, make_vec kwargs)`` of each default vector target."""

FUNC_TARGETS: tuple[str, ...] = (
    "reference.envs.functional.cartpole:CartPoleFunctional",
    "reference.envs.functional.pendulum:PendulumFunctional",
)
"""``module:attr`` of each default functional target (a class: calling it gives a ``FuncEnv`` instance)."""


def _vector_target(target_id: str, env_id: str, kwargs: Mapping[str, Any]) -> Target:
    def factory(**kw: Any) -> Any:
        importlib.import_module("reference.envs")
        return importlib.import_module(_REGISTRY).make_vec(env_id, **kw)

    return Target(
        id=target_id,
        kind="vector",
        factory=factory,
        imports=(f"from {_REGISTRY} import make_vec",),
        callee="make_vec",
        call_args=(source(env_id),),
        kwargs=dict(kwargs),
        env_id=env_id,
        registry=_REGISTRY,
    )


def _func_target(spec: str) -> Target:
    module_name, _, attr = spec.partition(":")

    def factory(**kw: Any) -> Any:
        return getattr(importlib.import_module(module_name), attr)(**kw)

    return Target(id=spec, kind="func", factory=factory, imports=(f"from {module_name} import {attr}",), callee=attr)


def reference_vector_targets() -> list[Target]:
    """One target per entry of :data:`VECTOR_TARGETS`."""
    return [_vector_target(*entry) for entry in VECTOR_TARGETS]


def reference_func_targets() -> list[Target]:
    """One target per entry of :data:`FUNC_TARGETS`."""
    return [_func_target(spec) for spec in FUNC_TARGETS]
