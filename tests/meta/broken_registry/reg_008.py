"""A registry that breaks REG-008: :class:`~tests.meta.broken_registry.registries.Reg008OneSubEnv`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg008OneSubEnv

__all__ = ["make", "make_vec"]

_REGISTRY = Reg008OneSubEnv()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
