"""The id every registry meta-test makes: ``Hop`` (a correct env), registered only while a test needs it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from reference import registration

__all__ = ["HOP_ID", "make", "make_vec", "registered"]

HOP_ID = "conformance_meta/Hop-v0"


@contextmanager
def registered() -> Iterator[str]:
    """Register :data:`HOP_ID` in the reference registry for the duration (other tests never see it)."""
    added = HOP_ID not in registration.registry
    if added:
        registration.register(id=HOP_ID, entry_point="tests.meta.broken_vector._base:Hop", max_episode_steps=8)
    try:
        yield HOP_ID
    finally:
        if added:
            del registration.registry[HOP_ID]


def make(id: Any, **kwargs: Any) -> Any:  # noqa: A002 - the registry API's parameter name
    """The reference ``make`` (the correct registry, for the broken modules to start from)."""
    return registration.make(id, **kwargs)


def make_vec(id: Any, num_envs: int = 1, **kwargs: Any) -> Any:  # noqa: A002
    """The reference ``make_vec``."""
    return registration.make_vec(id, num_envs=num_envs, **kwargs)
