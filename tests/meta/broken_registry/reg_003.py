"""A registry that breaks REG-003: :class:`~tests.meta.broken_registry.registries.Reg003UnversionedId`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg003UnversionedId

__all__ = ["make", "make_vec"]

_REGISTRY = Reg003UnversionedId()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
