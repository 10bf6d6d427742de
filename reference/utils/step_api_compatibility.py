"""Convert ``step`` results between the ``done`` API (before Gymnasium 0.26) and ``terminated``/``truncated``.

The old API returned ``(obs, reward, done, info)`` and flagged time-limit ends with ``info["TimeLimit.truncated"]``;
the current one returns ``(obs, reward, terminated, truncated, info)``. Vector results may carry their infos as a
list of dicts (one per sub-environment) or as one dict of arrays. The caller's info is never modified: a converted
result carries a converted copy.

Example:
    >>> from reference.utils.step_api_compatibility import step_api_compatibility
    >>> step_api_compatibility((0, 1.0, True, {"TimeLimit.truncated": True}))
    (0, 1.0, False, True, {})
    >>> step_api_compatibility((0, 1.0, False, True, {}), output_truncation_bool=False)
    (0, 1.0, True, {'TimeLimit.truncated': True})
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference._narrowing import is_dict, is_list

__all__ = ["convert_to_done_step_api", "convert_to_terminated_truncated_step_api", "step_api_compatibility"]

_KEY = "TimeLimit.truncated"
_Value: TypeAlias = Any
_Info: TypeAlias = dict[str, _Value]
DoneStepType: TypeAlias = tuple[_Value, _Value, _Value, _Value]
"""``(obs, reward, done, info)``; for vector environments the middle entries are arrays."""
TerminatedTruncatedStepType: TypeAlias = tuple[_Value, _Value, _Value, _Value, _Value]
"""``(obs, reward, terminated, truncated, info)``; for vector environments the middle entries are arrays."""


def _check_length(step_returns: tuple[object, ...], function: str) -> None:
    if len(step_returns) not in (4, 5):
        raise ValueError(
            f"{function} step_returns must have 4 (obs, reward, done, info) or 5 (obs, reward, terminated, "
            f"truncated, info) elements, got {len(step_returns)}"
        )


def _copy_info(info: _Value) -> _Info:
    """A shallow copy of one info dict, so that the caller's info is never modified."""
    copied: _Info = dict(info)
    return copied


def _infos_type_error(function: str, infos: object) -> TypeError:
    return TypeError(
        f"{function} infos of a vector environment must be a list of dicts or a dict of arrays, "
        f"got {type(infos).__name__}"
    )


def convert_to_terminated_truncated_step_api(
    step_returns: DoneStepType | TerminatedTruncatedStepType, is_vector_env: bool = False
) -> TerminatedTruncatedStepType:
    """Return ``step_returns`` in the ``terminated``/``truncated`` API (unchanged if already in it).

    ``done`` with ``info["TimeLimit.truncated"]`` becomes ``truncated``, otherwise ``terminated``; the key is
    dropped from the returned info.

    Args:
        step_returns: A 4- or 5-tuple ``step`` result.
        is_vector_env: Whether it comes from a vector environment (flags are arrays).

    Returns:
        The 5-tuple.

    Raises:
        ValueError: If ``step_returns`` has neither 4 nor 5 elements.
        TypeError: If a vector result's infos are neither a list nor a dict.
    """
    _check_length(step_returns, "convert_to_terminated_truncated_step_api")
    if len(step_returns) == 5:
        return step_returns
    obs, rewards, dones, infos = step_returns
    if not is_vector_env:
        info = dict(infos)
        truncated = info.pop(_KEY, False)
        return obs, rewards, dones and not truncated, dones and truncated, info
    converted: list[_Info] | _Info
    truncations: _Value
    if is_list(infos):
        converted = [_copy_info(info) for info in infos]
        truncations = np.array([info.pop(_KEY, False) for info in converted])
    elif is_dict(infos):
        converted = _copy_info(infos)
        truncations = converted.pop(_KEY, np.zeros(len(dones), dtype=bool))
    else:
        raise _infos_type_error("convert_to_terminated_truncated_step_api", infos)
    return (
        obs,
        rewards,
        np.logical_and(dones, np.logical_not(truncations)),
        np.logical_and(dones, truncations),
        converted,
    )


def convert_to_done_step_api(
    step_returns: TerminatedTruncatedStepType | DoneStepType, is_vector_env: bool = False
) -> DoneStepType:
    """Return ``step_returns`` in the ``done`` API (unchanged if already in it).

    ``done = terminated or truncated``; when an episode ended, ``info["TimeLimit.truncated"]`` records whether it
    was a truncation only (``truncated and not terminated``).

    Args:
        step_returns: A 4- or 5-tuple ``step`` result.
        is_vector_env: Whether it comes from a vector environment (flags are arrays).

    Returns:
        The 4-tuple.

    Raises:
        ValueError: If ``step_returns`` has neither 4 nor 5 elements.
        TypeError: If a vector result's infos are neither a list nor a dict.
    """
    _check_length(step_returns, "convert_to_done_step_api")
    if len(step_returns) == 4:
        return step_returns
    obs, rewards, terminated, truncated, infos = step_returns
    if not is_vector_env:
        info = dict(infos)
        if terminated or truncated:
            info[_KEY] = truncated and not terminated
        return obs, rewards, terminated or truncated, info
    converted: list[_Info] | _Info
    if is_list(infos):
        converted = [_copy_info(info) for info in infos]
        for info, env_terminated, env_truncated in zip(converted, terminated, truncated):
            if env_terminated or env_truncated:
                info[_KEY] = env_truncated and not env_terminated
    elif is_dict(infos):
        converted = _copy_info(infos)
        if np.any(terminated) or np.any(truncated):
            converted[_KEY] = np.logical_and(truncated, np.logical_not(terminated))
    else:
        raise _infos_type_error("convert_to_done_step_api", infos)
    return obs, rewards, np.logical_or(terminated, truncated), converted


def step_api_compatibility(
    step_returns: TerminatedTruncatedStepType | DoneStepType,
    output_truncation_bool: bool = True,
    is_vector_env: bool = False,
) -> TerminatedTruncatedStepType | DoneStepType:
    """Return ``step_returns`` in the API ``output_truncation_bool`` asks for, whichever API it is in.

    Args:
        step_returns: A 4- or 5-tuple ``step`` result.
        output_truncation_bool: ``True`` for ``(obs, reward, terminated, truncated, info)``, ``False`` for
            ``(obs, reward, done, info)``.
        is_vector_env: Whether it comes from a vector environment.

    Returns:
        The converted result.
    """
    if output_truncation_bool:
        return convert_to_terminated_truncated_step_api(step_returns, is_vector_env)
    return convert_to_done_step_api(step_returns, is_vector_env)
