"""``make`` and ``make_vec``: turn an id or a spec into a wrapped (vector) environment."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import numpy as np

from reference import error, logger
from reference._narrowing import is_dict, is_list_or_tuple, is_mapping
from reference.registration._env_spec import EnvCreator, EnvSpec, VectorizeMode
from reference.registration._lookup import find_spec, load_env_creator
from reference.utils._format import describe

if TYPE_CHECKING:
    from reference.core import Env
    from reference.vector.vector_env import VectorEnv

__all__ = ["MAX_NUM_ENVS", "UnsupportedRenderMode", "check_max_episode_steps", "make", "make_vec"]

_Kwargs: TypeAlias = dict[str, Any]
_AnyEnv: TypeAlias = "Env[Any, Any]"
_AnyVectorEnv: TypeAlias = "VectorEnv[Any, Any, Any]"
_EnvWrapperFn: TypeAlias = Callable[["Env[Any, Any]"], "Env[Any, Any]"]

_DISPLAYABLE_MODES = ("rgb_array", "rgb_array_list")
_MISSING = object()


class UnsupportedRenderMode(error.UnsupportedMode, ValueError):
    """``make`` was asked for a render mode the environment neither declares nor can be converted to.

    Both the specification's ``UnsupportedMode`` and a ``ValueError``, like the built-in environments' own error.
    """


@dataclass(frozen=True)
class _RenderPlan:
    """Which render mode the env is built with, and which rendering wrapper converts it to the requested one."""

    requested: str | None
    human_rendering: bool = False
    render_collection: bool = False


def _declared_render_modes(creator: object, env_id: str) -> list[str] | None:
    """The ``metadata["render_modes"]`` a creator declares before it is called, or ``None`` if unknown."""
    metadata = getattr(creator, "metadata", None)
    if metadata is None or isinstance(metadata, property):
        # Functions declare nothing; wrapper classes expose metadata only through an instance property.
        return None
    if not is_dict(metadata):
        raise error.InvalidMetadata(
            f"Environment metadata must be a dict, got {type(metadata).__name__} for {env_id!r}: {metadata!r}"
        )
    modes = metadata.get("render_modes")
    if modes is None:
        logger.warn(f"The environment creator metadata doesn't include `render_modes`, contains: {list(metadata)}")
        return None
    if isinstance(modes, str) or not isinstance(modes, Iterable):
        logger.warn(f"Expects the environment metadata render_modes to be a list of str, got {modes!r}")
        return None
    return list(cast("Iterable[str]", modes))


def _unsupported_mode(env_id: str, mode: str, modes: Sequence[str]) -> UnsupportedRenderMode:
    conversions: list[str] = []
    if any(m in modes for m in _DISPLAYABLE_MODES):
        conversions.append("'human' (through HumanRendering)")
    conversions += [f"{m + '_list'!r}" for m in modes if not m.endswith("_list") and m + "_list" not in modes]
    also = f"; make also converts to {', '.join(conversions)}" if conversions else ""
    return UnsupportedRenderMode(
        f"make render_mode must be None or one of the modes {env_id!r} declares in metadata['render_modes'] "
        f"{list(modes)}{also}, got {mode!r}"
    )


def _plan_render_mode(env_id: str, modes: list[str] | None, kwargs: _Kwargs) -> _RenderPlan:
    """Check the requested render mode against the declared ones; rewrite ``kwargs`` for a converted mode."""
    mode = kwargs.get("render_mode")
    if mode is None or modes is None:
        return _RenderPlan(mode)
    if not isinstance(mode, str):
        raise TypeError(f"make render_mode must be a str or None, got {describe(mode)}")
    if mode in modes:
        return _RenderPlan(mode)
    displayable = [m for m in _DISPLAYABLE_MODES if m in modes]
    if mode == "human" and displayable:
        logger.warn(
            "You are trying to use 'human' rendering for an environment that doesn't natively support it. "
            "The HumanRendering wrapper is being applied to your environment."
        )
        kwargs["render_mode"] = displayable[0]
        return _RenderPlan(mode, human_rendering=True)
    if mode.endswith("_list") and mode[: -len("_list")] in modes:
        kwargs["render_mode"] = mode[: -len("_list")]
        return _RenderPlan(mode, render_collection=True)
    raise _unsupported_mode(env_id, mode, modes)


_MAX_STEPS = 2**63 - 1
"""The largest step limit: step counts are int64 wherever they are stored (specs, vector counters)."""
MAX_NUM_ENVS = 2**24
"""The largest ``num_envs`` make_vec accepts: far above any practical count, so that an absurd one fails at once
instead of filling memory with environment factories."""


def check_max_episode_steps(owner: str, value: object) -> None:
    """Check a ``max_episode_steps`` argument: ``None`` or a positive int up to ``2**63 - 1``.

    ``make`` also takes ``-1`` (no ``TimeLimit``).

    Args:
        owner: ``"make"`` or ``"register"``, for the message.
        value: The argument.

    Raises:
        TypeError: If it is not an int or None.
        ValueError: If it is not positive (or -1 for ``make``), or does not fit in int64.
    """
    if value is None:
        return
    no_limit = " or -1 (no TimeLimit)" if owner == "make" else ""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{owner} max_episode_steps must be an int, None{no_limit}, got {describe(value)}")
    if (value <= 0 and not (owner == "make" and value == -1)) or value > _MAX_STEPS:
        raise ValueError(
            f"{owner} max_episode_steps must be positive and at most 2**63 - 1, None{no_limit}, got {value!r}"
        )


def _creator_of(env_spec: EnvSpec) -> EnvCreator:
    entry_point = env_spec.entry_point
    if callable(entry_point):
        return entry_point
    if not isinstance(entry_point, str):
        raise TypeError(
            f"make entry_point of {env_spec.id!r} must be a 'module:attr' str or a callable, got {describe(entry_point)}"
        )
    return load_env_creator(entry_point)


def _create(env_spec: EnvSpec, creator: EnvCreator, kwargs: _Kwargs, plan: _RenderPlan) -> _AnyEnv:
    from reference.core import Env

    try:
        env = creator(**kwargs)
    except TypeError as e:
        if plan.human_rendering and "unexpected keyword argument 'render_mode'" in str(e):
            raise error.Error(
                f"You passed render_mode='human' although {env_spec.id} doesn't implement human-rendering natively; "
                "HumanRendering needs an environment that accepts render_mode='rgb_array'."
            ) from e
        raise TypeError(f"{e} was raised from the environment creator for {env_spec.id} with kwargs ({kwargs})") from e
    if not isinstance(env, Env):
        raise TypeError(
            f"make entry_point must create a reference.core.Env, got {type(env).__module__}.{type(env).__qualname__} "
            f"from the entry point of {env_spec.id!r}"
        )
    return env


def make(
    id: str | EnvSpec,  # noqa: A002 - Gymnasium's public parameter name
    max_episode_steps: int | None = None,
    disable_env_checker: bool | None = None,
    **kwargs: Any,
) -> _AnyEnv:
    """Create a registered environment, wrapped the way Gymnasium's ``make`` wraps it.

    The wrappers, innermost first: ``PassiveEnvChecker`` (unless disabled), ``OrderEnforcing`` (if
    ``spec.order_enforce``), ``TimeLimit`` (if there is a step limit), the spec's ``additional_wrappers``, then
    ``HumanRendering`` or ``RenderCollection`` when the requested render mode is a conversion of a declared one.

    Args:
        id: A registered id (optionally ``"module:Id"``, which imports ``module`` first) or an :class:`EnvSpec`.
        max_episode_steps: Overrides the spec's step limit; ``-1`` applies no ``TimeLimit``.
        disable_env_checker: Overrides ``spec.disable_env_checker`` when not ``None``.
        **kwargs: Constructor arguments, merged over ``spec.kwargs`` and recorded in ``env.unwrapped.spec.kwargs``.

    Returns:
        The wrapped environment.

    Raises:
        TypeError: If ``id`` is neither a str nor an EnvSpec, or the constructor rejects the kwargs.
        Error: If the id is malformed or unknown (``NamespaceNotFound``, ``NameNotFound``, ``VersionNotFound``,
            ``DeprecatedEnv``), or the spec has no entry point.
        UnsupportedMode: If ``render_mode`` is neither declared by the environment nor a documented conversion
            (``"human"`` for an env with ``"rgb_array"``, ``"X_list"`` for a declared ``"X"``).
        InvalidMetadata: If the environment class's ``metadata`` is not a dict.
        ValueError: If ``max_episode_steps`` is 0 or negative (other than -1).
    """
    if isinstance(id, EnvSpec):
        env_spec = id
    elif isinstance(id, str):
        env_spec = find_spec(id)
    else:
        raise TypeError(f"make id must be a str or an EnvSpec, got {id!r} of type {type(id).__name__}")
    check_max_episode_steps("make", max_episode_steps)
    if disable_env_checker is not None and not isinstance(disable_env_checker, (bool, np.bool_)):
        raise TypeError(f"make disable_env_checker must be a bool or None, got {describe(disable_env_checker)}")

    env_kwargs = copy.deepcopy(env_spec.kwargs)
    env_kwargs.update(kwargs)

    if env_spec.entry_point is None:
        raise error.Error(f"{env_spec.id} registered but entry_point is not specified")
    creator = _creator_of(env_spec)
    declared = _declared_render_modes(creator, env_spec.id)
    plan = _plan_render_mode(env_spec.id, declared, env_kwargs)
    env = _create(env_spec, creator, env_kwargs, plan)
    if declared is None and plan.requested is not None:
        _check_created_render_mode(env, env_spec.id, plan.requested)

    env.unwrapped.spec = EnvSpec(
        id=env_spec.id,
        entry_point=env_spec.entry_point,
        reward_threshold=env_spec.reward_threshold,
        nondeterministic=env_spec.nondeterministic,
        max_episode_steps=None,
        order_enforce=False,
        disable_env_checker=True,
        kwargs=env_kwargs,
        additional_wrappers=(),
        vector_entry_point=env_spec.vector_entry_point,
    )
    return _apply_wrappers(env, env_spec, max_episode_steps, disable_env_checker, plan)


def _check_created_render_mode(env: _AnyEnv, env_id: str, requested: str) -> None:
    """Reject an unsupported mode for creators (functions) that only reveal their metadata once called."""
    modes = env.metadata.get("render_modes") if is_dict(env.metadata) else None
    if is_list_or_tuple(modes) and requested not in modes:
        env.close()
        raise _unsupported_mode(env_id, requested, [str(m) for m in modes])


def _apply_wrappers(
    env: _AnyEnv,
    env_spec: EnvSpec,
    max_episode_steps: int | None,
    disable_env_checker: bool | None,
    plan: _RenderPlan,
) -> _AnyEnv:
    from reference.wrappers.common import OrderEnforcing, PassiveEnvChecker, TimeLimit
    from reference.wrappers.rendering import HumanRendering, RenderCollection

    # An entry point may return an already-wrapped env; those wrappers must be a prefix of the spec's.
    created_spec = env.spec
    prior = created_spec.additional_wrappers if created_spec is not None else ()
    expected = env_spec.additional_wrappers[: len(prior)]
    if len(prior) <= len(env_spec.additional_wrappers) and expected != prior:
        for saved, recreated in zip(expected, prior):
            if saved != recreated:
                raise ValueError(
                    f"The environment's wrapper spec {recreated} is different from the saved `EnvSpec` "
                    f"additional wrapper {saved}"
                )

    checker_disabled = env_spec.disable_env_checker if disable_env_checker is None else disable_env_checker
    if not checker_disabled:
        env = PassiveEnvChecker(env)
    if env_spec.order_enforce:
        env = OrderEnforcing(env)
    limit = env_spec.max_episode_steps if max_episode_steps is None else max_episode_steps
    if limit is not None and limit != -1:
        env = TimeLimit(env, limit)

    for wrapper_spec in env_spec.additional_wrappers[len(prior) :]:
        if wrapper_spec.kwargs is None:
            raise ValueError(
                f"{wrapper_spec.name} wrapper does not inherit from `reference.utils.RecordConstructorArgs`, "
                "therefore, the wrapper cannot be recreated."
            )
        env = load_env_creator(wrapper_spec.entry_point)(env=env, **wrapper_spec.kwargs)

    if plan.human_rendering:
        env = HumanRendering(env)
    elif plan.render_collection:
        env = RenderCollection(env)
    return env


def make_vec(
    id: str | EnvSpec,  # noqa: A002 - Gymnasium's public parameter name
    num_envs: int = 1,
    vectorization_mode: VectorizeMode | str | None = None,
    vector_kwargs: _Kwargs | None = None,
    wrappers: Sequence[_EnvWrapperFn] | None = None,
    **kwargs: Any,
) -> _AnyVectorEnv:
    """Create a vector environment of ``num_envs`` copies of a registered environment.

    Args:
        id: A registered id (optionally ``"module:Id"``) or an :class:`EnvSpec`.
        num_envs: Number of sub-environments.
        vectorization_mode: ``"sync"``, ``"async"`` or ``"vector_entry_point"``; ``None`` picks the spec's
            vector entry point if it has one, else ``"sync"``.
        vector_kwargs: Extra arguments for ``SyncVectorEnv``/``AsyncVectorEnv`` (not for a vector entry point).
        wrappers: Callables applied to every sub-environment after ``make`` (not for a vector entry point).
        **kwargs: Constructor arguments for every sub-environment (or for the vector entry point).

    Returns:
        The vector environment; its ``unwrapped.spec.kwargs`` records how it was made.

    Raises:
        ValueError: If ``vectorization_mode`` is not a valid mode, or ``num_envs`` is not in
            ``[1, MAX_NUM_ENVS]`` (2**24).
        TypeError: If ``num_envs`` is not an int, ``vector_kwargs`` not a dict or ``wrappers`` not a sequence of
            callables.
        Error: If the id is unknown, the mode needs an entry point the spec lacks, or ``vector_kwargs``/
            ``wrappers``/``additional_wrappers`` are combined with the vector entry point.
    """
    if vector_kwargs is not None and not is_mapping(vector_kwargs):
        raise TypeError(f"make_vec vector_kwargs must be a dict or None, got {describe(vector_kwargs)}")
    if wrappers is not None and not (is_list_or_tuple(wrappers) and all(callable(w) for w in wrappers)):
        raise TypeError(f"make_vec wrappers must be a sequence of callables or None, got {describe(wrappers)}")
    vector_kwargs = {} if vector_kwargs is None else dict(vector_kwargs)
    wrapper_fns: list[_EnvWrapperFn] = [] if wrappers is None else list(wrappers)

    if isinstance(id, EnvSpec):
        env_spec = copy.deepcopy(id)
    elif isinstance(id, str):
        env_spec = copy.deepcopy(find_spec(id))
    else:
        raise error.Error(f"make_vec id must be a str or an EnvSpec, got {id!r} of type {type(id).__name__}")

    # Spec kwargs may carry the make_vec arguments themselves (a spec recorded by a previous make_vec call).
    env_kwargs = env_spec.kwargs
    env_spec.kwargs = {}
    num_envs = env_kwargs.pop("num_envs", num_envs)
    vectorization_mode = env_kwargs.pop("vectorization_mode", vectorization_mode)
    vector_kwargs = cast(_Kwargs, env_kwargs.pop("vector_kwargs", vector_kwargs))
    wrapper_fns = list(env_kwargs.pop("wrappers", wrapper_fns))
    env_kwargs.update(kwargs)
    _check_num_envs(num_envs)

    mode = _resolve_mode(vectorization_mode, env_spec)
    env: _AnyVectorEnv
    if mode in (VectorizeMode.SYNC, VectorizeMode.ASYNC):
        if env_spec.entry_point is None:
            raise error.Error(
                f"Cannot create vectorized environment for {env_spec.id} because it doesn't have an entry point defined."
            )

        def create_single_env() -> _AnyEnv:
            single_env = make(env_spec, **copy.copy(env_kwargs))
            for wrapper in wrapper_fns:
                single_env = wrapper(single_env)
            return single_env

        # Imported here: the vector package imports the registry, not the other way round.
        from reference.vector import AsyncVectorEnv, SyncVectorEnv

        vector_class = SyncVectorEnv if mode is VectorizeMode.SYNC else AsyncVectorEnv
        _check_vector_kwargs(vector_class, vector_kwargs)
        env_fns = [create_single_env for _ in range(num_envs)]
        env = vector_class(env_fns, **vector_kwargs)
    else:
        env = _make_from_vector_entry_point(env_spec, num_envs, vector_kwargs, wrapper_fns, env_kwargs)

    recorded = copy.deepcopy(env_spec)
    recorded.kwargs = dict(env_kwargs)
    if num_envs != 1:
        recorded.kwargs["num_envs"] = num_envs
    recorded.kwargs["vectorization_mode"] = mode.value
    if vector_kwargs:
        recorded.kwargs["vector_kwargs"] = vector_kwargs
    if wrapper_fns:
        recorded.kwargs["wrappers"] = wrapper_fns
    env.unwrapped.spec = recorded

    autoreset_mode = env.metadata.get("autoreset_mode", _MISSING)
    if autoreset_mode is _MISSING:
        logger.warn(f"The VectorEnv ({env}) is missing AutoresetMode metadata, metadata={env.metadata}")
    # By name: gymspec's, the vector package's and Gymnasium's AutoresetMode enums are all acceptable.
    elif not any(cls.__name__ == "AutoresetMode" for cls in type(autoreset_mode).__mro__):
        logger.warn(
            f"The VectorEnv ({env}) metadata['autoreset_mode'] is not an instance of AutoresetMode, "
            f"{type(autoreset_mode)}."
        )
    return env


def _check_num_envs(num_envs: object) -> None:
    if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
        raise TypeError(f"make_vec num_envs must be an int, got {describe(num_envs)}")
    if not 1 <= num_envs <= MAX_NUM_ENVS:
        raise ValueError(f"make_vec num_envs must be in [1, {MAX_NUM_ENVS}] (2**24), got {num_envs!r}")


def _check_vector_kwargs(vector_class: type, vector_kwargs: _Kwargs) -> None:
    accepted = [name for name in inspect.signature(vector_class).parameters if name != "env_fns"]
    unknown = [key for key in vector_kwargs if key not in accepted]
    if unknown:
        raise TypeError(
            f"make_vec vector_kwargs must hold {vector_class.__name__} arguments ({', '.join(accepted)}), "
            f"got {', '.join(map(repr, unknown))}"
        )


def _resolve_mode(mode: VectorizeMode | str | None, env_spec: EnvSpec) -> VectorizeMode:
    if mode is None:
        return VectorizeMode.SYNC if env_spec.vector_entry_point is None else VectorizeMode.VECTOR_ENTRY_POINT
    try:
        return VectorizeMode(mode)
    except (ValueError, TypeError) as e:
        raise ValueError(
            f"make_vec vectorization_mode must be one of {[m.value for m in VectorizeMode]} or None, got {mode!r}"
        ) from e


def _make_from_vector_entry_point(
    env_spec: EnvSpec,
    num_envs: int,
    vector_kwargs: _Kwargs,
    wrapper_fns: list[_EnvWrapperFn],
    env_kwargs: _Kwargs,
) -> _AnyVectorEnv:
    if vector_kwargs:
        raise error.Error(
            "Custom vector environment can be passed arguments only through kwargs and `vector_kwargs` is not "
            f"empty ({vector_kwargs})"
        )
    if wrapper_fns:
        raise error.Error(f"Cannot use `vector_entry_point` vectorization mode with the wrappers argument ({wrapper_fns}).")
    if env_spec.additional_wrappers:
        raise error.Error(
            "Cannot use `vector_entry_point` vectorization mode with the additional_wrappers parameter in spec being "
            f"not empty ({env_spec.additional_wrappers})."
        )
    entry_point = env_spec.vector_entry_point
    if entry_point is None:
        raise error.Error(
            f"Cannot create vectorized environment for {env_spec.id} because it doesn't have a vector entry point defined."
        )
    creator: Callable[..., Any] = entry_point if callable(entry_point) else load_env_creator(entry_point)
    if env_spec.max_episode_steps is not None and "max_episode_steps" not in env_kwargs:
        env_kwargs["max_episode_steps"] = env_spec.max_episode_steps
    env: _AnyVectorEnv = creator(num_envs=num_envs, **env_kwargs)
    return env
