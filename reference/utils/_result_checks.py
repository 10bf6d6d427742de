"""Reset, step and render result checks for :class:`~reference.wrappers.PassiveEnvChecker` and the checker functions.

The wrapper reaches them only when its inline fast path sees something unusual. They decide between a warning
and an error exactly where Gymnasium's passive checker does; where Gymnasium asserts, the error is one of the
:mod:`reference.utils._check_errors` classes (an ``AssertionError`` that is also a ``TypeError``/``ValueError``).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from reference import error, logger
from reference.utils._check_errors import CheckTypeError, CheckUnsupportedMode, CheckValueError
from reference.utils._space_checks import describe

__all__ = [
    "check_flag",
    "check_info",
    "check_render_metadata",
    "check_render_return",
    "check_reset_result",
    "check_reset_signature",
    "check_reward",
    "check_step_result",
    "data_shares_objects",
]


def check_reset_signature(env: object) -> None:
    """Warn when ``env.reset`` cannot take ``seed``/``options`` or defaults ``seed`` to a value.

    Args:
        env: The environment.
    """
    try:
        params = inspect.signature(getattr(env, "reset")).parameters
    except (TypeError, ValueError):
        return
    accepts_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    if "seed" not in params and not accepts_any:
        logger.deprecation(
            "Current gymnasium version requires that `Env.reset` can be passed a `seed` instead of using "
            "`Env.seed` for resetting the environment random number generator."
        )
    elif "seed" in params and params["seed"].default is not None:
        logger.warn(
            "The default seed argument in `Env.reset` should be `None`, otherwise the environment will by "
            f"default always be deterministic. Actual default: {params['seed']}"
        )
    if "options" not in params and not accepts_any:
        logger.deprecation(
            "Current gymnasium version requires that `Env.reset` can be passed `options` to allow the "
            "environment initialisation to be passed additional information."
        )


def check_info(info: object, method_name: str) -> None:
    """Raise unless ``info`` is a dict.

    Args:
        info: The info returned by ``reset`` or ``step``.
        method_name: ``"reset"`` or ``"step"``.

    Raises:
        TypeError: If ``info`` is not a dict.
    """
    if not isinstance(info, dict):
        raise CheckTypeError(f"PassiveEnvChecker {method_name}() info must be a dict, got {describe(info)}")


def check_reset_result(result: object) -> bool:
    """Check the shape of a ``reset`` result (Gymnasium only warns when it is not a pair).

    Args:
        result: What ``reset`` returned.

    Returns:
        Whether the result is an ``(obs, info)`` pair whose parts can be checked further.

    Raises:
        TypeError: If the pair's info is not a dict.
    """
    if not isinstance(result, tuple):
        logger.warn(
            "The result returned by `env.reset()` was not a tuple of the form `(obs, info)`, where `obs` is a "
            f"observation and `info` is a dictionary containing additional information. Actual type: `{type(result)}`",
            stacklevel=3,
        )
        return False
    if len(result) != 2:  # pyright: ignore[reportUnknownArgumentType]
        logger.warn(
            "The result returned by `env.reset()` should be `(obs, info)` by default, where `obs` is a "
            f"observation and `info` is a dictionary containing additional information; got {len(result)} elements.",  # pyright: ignore[reportUnknownArgumentType]
            stacklevel=3,
        )
        return False
    check_info(result[1], "reset")  # pyright: ignore[reportUnknownArgumentType]
    return True


def check_step_result(result: object) -> None:
    """Raise unless ``result`` is a 5-tuple.

    Args:
        result: What ``step`` returned.

    Raises:
        TypeError: If it is not a tuple.
        Error: If it does not have five elements (the pre-0.26 4-tuple API included).
    """
    if not isinstance(result, tuple):
        raise CheckTypeError(
            "PassiveEnvChecker step() result must be a tuple (obs, reward, terminated, truncated, info), "
            f"got {describe(result)}"
        )
    if len(result) != 5:  # pyright: ignore[reportUnknownArgumentType]
        hint = "; the 4-tuple (obs, reward, done, info) API was removed in Gymnasium 0.26" if len(result) == 4 else ""  # pyright: ignore[reportUnknownArgumentType]
        raise error.Error(
            "PassiveEnvChecker step() result must have 5 elements (obs, reward, terminated, truncated, info), "
            f"got {len(result)}{hint}"  # pyright: ignore[reportUnknownArgumentType]
        )


def check_flag(value: object, name: str) -> None:
    """Warn unless ``value`` is a ``bool`` or ``np.bool_``.

    Args:
        value: The ``terminated`` or ``truncated`` value.
        name: ``"terminated"`` or ``"truncated"``.
    """
    if not isinstance(value, (bool, np.bool_)):
        logger.warn(f"Expects `{name}` signal to be a boolean, actual type: {type(value)}", stacklevel=3)


def check_reward(reward: object) -> None:
    """Warn unless ``reward`` is a finite int or float (Python or NumPy).

    Args:
        reward: The reward.
    """
    if isinstance(reward, bool) or not isinstance(reward, (int, float, np.integer, np.floating)):
        logger.warn(
            "The reward returned by `step()` must be a float, int, np.integer or np.floating, "
            f"actual type: {type(reward)}",
            stacklevel=3,
        )
        return
    value = float(reward)  # pyright: ignore[reportUnknownArgumentType]
    if math.isnan(value):
        logger.warn("The reward is a NaN value.", stacklevel=3)
    elif math.isinf(value):
        logger.warn("The reward is an inf value.", stacklevel=3)


def data_shares_objects(data_1: object, data_2: object) -> bool:
    """Tell whether two returned values share a mutable object (an array buffer, a dict).

    Immutable values are ignored: equal ints are often the same object without anything being shared.

    Args:
        data_1: A value returned earlier.
        data_2: A value returned later.

    Returns:
        Whether mutating one could change the other.
    """
    if type(data_1) is not type(data_2):
        return False
    if isinstance(data_1, dict) and isinstance(data_2, dict):
        return data_1 is data_2 or any(data_shares_objects(data_1[k], data_2[k]) for k in data_1.keys() & data_2.keys())  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if isinstance(data_1, tuple):
        return any(data_shares_objects(a, b) for a, b in zip(data_1, data_2))  # type: ignore[call-overload]
    if isinstance(data_1, np.ndarray):
        other: np.ndarray[Any, Any] = data_2  # type: ignore[assignment]
        if data_1.dtype == object:  # pyright: ignore[reportUnknownMemberType]
            return data_1 is other or any(data_shares_objects(a, b) for a, b in zip(data_1.flat, other.flat))  # pyright: ignore[reportUnknownArgumentType, reportUnknownMemberType, reportUnknownVariableType]
        return bool(np.shares_memory(data_1, other))  # pyright: ignore[reportUnknownArgumentType]
    return False


# --- render -----------------------------------------------------------------------------------------------------


def check_render_metadata(env: object) -> None:
    """Check ``metadata["render_modes"]``, ``render_fps`` and ``render_mode`` (before the first ``render``).

    Args:
        env: The environment.

    Raises:
        ValueError: If ``render_fps`` is not positive.
        UnsupportedMode: If ``render_mode`` is not ``None`` and not a declared mode.
    """
    metadata = getattr(env, "metadata", None)
    if not isinstance(metadata, Mapping):
        metadata = {}
    modes = metadata.get("render_modes")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    render_mode = getattr(env, "render_mode", None)
    if modes is None:
        logger.warn(
            "No render modes was declared in the environment (env.metadata['render_modes'] is None or not "
            "defined), you may have trouble when calling `.render()`.",
            stacklevel=3,
        )
        return
    if not isinstance(modes, (list, tuple)):
        logger.warn(f"Expects the render_modes to be a sequence (i.e. list, tuple), actual type: {type(modes)}")  # pyright: ignore[reportUnknownArgumentType]
        return
    if not all(isinstance(mode, str) for mode in modes):  # pyright: ignore[reportUnknownVariableType]
        logger.warn(f"Expects all render modes to be strings, actual types: {[type(mode) for mode in modes]}")  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    if modes:
        fps = metadata.get("render_fps")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if fps is None:
            logger.warn(
                "No render fps was declared in the environment (env.metadata['render_fps'] is None or not "
                "defined), rendering may occur at inconsistent fps."
            )
        elif isinstance(fps, bool) or not isinstance(fps, (int, float, np.integer, np.floating)):
            logger.warn(f"Expects the `env.metadata['render_fps']` to be an integer or a float, actual type: {type(fps)}")  # pyright: ignore[reportUnknownArgumentType]
        elif not fps > 0:
            raise CheckValueError(f"PassiveEnvChecker metadata['render_fps'] must be > 0, got {fps!r}")
    if render_mode is not None and render_mode not in modes:
        raise CheckUnsupportedMode(
            f"PassiveEnvChecker render_mode must be None or one of metadata['render_modes'] {list(modes)}, "  # pyright: ignore[reportUnknownArgumentType]
            f"got {render_mode!r}"
        )


def check_render_return(render_mode: str | None, frame: object) -> None:
    """Warn when a rendered value does not match its mode (``rgb_array``: uint8 ``(H, W, 3)``; ...).

    Args:
        render_mode: The environment's render mode.
        frame: What ``render`` returned.
    """
    if render_mode is None:
        return
    if render_mode == "human":
        if frame is not None:
            logger.warn(f"Human rendering should return `None`, got {type(frame)}", stacklevel=3)
    elif render_mode == "rgb_array":
        if not isinstance(frame, np.ndarray):
            logger.warn(f"RGB-array rendering should return a numpy array, got {type(frame)}", stacklevel=3)
            return
        if frame.dtype != np.uint8:  # pyright: ignore[reportUnknownMemberType]
            logger.warn(f"RGB-array rendering should return a numpy array with dtype uint8, got {frame.dtype}")  # pyright: ignore[reportUnknownMemberType]
        if frame.ndim != 3:
            logger.warn(f"RGB-array rendering should return a numpy array with three axes, got {frame.ndim}")
        elif frame.shape[2] != 3:  # pyright: ignore[reportUnknownMemberType]
            logger.warn(
                "RGB-array rendering should return a numpy array in which the last axis has three dimensions, "
                f"got {frame.shape[2]}"  # pyright: ignore[reportUnknownMemberType]
            )
    elif render_mode == "depth_array":
        if not isinstance(frame, np.ndarray):
            logger.warn(f"Depth-array rendering should return a numpy array, got {type(frame)}")
        elif frame.ndim != 2:
            logger.warn(f"Depth-array rendering should return a numpy array with two axes, got {frame.ndim}")
    elif render_mode in ("ansi", "ascii"):
        if not isinstance(frame, str):
            logger.warn(f"ANSI/ASCII rendering should produce a string, got {type(frame)}")
    elif render_mode.endswith("_list"):
        if not isinstance(frame, list):
            logger.warn(f"Render mode `{render_mode}` should produce a list, got {type(frame)}")
            return
        for item in frame:  # pyright: ignore[reportUnknownVariableType]
            check_render_return(render_mode[: -len("_list")], item)  # pyright: ignore[reportUnknownArgumentType]
