"""The construction check: one item per target, the single place a constructor's exception is reported.

Every rule item of a target that cannot be constructed skips with a pointer here, so a broken constructor shows up
as one clear error instead of one failure per rule.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import pytest

from conformance._kit.api import (
    TargetState, Unchecked,
)


def test_target_constructs(conformance_target: TargetState) -> None:
    state = conformance_target
    target = state.target
    if target.unavailable is not None:
        pytest.skip(target.unavailable)
    probe = state.probe()
    if probe is None:
        detail = f"\n{state.construct_traceback}" if state.construct_traceback else ""
        if state.construct_needs_display:
            # Not the target's break on this machine, nor a pass: the run fails as not checked, naming the remedy.
            raise Unchecked(
                f"CONSTRUCT: target {target.id} not checked: {state.construct_error}: it opens a window when it is "
                f"made, and this machine has no display (DISPLAY/WAYLAND_DISPLAY unset); "
                f"{state.construct_needs_display}\n  reproducer:\n    "
                f"{target.constructor_source()}{detail}"
            )
        pytest.fail(
            f"CONSTRUCT: target {target.id} cannot be constructed: {state.construct_error}\n"
            f"  reproducer:\n    {target.constructor_source()}{detail}",
            pytrace=False,
        )
