"""A registry that breaks REG-006: :class:`~tests.meta.broken_registry.registries.Reg006KeyErrorForUnknownIds`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg006KeyErrorForUnknownIds

__all__ = ["make", "make_vec"]

_REGISTRY = Reg006KeyErrorForUnknownIds()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
