"""Fixtures that keep registry tests from leaking ids into each other or into the rest of the suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from reference.registration import registry


@pytest.fixture(autouse=True)
def restore_registry() -> Iterator[None]:
    """Snapshot the global registry and restore it after the test, whatever the test registered or deleted."""
    saved = dict(registry)
    yield
    registry.clear()
    registry.update(saved)
