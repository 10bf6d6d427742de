"""Scheduling under pytest-xdist: every item of one target goes to the same worker.

Imported only when pytest-xdist asks the plugin for a scheduler (``--dist loadgroup``, which the plugin makes of
``-n N`` alone), so pytest-xdist is installed whenever this runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from xdist.scheduler import LoadGroupScheduling  # pyright: ignore[reportMissingTypeStubs] - pytest-xdist is untyped

__all__ = ["TargetScheduling"]


class TargetScheduling(LoadGroupScheduling):  # type: ignore[misc]  # untyped: pytest-xdist has no type information
    """pytest-xdist's load-group scheduling, with a conformance item's group being its target.

    Whole groups go to one worker at a time (the largest first), and a worker gets another when it is nearly done
    with its own, as for ``--dist loadgroup``; items that are not a target's keep pytest-xdist's grouping (their
    ``xdist_group`` mark, where pytest-xdist could apply it, else each item on its own).

    Args:
        config: The controller's config.
        log: pytest-xdist's log producer.
        group: The target id of a conformance item's node id, ``None`` for any other item.
    """

    def __init__(self, config: pytest.Config, log: Any, group: Callable[[str], str | None]) -> None:
        super().__init__(config, log)
        self._group = group

    def _split_scope(self, nodeid: str) -> str:
        target = self._group(nodeid)
        # A prefix no node id starts with: a target's group never merges with a file's or a mark's.
        return f"\0conformance target {target}" if target is not None else super()._split_scope(nodeid)
