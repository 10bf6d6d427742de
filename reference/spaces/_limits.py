"""The platform's limits on sizes, checked by the space constructors and samplers before NumPy or Python runs into them.

A size past one of these limits cannot work, and left unchecked it fails late (at the first ``sample``), with
NumPy's wording ("Maximum allowed dimension exceeded", "array is too big") or an ``OverflowError``, or never returns
(a ``Sequence`` sample of ``10**12`` items is a Python loop of ``10**12`` draws). Each check raises a ``ValueError``
in the project's style instead, naming the parameter:

* ``MAX_DIMS``: NumPy's iterators (``np.broadcast``, ``np.nditer``, which ``Box`` and the samplers use) take at
  most 32 dimensions, below NumPy 2's array limit of 64;
* ``MAX_ELEMENTS``: an array holds at most ``2**63 - 1`` bytes (``np.intp``'s maximum on 64-bit platforms), so at
  most that many elements of one byte;
* :func:`memory_bytes`: a sample whose smallest possible size exceeds the machine's physical memory can never be
  built. This bounds the sizes NumPy cannot see in advance: ``Text`` lengths and ``Sequence`` lengths, whose samples
  are built item by item.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Sequence

import numpy as np

__all__ = ["MAX_DIMS", "MAX_ELEMENTS", "check_array_size", "check_fits_memory", "memory_bytes"]

MAX_DIMS = 32
"""The most dimensions an array space may have (NumPy's iterators' limit)."""

MAX_ELEMENTS = int(np.iinfo(np.intp).max)
"""The most bytes (so elements of one byte) one NumPy array may hold on this platform."""

_FALLBACK_MEMORY = 2**40
"""What :func:`memory_bytes` assumes where the OS does not say (not Linux or macOS): 1 TiB."""


@functools.cache
def memory_bytes() -> int:
    """The machine's physical memory in bytes (``sysconf``), or 1 TiB where the OS does not report it."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):
        return _FALLBACK_MEMORY


def check_array_size(
    owner: str,
    param: str,
    shape: Sequence[int],
    itemsize: int,
    actual: object,
    error: type[ValueError] = ValueError,
) -> None:
    """Reject an array shape NumPy cannot allocate on this platform, whatever the memory.

    Args:
        owner: The space (or method) named in the message, e.g. ``"MultiBinary"``.
        param: The parameter named in the message.
        shape: The array shape the parameter implies (Python ints, non-negative).
        itemsize: The bytes per element.
        actual: What the caller passed, for the message.
        error: The ``ValueError`` subclass to raise (``MaskError`` for a sampling argument).

    Raises:
        ValueError: More than :data:`MAX_DIMS` dimensions, or more than :data:`MAX_ELEMENTS` bytes.
    """
    if len(shape) > MAX_DIMS:
        raise error(
            f"{owner} {param} must have at most {MAX_DIMS} dimensions (NumPy's limit), got {len(shape)} dimensions "
            f"in {actual!r}"
        )
    if math.prod(shape) * max(itemsize, 1) > MAX_ELEMENTS:
        raise error(
            f"{owner} {param} must describe an array of at most 2**63 - 1 bytes (NumPy's limit), got {actual!r}"
        )


def check_fits_memory(
    owner: str, param: str, count: int, bytes_each: int, what: str, error: type[ValueError] = ValueError
) -> None:
    """Reject a count of items whose smallest possible sample exceeds the machine's physical memory.

    Args:
        owner: The space (or method) named in the message.
        param: The parameter named in the message.
        count: The number of items the parameter asks for.
        bytes_each: The fewest bytes one item takes in the sample.
        what: The items, for the message (``"characters"``, ``"items"``).
        error: The ``ValueError`` subclass to raise (``MaskError`` for a sampling argument).

    Raises:
        ValueError: ``count * bytes_each`` exceeds :func:`memory_bytes`.
    """
    available = memory_bytes()
    if count * bytes_each > available:
        raise error(
            f"{owner} {param} must be at most {available // bytes_each} (a sample of that many {what} needs "
            f"{bytes_each} bytes each of this machine's {available} bytes of memory), got {count!r}"
        )
