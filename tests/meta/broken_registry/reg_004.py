"""A registry that breaks REG-004: :class:`~tests.meta.broken_registry.registries.Reg004KeywordLimitIgnored`."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg004KeywordLimitIgnored

__all__ = ["make", "make_vec"]

_REGISTRY = Reg004KeywordLimitIgnored()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
