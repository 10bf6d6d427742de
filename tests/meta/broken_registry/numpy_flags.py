"""A correct registry whose envs made from a spec return ``numpy.bool_`` flags:
:class:`~tests.meta.broken_registry.registries.NumpyFlagsFromSpec`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import NumpyFlagsFromSpec

__all__ = ["make", "make_vec"]

_REGISTRY = NumpyFlagsFromSpec()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
