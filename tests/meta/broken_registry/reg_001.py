"""A registry that breaks REG-001: :class:`~tests.meta.broken_registry.registries.Reg001MalformedId`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg001MalformedId

__all__ = ["make", "make_vec"]

_REGISTRY = Reg001MalformedId()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
