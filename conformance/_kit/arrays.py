"""Arrays of other libraries (JAX, PyTorch, CuPy, any array-API array) read as NumPy arrays.

Gymnasium's ``FuncEnv`` and ``VectorEnv`` are generic in their array type: a JAX env returns ``jax.Array`` s, a
Torch one tensors. The suite compares, hashes and tests membership on NumPy arrays, so a *foreign* array is
converted first: through ``__array__`` (``np.asarray``) where the library offers it, else through DLPack
(``np.from_dlpack``). Nothing here imports a foreign library: a value is recognised by its protocol methods, so a
NumPy-only run never imports JAX.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from conformance._engine.describe import is_mapping

__all__ = ["as_numpy", "is_foreign_array", "jax_declared"]


def is_foreign_array(value: object) -> bool:
    """Whether ``value`` is an array of another library than NumPy (it has ``shape``, ``dtype`` and converts)."""
    if isinstance(value, (np.ndarray, np.generic)) or isinstance(value, type):
        return False
    converts = hasattr(value, "__array__") or hasattr(value, "__dlpack__")
    return converts and hasattr(value, "shape") and hasattr(value, "dtype") and hasattr(value, "ndim")


def as_numpy(value: object) -> NDArray[Any] | None:
    """``value`` as a NumPy array when it is a foreign array (``None`` otherwise, or when it cannot convert).

    A JAX PRNG key of the typed kind (``jax.random.key``) has no NumPy dtype and does not convert: ``None``.
    """
    if not is_foreign_array(value):
        return None
    if hasattr(value, "__array__"):
        try:
            return np.asarray(value)
        except Exception:  # noqa: BLE001 - e.g. a device array that refuses: DLPack is the array API's route
            pass
    try:
        return np.from_dlpack(value)  # type: ignore[arg-type]  # duck-typed: the array API's exchange protocol
    except Exception:  # noqa: BLE001 - not convertible: the caller treats it as an opaque value
        return None


def jax_declared(metadata: object) -> bool:
    """Whether an env declares JAX arrays as its values (``metadata["jax"] is True``, Gymnasium's convention)."""
    if not is_mapping(metadata):
        return False
    try:
        return metadata.get("jax") is True
    except Exception:  # noqa: BLE001 - an exotic mapping that raises declares nothing
        return False
