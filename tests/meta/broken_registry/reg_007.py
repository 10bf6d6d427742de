"""A registry that breaks REG-007: :class:`~tests.meta.broken_registry.registries.Reg007AnyRenderMode`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg007AnyRenderMode

__all__ = ["make", "make_vec"]

_REGISTRY = Reg007AnyRenderMode()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
