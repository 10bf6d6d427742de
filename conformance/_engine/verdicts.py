"""What an item's ending means when its process did not return, and when a skip may stand: the verdicts the
:class:`~conformance._engine.runner.ItemRunner` writes itself.

Unchecked is never a pass: an item whose process hung, died or outgrew the memory cap in a call another rule owns
may skip ("reported by ENV-016") only when that rule failed; otherwise it is an error naming the cause and the
remedy. Over the memory cap fails the rule in progress, whatever the call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from conformance._engine.case import headless, owner_of, owner_text
from conformance._engine.options import CaseParam
from conformance._engine.processes import Snapshot
from conformance._engine.supervisor import Died, Failure, Hung, Interrupted, OverMemory
from conformance.results import CONSTRUCT, SEVERITY, Outcome, rule_level

__all__ = [
    "REPORTED_BY",
    "RULE_ID",
    "Verdict",
    "describe_ending",
    "owning_rule",
    "remedy",
    "verdict",
    "worse",
]

@dataclass(frozen=True)
class Verdict:
    kind: Literal["passed", "failed", "skipped"]
    outcome: Outcome  # the record's outcome: failed, skipped or error
    message: str




def verdict(param: CaseParam, outcome: Failure, first: str | None, owner_failed: bool) -> Verdict:
    """What an ending that was not a return means for one item.

    Args:
        param: The item.
        outcome: How its process (or, with ``first``, an earlier item's) ended.
        first: The item whose process hung in this call, when it is not this one.
        owner_failed: Whether the rule that owns the call in progress failed (only then may this item skip, as
            reported by it; otherwise the item was not checked, and says so as an error).
    """
    from gymspec.rules import RULES

    rule_id = param.rule_id or CONSTRUCT
    target = param.target.id
    board = outcome.board
    if isinstance(outcome, Interrupted):
        return Verdict("failed", "error", f"{rule_id} not finished on {target}: interrupted (Ctrl-C) {_during(board)}")
    if isinstance(outcome, Died) and outcome.detail:
        return Verdict("failed", "error",
                        f"{rule_id} not checked on {target}: internal error of the conformance suite\n{outcome.detail}")
    ending = describe_ending(outcome)
    if first is not None:
        ending += f" (first seen in {first}; not called again)"
    # Over the memory cap is the item's own failure, whatever call was in progress: the rule in progress made it
    # hold that much (README: "an item holding more memory ... becomes a failure of that item's rule").
    owner = None if isinstance(outcome, OverMemory) else owning_rule(param, board)
    if board.mode == "human" and headless() and not isinstance(outcome, OverMemory):
        return Verdict("skipped", "skipped",
                        f"{rule_id} not checked on {target}: {ending}, on a machine with no display "
                        "(DISPLAY/WAYLAND_DISPLAY unset); check human rendering under a display, e.g. "
                        "xvfb-run -a pytest --pyargs conformance ...")
    if owner is not None and owner != rule_id:
        if owner_failed:
            return Verdict("skipped", "skipped",
                            f"{rule_id} not checked on {target}: {ending} (reported by {owner_text(owner)})")
        return Verdict("failed", "error",
                        f"{rule_id} ({rule_level(rule_id)}) not checked on {target}: {ending}; "
                        f"{owner_text(owner)} did not fail, so nothing reports it. {remedy(owner, outcome)}")
    if param.rule_id is None:
        return Verdict("failed", "failed", f"CONSTRUCT: target {target} cannot be constructed: {ending}")
    if first is not None and owner is None:
        return Verdict("failed", "error",
                        f"{rule_id} ({rule_level(rule_id)}) not checked: target {target} hung earlier: {ending}. "
                        f"{remedy(None, outcome)}")
    problem = f"the target hung: {ending}" if isinstance(outcome, Hung) else ending
    message = f"{rule_id} ({rule_level(rule_id)}) violated by {target}: {problem}"
    rule = RULES.get(rule_id)
    if rule is not None:
        message += f"\n  rule:     {rule_id} {rule.level.value} {rule.text}"
    found = outcome.traceback.strip() if isinstance(outcome, (Died, Hung)) else ""
    if found:
        stacks = "\n".join(f"    {line}" for line in found.splitlines())
        when = "when it died" if isinstance(outcome, Died) else "when it was stopped"
        message += f"\n  where the process was {when}:\n{stacks}"
    return Verdict("failed", "failed", message)


REPORTED_BY = re.compile(
    r"reported by (?:the construction check|test_target_constructs|(?P<rules>[A-Z]+-\d{3}(?:(?:, | or )[A-Z]+-\d{3})*))"
)
"""A skip's "(reported by ...)" clause: the construction check, or one or more rule ids ("SEED-001 or SEED-005")."""
RULE_ID = re.compile(r"[A-Z]+-\d{3}")


def worse(known: str | None, outcome: str) -> str:
    """The worse of two outcomes of one rule (``known`` may also be a note such as ``"not run here"``)."""
    if known is None:
        return outcome
    rank: dict[str, int] = {str(name): value for name, value in SEVERITY.items()}  # a note ranks as a pass
    return outcome if rank.get(outcome, 0) > rank.get(known, 0) else known


def remedy(owner: str | None, outcome: Failure | None = None, *, hung: bool = False) -> str:
    """What to do about an item that could not be checked (``hung``: its call did not return)."""
    if isinstance(outcome, Hung) or hung:
        return ("If the target is slow rather than stuck (a compile, a slow constructor), raise "
                "--conformance-timeout; if it stalls only in forked processes, run with --conformance-isolation "
                "spawn.")
    if owner == CONSTRUCT:
        return ("A construction failed here where the probe's did not, and not for want of a process of its own (a "
                "target allowing one live instance gets one, and ENV-021's warning): make construction deterministic.")
    if isinstance(outcome, Died):
        return f"The process died in a call {owner} owns: run {owner} alone (--rules {owner}) to see it fail there."
    if owner is not None:
        return (f"Run {owner} (--rules {owner}, a larger --conformance-profile) to reproduce it as {owner}'s failure, "
                "then fix that call.")
    return "Fix the earlier failure, then run again."


def _during(board: Snapshot) -> str:
    if board.active:
        return f"while {board.label} was running"
    return f"after {board.label}" if board.label else "before any call into the target"


def _mode(board: Snapshot) -> str:
    return f" in mode {board.mode!r}" if board.mode else ""


def describe_ending(outcome: Failure) -> str:
    """How the process ended, naming the call in progress, e.g. "env.render() in mode 'human' killed ..."."""
    board = outcome.board
    call = f"{board.label}{_mode(board)}" if board.label else "the target"
    if isinstance(outcome, Hung):
        if board.active:
            return f"{call} did not return within {outcome.limit:g} s"
        return (f"no call into the target started or ended for {outcome.limit:g} s ({_during(board)}): "
                "a hang outside a tracked call (a property, __eq__, __repr__, a space method...)")
    if isinstance(outcome, OverMemory):
        return (f"the process held {outcome.rss / 2**20:.0f} MiB, over the memory cap of "
                f"{outcome.cap / 2**20:.0f} MiB (--conformance-memory), {_during(board)}")
    if isinstance(outcome, Died):
        note = f" ({board.note})" if board.note else ""
        verb = "killed the process with" if not outcome.status.startswith("exit") else "ended the process with"
        if board.active:
            return f"{call} {verb} {outcome.status}{note}"
        return f"the process died with {outcome.status} outside any call into the target ({_during(board)}){note}"
    return f"interrupted {_during(board)}"


def owning_rule(param: CaseParam, board: Snapshot) -> str | None:
    """The rule that reports a failure of the call in progress (``None``: no call, or nobody owns it)."""
    if not board.active:
        return None
    return owner_of(param.target.kind, board.method)
