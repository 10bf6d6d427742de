"""A registry that breaks REG-009: ``make_vec`` rounds ``num_envs`` up to an even count (1 gives 2, 3 gives 4), so
REG-008's count of 2 and the suite's default of 4 still come out right."""

from __future__ import annotations

from typing import Any

from tests.meta.broken_registry.registries import Correct

__all__ = ["make", "make_vec"]


class _Reg009EvenSubEnvs(Correct):
    def make_vec(self, id: Any, num_envs: int = 1, **kwargs: Any) -> Any:  # noqa: A002 - the registry API's name
        return super().make_vec(id, num_envs=num_envs + num_envs % 2, **kwargs)


_REGISTRY = _Reg009EvenSubEnvs()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
