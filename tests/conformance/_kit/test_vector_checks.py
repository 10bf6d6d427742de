"""VEC-012/013 read a vector env's reward and flag batches: NumPy arrays, and JAX arrays only where declared."""

from __future__ import annotations

from typing import Any

import numpy as np

from conformance._kit.vector_checks import VecFacts, batch_array
from gymspec import AutoresetMode


class _JaxLike:
    """A foreign array (``shape``, ``dtype``, ``ndim``, ``__array__``), as a ``jax.Array`` looks to the suite."""

    def __init__(self, data: Any) -> None:
        self._data = np.asarray(data)
        self.shape, self.dtype, self.ndim = self._data.shape, self._data.dtype, self._data.ndim

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray[Any, Any]:
        return self._data


def _facts(*, jax: bool) -> VecFacts:
    return VecFacts(2, None, None, None, None, AutoresetMode.NEXT_STEP, True, jax)


def test_numpy_batches_are_read_as_they_are() -> None:
    rewards = np.zeros(2)
    assert batch_array(_facts(jax=False), rewards) == (rewards, "a NumPy array")


def test_foreign_batches_only_where_jax_is_declared() -> None:
    flags = _JaxLike([True, False])
    array, due = batch_array(_facts(jax=True), flags)
    assert array is not None and array.dtype == np.bool_ and array.shape == (2,) and due == "a NumPy or JAX array"
    assert batch_array(_facts(jax=False), flags) == (None, "a NumPy array")
