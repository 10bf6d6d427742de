"""Argument handling shared by the functional CartPole and Pendulum: params from options, state checks."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import NDArray
from typing_extensions import TypeAlias

from reference.envs._checks import summarise

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["check_option_names", "params_from", "states"]

_ParamsT = TypeVar("_ParamsT", bound="DataclassInstance")
_Value: TypeAlias = Any


def _field_names(params_cls: type[DataclassInstance]) -> list[str]:
    return [f.name for f in dataclasses.fields(params_cls)]


def check_option_names(
    owner: str, options: Mapping[str, _Value] | None, params_cls: type[DataclassInstance]
) -> None:
    """Reject options that name no parameter (a typo would otherwise be silently ignored).

    Args:
        owner: The functional environment's class name.
        options: The constructor's options.
        params_cls: The params dataclass whose field names are the valid options.

    Raises:
        TypeError: If an option is not a field of ``params_cls``.
    """
    if options is None or not isinstance(options, Mapping):
        return
    names = _field_names(params_cls)
    unknown = sorted(str(key) for key in options if key not in names)
    if unknown:
        raise TypeError(f"{owner} options must name {params_cls.__name__} fields {names}, got unknown {unknown}")


def params_from(owner: object, params_cls: type[_ParamsT], overrides: Mapping[str, _Value]) -> _ParamsT:
    """Build params from the attributes ``options`` set on ``owner``, then ``overrides``.

    Args:
        owner: The functional environment (its instance attributes named like fields are used).
        params_cls: The params dataclass.
        overrides: Field values that take precedence.

    Returns:
        A new params object.

    Raises:
        TypeError: If an override names no field.
    """
    names = _field_names(params_cls)
    unknown = sorted(key for key in overrides if key not in names)
    if unknown:
        raise TypeError(
            f"{type(owner).__name__} get_default_params kwargs must be {params_cls.__name__} fields {names}, "
            f"got unknown {unknown}"
        )
    values = {name: vars(owner)[name] for name in names if name in vars(owner)}
    values.update(overrides)
    return params_cls(**values)


def states(owner: str, state: object, width: int) -> NDArray[np.float64]:
    """View a state or a batch of states as a float64 array of shape ``(..., width)`` (never copied if it is one).

    Args:
        owner: The functional environment's class name.
        state: One state of shape ``(width,)`` or a batch of shape ``(..., width)``.
        width: The number of state variables.

    Returns:
        The float64 array.

    Raises:
        ValueError: If the state does not have that shape or is not numeric.
    """
    try:
        arr = np.asarray(state, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{owner} state must be a float array of shape (..., {width}), got {summarise(state)}") from exc
    if arr.ndim == 0 or arr.shape[-1] != width:
        raise ValueError(f"{owner} state must be a float array of shape (..., {width}), got {summarise(state)}")
    return arr
