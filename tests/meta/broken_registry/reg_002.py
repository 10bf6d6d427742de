"""A registry that breaks REG-002: :class:`~tests.meta.broken_registry.registries.Reg002SpecKwargsDropped`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg002SpecKwargsDropped

__all__ = ["make", "make_vec"]

_REGISTRY = Reg002SpecKwargsDropped()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
