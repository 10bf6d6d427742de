"""Batching spaces and their elements for vector environments (Gymnasium-compatible results).

* :func:`batch_space` — the space of ``n`` stacked elements of one space;
* :func:`batch_differing_spaces` — the same for ``n`` spaces that differ only in bounds/sizes;
* :func:`iterate` — split a batch back into its ``n`` elements;
* :func:`concatenate` — stack ``n`` elements into a batch buffer;
* :func:`create_empty_array` — allocate that buffer.

The space functions live in :mod:`~reference.vector.utils.space_batching`, the element functions in
:mod:`~reference.vector.utils.element_batching`; this module gathers them under Gymnasium's module name. Every
function is a :func:`functools.singledispatch` function, so a user-defined space can register its own
implementation.
"""

from __future__ import annotations

from reference.vector.utils.element_batching import concatenate, create_empty_array, iterate
from reference.vector.utils.space_batching import batch_differing_spaces, batch_space

__all__ = ["batch_differing_spaces", "batch_space", "concatenate", "create_empty_array", "iterate"]
