"""A registry that breaks REG-005: :class:`~tests.meta.broken_registry.registries.Reg005NoOrderEnforcing`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg005NoOrderEnforcing

__all__ = ["make", "make_vec"]

_REGISTRY = Reg005NoOrderEnforcing()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
