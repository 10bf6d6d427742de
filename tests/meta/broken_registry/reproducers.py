"""A registry that breaks REG-003, REG-004, REG-006, REG-007 and REG-008 at once (cooperatively: each class's
``make`` and ``make_vec`` call the next one's), so one suite run checks the reproducers of several REG rules
(:mod:`tests.meta.test_reproducers`); the catalog's registries break one rule each."""

from __future__ import annotations

from tests.meta.broken_registry.registries import (
    Reg003UnversionedId,
    Reg004KeywordLimitIgnored,
    Reg006KeyErrorForUnknownIds,
    Reg007AnyRenderMode,
    Reg008OneSubEnv,
)

__all__ = ["make", "make_vec"]


class _Reg003004006007008(
    Reg003UnversionedId, Reg004KeywordLimitIgnored, Reg006KeyErrorForUnknownIds, Reg007AnyRenderMode, Reg008OneSubEnv
):
    """The spec id drops the version, the ``max_episode_steps`` keyword is ignored, unknown ids raise ``KeyError``, an
    undeclared ``render_mode`` is dropped silently, and ``make_vec`` makes one sub-env."""


_REGISTRY = _Reg003004006007008()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
