"""Which failure reproducers may end without an assertion, and why (shared by the broken-target meta-tests).

A failure's reproducer ends in an ``assert`` that fails while the defect exists and passes once it is fixed
(issue 24 item 8; :mod:`tests.meta.test_reproducers` runs a sample as scripts). Two kinds of exception remain, each
keyed by a rule id or a broken target's name:

* :data:`RAISING`: the replayed call raises the finding itself (the exception *is* the violation, and a fixed
  target's script runs through);
* :data:`UNASSERTED`: rules whose checks write no assertion yet, with the reason (none now). This list must only
  shrink.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["RAISING", "UNASSERTED", "ends_in_assert", "excused", "stale", "unasserted"]

RAISING: dict[str, str] = {
    "ENV-016": "step() raising on a valid action",
    "ENV-020": "a second close() raising",
    "ENV-021": "a second live instance's construction raising",
    "ENV-030": "a call after close() or across instances raising",
    "ENV-031": "reset(options={}) raising",
    "RENDER-004": "render() raising",
    "RENDER-015": "close() raising after render()",
    "SEED-007": "reset(seed=<a large seed>) raising",
    "WRAP-002": "a wrapper's call raising",
    "WRAP-007": "a wrapper's call raising",
    "VEC-016": "step() raising on a valid batch of actions",
    "VEC-019": "a second close() raising",
    "Render001RejectsRenderMode": "the construction with render_mode raising",
    "Render001RejectsNone": "the construction with render_mode=None raising",
}
"""Rules (or targets) whose replayed call raises the finding, and which call."""

UNASSERTED: dict[str, str] = {}
"""Rules whose reproducers still end without an assertion, and why: the list shrinks as their checks gain one."""


def ends_in_assert(script: str) -> bool:
    """Whether a reproducer's last line is an ``assert``."""
    lines = script.rstrip().splitlines()
    return bool(lines) and lines[-1].startswith("assert ")


def excused(rule: str, target: str) -> bool:
    """Whether the failure of ``rule`` on ``target`` (its spec or id) may end without an assertion."""
    name = target.rpartition(":")[2]
    keys = (rule, name)
    return any(key in RAISING or key in UNASSERTED for key in keys) or any(key in target for key in RAISING)


def unasserted(records: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """``"RULE on target"`` → the reproducer's last line, for every failed or warned record whose reproducer ends
    without an assertion and is not excused. A failure with no reproducer at all (Hypothesis gave up on the example:
    a flaky or unhealthy test) replays nothing, and is the business of the tests of its rule's outcome."""
    found: dict[str, str] = {}
    for record in records:
        script = str(record.get("reproducer") or "").rstrip()
        if record["outcome"] not in ("failed", "warned") or not script:
            continue
        if ends_in_assert(script) or excused(str(record["rule"]), str(record["target"])):
            continue
        found[f"{record['rule']} on {record['target']}"] = script.splitlines()[-1]
    return found


def stale(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """The rules :data:`UNASSERTED` lists that failed or warned in ``records`` with an assertion every time: they
    leave the list."""
    ends: dict[str, list[bool]] = {}
    for record in records:
        if record["outcome"] in ("failed", "warned") and record["rule"] in UNASSERTED:
            ends.setdefault(str(record["rule"]), []).append(ends_in_assert(str(record.get("reproducer") or "")))
    return sorted(rule for rule, asserted in ends.items() if all(asserted))
