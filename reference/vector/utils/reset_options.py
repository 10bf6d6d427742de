"""Reading vector ``reset`` options: the ``reset_mask`` that restricts a reset to some sub-environments."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_array
from reference.utils._format import describe

__all__ = ["split_reset_mask"]

#: The options dict given to a vector environment's ``reset``.
Options: TypeAlias = dict[str, Any]
BoolArray: TypeAlias = NDArray[np.bool_]



def split_reset_mask(owner: str, options: Options | None, num_envs: int) -> tuple[BoolArray | None, Options | None]:
    """Take ``reset_mask`` out of vector ``reset`` options without touching the caller's dict.

    Vector environments and vector wrappers use it so that all of them accept and reject the same masks.

    Example::

        >>> import numpy as np
        >>> mask, rest = split_reset_mask("MyVectorEnv", {"reset_mask": np.array([True, False]), "x": 1}, 2)
        >>> mask.tolist(), rest
        ([True, False], {'x': 1})
        >>> split_reset_mask("MyVectorEnv", {"x": 1}, 2)
        (None, {'x': 1})

    Args:
        owner: The class name for error messages.
        options: The caller's ``reset`` options.
        num_envs: The number of sub-environments.

    Returns:
        ``(mask, options)``: a copy of the validated mask (``None`` when absent) and the options to pass to
        sub-envs (a new dict without ``reset_mask`` when there was one, else the caller's own).

    Raises:
        TypeError: The mask is not a NumPy array or its dtype is not bool.
        ValueError: The mask's shape is not ``(num_envs,)`` or it selects no sub-environment.
    """
    if options is None or "reset_mask" not in options:
        return None, options
    mask = options["reset_mask"]
    if not is_array(mask):
        raise TypeError(f"{owner} options['reset_mask'] must be a numpy bool array, got {describe(mask)}")
    if mask.shape != (num_envs,):
        raise ValueError(f"{owner} options['reset_mask'] must have shape ({num_envs},), got {describe(mask)}")
    if mask.dtype != np.bool_:
        raise TypeError(f"{owner} options['reset_mask'] must have dtype bool, got {describe(mask)}")
    if not mask.any():
        raise ValueError(f"{owner} options['reset_mask'] must select at least one sub-env, got {mask.tolist()!r}")
    rest = {key: value for key, value in options.items() if key != "reset_mask"}
    return mask.copy(), rest
