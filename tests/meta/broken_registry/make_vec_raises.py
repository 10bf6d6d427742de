"""A registry whose ``make_vec`` raises for every id, as lbforaging's ids do under Gymnasium's ``make_vec`` (the
env's constructor takes a required argument that only ``make`` passes): REG-009 reports it, once; REG-008, which
needs a vector env too, skips naming REG-009."""

from __future__ import annotations

from typing import Any

from tests.meta.broken_registry.registries import Correct

__all__ = ["make", "make_vec"]


class _MakeVecRaises(Correct):
    def make_vec(self, id: Any, num_envs: int = 1, **kwargs: Any) -> Any:  # noqa: A002 - the registry API's name
        raise TypeError("__init__() missing 1 required positional argument: 'max_episode_steps'")


_REGISTRY = _MakeVecRaises()
make = _REGISTRY.make
make_vec = _REGISTRY.make_vec
