"""Shared helpers for argument checking in the space constructors and samplers.

Every message follows the project style ``"{Owner} {param} must be {expectation}, got {actual!r}"`` and summarises
arrays by shape and dtype instead of printing them.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference._narrowing import is_array, is_tuple
from reference.error import Error
from reference.utils._format import describe

__all__ = [
    "MaskError",
    "MaskTypeError",
    "both_given_error",
    "check_binary_mask",
    "check_probability",
    "describe",
    "pick_sample_arg",
    "require_arg_tuple",
    "require_mask_array",
]

_ArrayLike: TypeAlias = Any
_SampleArg: TypeAlias = Any  # a mask or probability, nested like the space


class MaskError(Error, ValueError, AssertionError):
    """A sampling mask or probability of the wrong form: a ``ValueError``.

    It is also each type Gymnasium raises for such an argument (its ``Error`` for some checks, an
    ``AssertionError`` from ``assert`` for others), so code written against Gymnasium catches it unchanged.
    """


class MaskTypeError(Error, TypeError, AssertionError):
    """A sampling mask or probability of the wrong type: a ``TypeError`` (and Gymnasium's types, as MaskError)."""


def both_given_error(owner: str, mask: object, probability: object) -> MaskError:
    """Build the error for a ``sample`` call given both a mask and a probability.

    Callers test ``mask is not None and probability is not None`` themselves and raise the result, so the
    common unrestricted call pays for no function call.

    Args:
        owner: The sampler's name used in the message, e.g. ``"Discrete.sample"``.
        mask: The mask given.
        probability: The probability given.

    Returns:
        The error to raise (also Gymnasium's ``Error``).
    """
    return MaskError(
        f"{owner} mask and probability must not both be given, got mask={describe(mask)} "
        f"probability={describe(probability)}"
    )


def pick_sample_arg(owner: str, mask: _SampleArg, probability: _SampleArg) -> tuple[str, _SampleArg]:
    """Return which restriction a ``sample`` call was given, for samplers that pass it on by name.

    Args:
        owner: The sampler's name used in the message.
        mask: The mask, or ``None``.
        probability: The probability, or ``None``; at least one of the two is given.

    Returns:
        ``("mask", mask)`` or ``("probability", probability)``.

    Raises:
        ValueError: Both were given (also Gymnasium's ``Error``).
    """
    if mask is not None:
        if probability is not None:
            raise both_given_error(owner, mask, probability)
        return "mask", mask
    return "probability", probability


def require_arg_tuple(owner: str, param: str, value: _SampleArg, length: int) -> tuple[_SampleArg, ...]:
    """Check a composite's mask or probability is a tuple with one entry per subspace.

    Args:
        owner: The sampler's name used in the message.
        param: ``"mask"`` or ``"probability"``.
        value: The candidate tuple.
        length: The number of subspaces.

    Returns:
        ``value``, typed as a tuple.

    Raises:
        TypeError: ``value`` is not a tuple (also Gymnasium's ``Error``).
        ValueError: ``value`` has the wrong length (also Gymnasium's ``Error``).
    """
    if not is_tuple(value):
        raise MaskTypeError(f"{owner} {param} must be a tuple (one entry per subspace), got {describe(value)}")
    if len(value) != length:
        raise MaskError(f"{owner} {param} must have length {length}, got length {len(value)}")
    return value


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
    if not is_array(value):
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
