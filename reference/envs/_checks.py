"""Cheap argument checks shared by the built-in environments.

Gymnasium validates these with ``assert`` (or not at all); the reference raises errors that are both the
specification's class (so the conformance suite recognises them) and the matching builtin (so ``except ValueError``
keeps working).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from gymspec.errors import InvalidAction

from reference._narrowing import is_array

__all__ = [
    "DiscreteAction",
    "DiscreteObs",
    "InvalidDiscreteAction",
    "discrete_action",
    "summarise",
]

DiscreteAction: TypeAlias = "int | np.integer[Any] | NDArray[np.integer[Any]]"
"""What ``step`` of a ``Discrete``-action environment accepts: an int, a NumPy integer or a 0-d integer array."""

DiscreteObs: TypeAlias = "int | np.int64"
"""A ``Discrete`` observation: the built-ins return Python ints (as Gymnasium's do); ``Discrete.sample`` gives int64."""


class InvalidDiscreteAction(InvalidAction, ValueError):
    """An action given to ``step`` is not an element of the environment's ``Discrete`` action space."""


def summarise(value: object) -> str:
    """Describe a value for an error message, summarising arrays by shape and dtype.

    Args:
        value: The offending value.

    Returns:
        A short ``repr``-like description.
    """
    if is_array(value):
        return f"array(shape={value.shape}, dtype={value.dtype})"
    return repr(value)


def discrete_action(owner: str, action: object, n: int) -> int:
    """Convert an action to a Python int, accepting what ``Discrete(n).contains`` accepts.

    Python ints (and bools), NumPy integer scalars and 0-d integer arrays in ``[0, n)`` are valid. Callers keep
    a ``type(action) is int`` fast path in front of this function, so it is only reached for other types or
    out-of-range values.

    Args:
        owner: The environment class name, used in the error message.
        action: The action passed to ``step``.
        n: The number of actions.

    Returns:
        The action as a Python int.

    Raises:
        InvalidDiscreteAction: If the action is not an integer in ``[0, n)``.
    """
    value: int | None = None
    if isinstance(action, (int, np.integer)):  # every step: no helper call
        value = int(action)  # pyright: ignore[reportUnknownArgumentType]
    elif is_array(action) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        value = int(action.item())
    if value is None or not 0 <= value < n:
        raise InvalidDiscreteAction(
            f"{owner} action must be an integer in [0, {n}) (an element of Discrete({n})), "
            f"got {summarise(action)} of type {type(action).__name__}"  # pyright: ignore[reportUnknownArgumentType]
        )
    return value
