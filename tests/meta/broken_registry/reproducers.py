"""A registry that breaks REG-003, REG-006 and REG-008 at once (cooperatively: each class's ``make``/``make_vec``
calls the next one's), so one suite run checks the reproducers of several REG rules
(:mod:`tests.meta.test_reproducers`); the catalog's registries break one rule each."""

from __future__ import annotations

from tests.meta.broken_registry.registries import Reg003UnversionedId, Reg006KeyErrorForUnknownIds, Reg008OneSubEnv

__all__ = ["make", "make_vec"]


class _Reg003006008(Reg003UnversionedId, Reg006KeyErrorForUnknownIds, Reg008OneSubEnv):
    """The spec id drops the version, unknown ids raise ``KeyError``, and ``make_vec`` makes one sub-env."""


_REGISTRY = _Reg003006008()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
