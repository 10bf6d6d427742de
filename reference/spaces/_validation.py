"""Shared helpers for argument checking in the space constructors and samplers.

Every message follows the project style ``"{Owner} {param} must be {expectation}, got {actual!r}"`` and summarises
arrays by shape and dtype instead of printing them.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference.error import Error
from reference.utils._format import describe

__all__ = [
    "MaskError",
    "MaskTypeError",
    "check_binary_mask",
    "check_probability",
    "describe",
    "require_mask_array",
]

_ArrayLike: TypeAlias = Any


class MaskError(Error, ValueError):
    """A sampling mask or probability of the wrong form: Gymnasium's ``Error`` and a ``ValueError`` at once."""


class MaskTypeError(Error, TypeError):
    """A sampling mask or probability of the wrong type: Gymnasium's ``Error`` and a ``TypeError`` at once."""


def require_mask_array(
    owner: str,
    param: str,
    value: _ArrayLike,
    shape: tuple[int, ...],
    dtype: type[np.generic],
) -> np.ndarray[Any, Any]:
    """Check a mask or probability array's type, dtype and shape.

    Args:
        owner: The space name used in the message, e.g. ``"Discrete.sample"``.
        param: ``"mask"`` or ``"probability"``.
        value: The array to check.
        shape: The required shape.
        dtype: The required dtype (``np.int8`` for masks, ``np.float64`` for probabilities).

    Returns:
        ``value``, typed as an array.

    Raises:
        TypeError: ``value`` is not an ndarray (also Gymnasium's ``Error``).
        ValueError: The dtype or shape is wrong (also Gymnasium's ``Error``).
    """
    if not isinstance(value, np.ndarray):
        raise MaskTypeError(f"{owner} {param} must be a numpy array, got {describe(value)}")
    if value.dtype != dtype:
        raise MaskError(f"{owner} {param} must have dtype {np.dtype(dtype)}, got {describe(value)}")
    if value.shape != shape:
        raise MaskError(f"{owner} {param} must have shape {shape}, got {describe(value)}")
    return value


def check_binary_mask(owner: str, mask: np.ndarray[Any, Any], allowed: tuple[int, ...] = (0, 1)) -> None:
    """Check every mask entry is one of ``allowed``.

    Args:
        owner: The space name used in the message.
        mask: The mask array (already type/shape checked).
        allowed: The permitted values.

    Raises:
        ValueError: Some entry is not allowed (also Gymnasium's ``Error``).
    """
    ok = np.isin(mask, allowed)
    if not ok.all():
        bad = mask[~ok]
        raise MaskError(f"{owner} mask values must be in {set(allowed)}, got {bad[:5].tolist()} among them")


def check_probability(owner: str, probability: np.ndarray[Any, Any], *, normalised: bool = True) -> None:
    """Check probability entries lie in ``[0, 1]`` and (optionally) sum to one.

    Args:
        owner: The space name used in the message.
        probability: The probability array (already type/shape checked).
        normalised: Also require the entries to sum to one (``np.isclose``).

    Raises:
        ValueError: An entry is outside ``[0, 1]`` or the sum is not one (also Gymnasium's ``Error``).
    """
    if not ((probability >= 0) & (probability <= 1)).all():
        raise MaskError(f"{owner} probability values must be in [0, 1], got {describe(probability)} outside it")
    if normalised and not np.isclose(probability.sum(), 1):
        raise MaskError(f"{owner} probability must sum to 1, got sum {float(probability.sum())!r}")
