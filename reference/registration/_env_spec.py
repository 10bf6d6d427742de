"""The :class:`EnvSpec` and :class:`WrapperSpec` records that describe how to (re-)create an environment."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeAlias

from reference._narrowing import is_dict
from reference.registration._ids import parse_env_id

if TYPE_CHECKING:
    from reference.core import Env

__all__ = ["EnvCreator", "EnvSpec", "VectorEnvCreator", "VectorizeMode", "WrapperSpec"]

_Kwargs: TypeAlias = dict[str, Any]
_AnyEnv: TypeAlias = "Env[Any, Any]"
EnvCreator: TypeAlias = Callable[..., "Env[Any, Any]"]
"""Anything called with keyword arguments that returns an environment (usually the environment class)."""
VectorEnvCreator: TypeAlias = Callable[..., Any]
"""Anything called with ``num_envs=...`` and keyword arguments that returns a vector environment."""


@dataclass
class WrapperSpec:
    """How to re-apply one wrapper: its name, its ``"module:Class"`` entry point and its constructor kwargs.

    ``kwargs`` is ``None`` when the wrapper does not record its constructor arguments
    (:class:`reference.utils.RecordConstructorArgs`); such a wrapper cannot be re-created by ``make``.
    """

    name: str
    entry_point: str
    kwargs: _Kwargs | None


class VectorizeMode(Enum):
    """How :func:`reference.registration.make_vec` builds the vector environment."""

    ASYNC = "async"
    SYNC = "sync"
    VECTOR_ENTRY_POINT = "vector_entry_point"


@dataclass
class EnvSpec:
    """Everything :func:`reference.registration.make` needs to create an environment.

    Attributes:
        id: The registered id, ``[namespace/]name[-vVERSION]``.
        entry_point: ``"module:attr"`` or a callable that creates the environment.
        reward_threshold: The return at which the task counts as solved.
        nondeterministic: Whether the same seed and actions may still produce different trajectories.
        max_episode_steps: The episode length after which ``TimeLimit`` truncates (``None``: no limit).
        order_enforce: Whether ``make`` adds ``OrderEnforcing``.
        disable_env_checker: Whether ``make`` leaves out ``PassiveEnvChecker``.
        kwargs: Keyword arguments for the entry point.
        namespace: Parsed from ``id`` (not an init argument).
        name: Parsed from ``id`` (not an init argument).
        version: Parsed from ``id`` (not an init argument).
        additional_wrappers: Wrappers ``make`` applies after ``TimeLimit``, innermost first.
        vector_entry_point: ``"module:attr"`` or a callable that creates a native vector environment.

    Example:
        >>> spec = EnvSpec("my_ns/Toy-v2", entry_point="pkg.mod:ToyEnv", max_episode_steps=10)
        >>> spec.namespace, spec.name, spec.version
        ('my_ns', 'Toy', 2)
        >>> EnvSpec.from_json(spec.to_json()) == spec
        True
    """

    id: str
    entry_point: EnvCreator | str | None = field(default=None)

    reward_threshold: float | None = field(default=None)
    nondeterministic: bool = field(default=False)

    max_episode_steps: int | None = field(default=None)
    order_enforce: bool = field(default=True)
    disable_env_checker: bool = field(default=False)

    kwargs: _Kwargs = field(default_factory=dict)

    namespace: str | None = field(init=False)
    name: str = field(init=False)
    version: int | None = field(init=False)

    additional_wrappers: tuple[WrapperSpec, ...] = field(default_factory=tuple)

    vector_entry_point: VectorEnvCreator | str | None = field(default=None)

    def __post_init__(self) -> None:
        """Derive ``namespace``, ``name`` and ``version`` from ``id``."""
        self.namespace, self.name, self.version = parse_env_id(self.id)

    def make(self, **kwargs: Any) -> _AnyEnv:
        """Create the environment this spec describes, as ``reference.registration.make(self, **kwargs)``.

        Args:
            **kwargs: Arguments for ``make`` (``max_episode_steps``, ``disable_env_checker``, ``render_mode``, ...).

        Returns:
            The wrapped environment.
        """
        from reference.registration._make import make

        return make(self, **kwargs)

    def to_json(self) -> str:
        """Serialise the spec (without the derived namespace/name/version) to a JSON string.

        Returns:
            The JSON text, which :meth:`from_json` turns back into an equal spec.

        Raises:
            ValueError: If a field holds a callable (e.g. a function entry point) or a value JSON cannot encode.
        """
        data = dataclasses.asdict(self)
        for derived in ("namespace", "name", "version"):
            data.pop(derived)
        for key, value in data.items():
            if callable(value):
                raise ValueError(
                    f"EnvSpec {key} must be JSON-serialisable to call to_json, got the callable {value!r} "
                    f"for {self.id!r}; register a 'module:attr' string instead of a callable."
                )
        try:
            return json.dumps(data)
        except (TypeError, ValueError) as e:
            raise ValueError(f"EnvSpec for {self.id!r} must be JSON-serialisable to call to_json: {e}") from e

    @staticmethod
    def from_json(json_env_spec: str) -> EnvSpec:
        """Re-create a spec from the output of :meth:`to_json`.

        Args:
            json_env_spec: The JSON text.

        Returns:
            The environment spec.

        Raises:
            ValueError: If the JSON does not describe an environment spec.
        """
        parsed = json.loads(json_env_spec)
        if not is_dict(parsed):
            raise ValueError(f"EnvSpec.from_json json_env_spec must encode an object, got {parsed!r}")
        wrapper_specs: list[WrapperSpec] = []
        for wrapper_json in parsed.pop("additional_wrappers", []):
            try:
                wrapper_specs.append(WrapperSpec(**wrapper_json))
            except TypeError as e:
                raise ValueError(
                    f"EnvSpec.from_json additional_wrappers entries must be WrapperSpec fields, got {wrapper_json!r}"
                ) from e
        try:
            env_spec = EnvSpec(**parsed)
        except Exception as e:
            raise ValueError(f"EnvSpec.from_json json_env_spec must hold EnvSpec fields, got {parsed!r}") from e
        env_spec.additional_wrappers = tuple(wrapper_specs)
        return env_spec

    def pprint(
        self,
        disable_print: bool = False,
        include_entry_points: bool = False,
        print_all: bool = False,
    ) -> str | None:
        """Pretty-print the spec, one ``field=value`` per line (the same layout as Gymnasium's).

        Args:
            disable_print: Return the text instead of printing it.
            include_entry_points: Include the env and wrapper entry points.
            print_all: Include fields that still have their default value.

        Returns:
            The text if ``disable_print``, else ``None``.
        """
        lines = [f"id={self.id}"]
        if print_all or include_entry_points:
            lines.append(f"entry_point={self.entry_point}")
        if print_all or self.reward_threshold is not None:
            lines.append(f"reward_threshold={self.reward_threshold}")
        if print_all or self.nondeterministic is not False:
            lines.append(f"nondeterministic={self.nondeterministic}")
        if print_all or self.max_episode_steps is not None:
            lines.append(f"max_episode_steps={self.max_episode_steps}")
        if print_all or self.order_enforce is not True:
            lines.append(f"order_enforce={self.order_enforce}")
        if print_all or self.disable_env_checker is not False:
            lines.append(f"disable_env_checker={self.disable_env_checker}")
        if print_all or self.additional_wrappers:
            entries = [
                f"\n\tname={w.name}, entry_point={w.entry_point}, kwargs={w.kwargs}"
                if include_entry_points
                else f"\n\tname={w.name}, kwargs={w.kwargs}"
                for w in self.additional_wrappers
            ]
            lines.append(f"additional_wrappers=[{','.join(entries)}\n]" if entries else "additional_wrappers=[]")
        output = "\n".join(lines)
        if disable_print:
            return output
        print(output)
        return None
