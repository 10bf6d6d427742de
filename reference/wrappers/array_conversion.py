"""Convert an environment's arrays between Array API frameworks (NumPy, PyTorch, JAX, ...).

Needs ``array-api-compat`` (``pip install "gymspec[array-api]"``); importing this module without it raises
:class:`~reference.error.DependencyNotInstalled`, as Gymnasium's does. Arrays move between frameworks through
DLPack, without a copy where the frameworks allow it.

:func:`array_conversion` converts a value (an array, a number, or a dict/tuple/list/named tuple of them) to a
framework; :class:`ArrayConversion` applies it to everything an environment takes and returns.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, SupportsFloat, TypeAlias, cast

from reference._narrowing import is_list_or_tuple, is_mapping, is_tuple
from reference.core import ActType, Env, ObsType, RenderFrame, Wrapper
from reference.utils._format import describe
from reference.utils._optional import import_optional
from reference.utils.record_constructor import RecordConstructorArgs

_compat = import_optional("array_api_compat", "reference.wrappers.array_conversion")

__all__ = ["ArrayConversion", "Device", "array_conversion", "module_name_to_namespace", "module_namespace"]

Array: TypeAlias = Any
"""An array of any Array API framework (the standard has no static type yet)."""
Device: TypeAlias = Any
"""A framework's device (``"cpu"``, ``torch.device("cuda:0")``, a JAX device, ...)."""
_Value: TypeAlias = Any
_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_State: TypeAlias = dict[str, Any]


def module_namespace(xp: ModuleType) -> ModuleType:
    """The Array API compatible namespace of a framework module (e.g. ``numpy`` -> array_api_compat's numpy).

    Args:
        xp: The framework module (``numpy``, ``torch``, ``jax.numpy``, ...).

    Returns:
        Its compatible namespace.

    Raises:
        ValueError: If ``xp`` is not an Array API framework.
    """
    try:
        namespace: ModuleType = _compat.array_namespace(xp.empty(0))
    except (AttributeError, TypeError) as exc:
        raise ValueError(f"module_namespace xp must be an Array API framework module, got {xp!r}") from exc
    return namespace


def checked_namespace(owner: str, param: str, xp: object) -> ModuleType:
    """:func:`module_namespace` for a wrapper's argument: the error names the wrapper and the parameter.

    Args:
        owner: The wrapper, for the message.
        param: The parameter (``env_xp`` or ``target_xp``).
        xp: The argument.

    Returns:
        Its compatible namespace.

    Raises:
        ValueError: If ``xp`` is not an Array API framework.
    """
    try:
        return module_namespace(cast(ModuleType, xp))
    except ValueError:
        raise ValueError(f"{owner} {param} must be an Array API framework module, got {describe(xp)}") from None


def module_name_to_namespace(name: str) -> ModuleType:
    """:func:`module_namespace` of the module called ``name`` (imported).

    Args:
        name: A module name such as ``"torch"`` or ``"jax.numpy"``.

    Returns:
        Its compatible namespace.
    """
    return module_namespace(import_optional(name, "array_conversion"))


def _convert_array(value: Array, xp: ModuleType, device: Device | None) -> Array:
    """Move one array to ``xp`` through DLPack, working around what each framework does not support yet."""
    if _compat.is_numpy_namespace(xp):
        device = "cpu"
    try:
        return xp.from_dlpack(value, device=device)
    except TypeError:  # the framework's from_dlpack takes no ``device`` (PyTorch)
        pass
    except BufferError:  # a read-only buffer (JAX cannot import it): hand over a writable copy
        value = _compat.array_namespace(value).asarray(value, copy=True)
        return xp.from_dlpack(value, device=device)
    try:
        converted = xp.from_dlpack(value)
    except BufferError:  # PyTorch cannot import a read-only buffer either
        converted = xp.from_dlpack(_compat.array_namespace(value).asarray(value, copy=True))
    except RuntimeError:  # no shared device: go through the CPU
        converted = xp.from_dlpack(_compat.to_device(value, "cpu"))
    return converted if device is None else _compat.to_device(converted, device)


def array_conversion(value: _Value, xp: ModuleType, device: Device | None = None) -> _Value:
    """Convert ``value`` to arrays of the framework ``xp``.

    Arrays (of any Array API framework) are moved with DLPack; Python and NumPy numbers (``bool`` included)
    become 0-d arrays; mappings, tuples (named tuples too) and lists are converted element by element into a
    container of the same type; ``None`` and strings pass through.

    Args:
        value: The value.
        xp: The target framework (a module or its compatible namespace).
        device: The target device (``None``: the framework's default; NumPy is always on the CPU).

    Returns:
        The converted value.

    Raises:
        TypeError: If ``value`` (or an element) is of no convertible type.
    """
    if value is None or isinstance(value, (str, bytes)):
        return value
    if isinstance(value, numbers.Number):
        return xp.asarray(value, device=device)
    if is_mapping(value):
        return type(value)(**{key: array_conversion(item, xp, device) for key, item in value.items()})
    if _compat.is_array_api_obj(value):
        return _convert_array(value, xp, device)
    if is_tuple(value) and hasattr(value, "_make"):
        make: Callable[[Iterable[_Value]], _Value] = getattr(type(value), "_make")  # noqa: B009 (checked above)
        return make(array_conversion(item, xp, device) for item in value)
    if is_list_or_tuple(value):
        return type(value)(array_conversion(item, xp, device) for item in value)
    raise TypeError(
        f"array_conversion value must be an array, a number, None or a dict/tuple/list of them, "
        f"got {type(value).__name__}"
    )


class ArrayConversion(Wrapper[Any, Any, ObsType, ActType], RecordConstructorArgs):
    """Let an environment written in one Array API framework be driven with arrays of another.

    Actions are converted to ``env_xp`` (on ``env_device``) before ``step``; observations, infos, ``reset``
    results and frames are converted to ``target_xp`` (on ``target_device``). Rewards and flags become Python
    ``float`` and ``bool``.

    Args:
        env: The environment.
        env_xp: The framework the environment uses.
        target_xp: The framework the caller uses.
        env_device: The device the environment's arrays live on.
        target_device: The device returned arrays are moved to.

    Raises:
        ValueError: If ``env_xp`` or ``target_xp`` is not an Array API framework.

    Example:
        With NumPy on both sides the data is unchanged, but rewards and flags become Python scalars:

        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = ArrayConversion(CartPoleEnv(), env_xp=np, target_xp=np)
        >>> obs, info = env.reset(seed=0)
        >>> obs.dtype, info
        (dtype('float32'), {})
        >>> _, reward, terminated, _, _ = env.step(np.asarray(1))
        >>> type(reward).__name__, type(terminated).__name__
        ('float', 'bool')
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        env_xp: ModuleType,
        target_xp: ModuleType,
        env_device: Device | None = None,
        target_device: Device | None = None,
    ) -> None:
        # Modules cannot be deep-copied, so the recorded constructor arguments are kept as given.
        RecordConstructorArgs.__init__(
            self,
            _disable_deepcopy=True,
            env_xp=env_xp,
            target_xp=target_xp,
            env_device=env_device,
            target_device=target_device,
        )
        Wrapper.__init__(self, env)
        self._env_xp = checked_namespace("ArrayConversion", "env_xp", env_xp)
        self._target_xp = checked_namespace("ArrayConversion", "target_xp", target_xp)
        self._env_device = env_device
        self._target_device = target_device

    def _to_target(self, value: _Value) -> _Value:
        return array_conversion(value, self._target_xp, self._target_device)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, _Info]:
        """Convert ``action`` to the environment's framework, step, and convert the result back.

        Args:
            action: An action in the caller's framework.

        Returns:
            The step result in the caller's framework (reward as ``float``, flags as ``bool``).
        """
        obs, reward, terminated, truncated, info = self.env.step(
            array_conversion(action, self._env_xp, self._env_device)
        )
        return self._to_target(obs), float(reward), bool(terminated), bool(truncated), self._to_target(info)

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[Any, _Info]:
        """Reset, converting ``options`` to the environment's framework and the result to the caller's.

        Args:
            seed: Passed through.
            options: Converted, then passed through.

        Returns:
            The observation and info in the caller's framework.
        """
        if options:
            options = array_conversion(options, self._env_xp, self._env_device)
        result: tuple[Any, _Info] = self._to_target(self.env.reset(seed=seed, options=options))
        return result

    def render(self) -> RenderFrame | list[RenderFrame] | None:
        """Render, converting the frame(s) to the caller's framework.

        Returns:
            The frame(s).
        """
        frames: RenderFrame | list[RenderFrame] | None = self._to_target(self.env.render())
        return frames

    def __getstate__(self) -> _State:
        """Pickle the frameworks by name (modules cannot be pickled)."""
        return namespace_state(self, {"env": self.env})

    def __setstate__(self, state: _State) -> None:
        """Restore from :meth:`__getstate__`, re-importing the frameworks."""
        restore_namespaces(self, state)
        self.env = state["env"]


def namespace_state(wrapper: Any, state: _State) -> _State:
    """Add the wrapper's frameworks (by module name) and devices to a pickle ``state``.

    Args:
        wrapper: An array-conversion wrapper (single or vector).
        state: The rest of its state.

    Returns:
        ``state`` with the framework names and devices added.
    """
    for role in ("env", "target"):
        state[f"{role}_xp_name"] = getattr(wrapper, f"_{role}_xp").__name__.replace("array_api_compat.", "")
        state[f"{role}_device"] = getattr(wrapper, f"_{role}_device")
    return state


def restore_namespaces(wrapper: Any, state: _State) -> None:
    """Set the wrapper's frameworks and devices from a :func:`namespace_state` state.

    Args:
        wrapper: The wrapper being unpickled.
        state: Its state.
    """
    for role in ("env", "target"):
        setattr(wrapper, f"_{role}_xp", module_name_to_namespace(state[f"{role}_xp_name"]))
        setattr(wrapper, f"_{role}_device", state[f"{role}_device"])
