"""Importing this module registers :data:`~tests.meta.broken_registry._base.HOP_ID` in the reference registry, for
processes of their own: a suite run given ``--env-id tests.meta.broken_registry.hop:conformance_meta/Hop-v0`` and
the reproducers it writes, which make that id in a fresh interpreter (:mod:`tests.meta.test_reproducers`).
In-process meta-tests register it for their duration instead (:func:`~tests.meta.broken_registry._base.registered`).
"""

from __future__ import annotations

from reference import registration
from tests.meta.broken_registry._base import HOP_ID

__all__: list[str] = []

if HOP_ID not in registration.registry:
    registration.register(id=HOP_ID, entry_point="tests.meta.broken_vector._base:Hop", max_episode_steps=8)
