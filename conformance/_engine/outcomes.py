"""The exceptions a check ends with: a rule violation (with its reproducer) or "cannot check here"."""

from __future__ import annotations

import traceback
from collections.abc import Mapping
from typing import Any

__all__ = ["NotCheckable", "RuleFailure", "Unchecked"]

_INDENT = "    "


class RuleFailure(AssertionError):
    """A rule was violated.

    The message starts with the rule id, states what was expected and what was observed, and ends with a script
    that replays the (shrunk) example.

    Args:
        rule_id: E.g. ``"ENV-009"``.
        level: The rule's level text, e.g. ``"MUST"``.
        rule_text: The rule's statement.
        target: The target id.
        problem: One line saying what went wrong.
        expected: What the rule requires, concretely.
        actual: What the target did.
        reproducer: The replay script (may be empty when no call was needed).
        seed: The seed of the example, when it had one.
    """

    def __init__(
        self,
        rule_id: str,
        level: str,
        rule_text: str,
        target: str,
        problem: str,
        *,
        expected: str = "",
        actual: str = "",
        reproducer: str = "",
        seed: int | None = None,
    ) -> None:
        self.rule_id = rule_id
        self.level = level
        self.rule_text = rule_text
        self.target = target
        self.problem = problem
        self.expected = expected
        self.actual = actual
        self.reproducer = reproducer
        self.seed = seed
        self.detail = ""
        super().__init__(self.render())

    def render(self) -> str:
        """The full failure text: :meth:`message` followed by the reproducer."""
        lines = [self.message()]
        if self.reproducer:
            seed = "" if self.seed is None else f", seed {self.seed}"
            lines.append(f"  reproducer (target {self.target}{seed}):")
            lines += [_INDENT + row for row in self.reproducer.splitlines()]
        return "\n".join(lines)

    def message(self) -> str:
        """The failure text without the reproducer."""
        lines = [f"{self.rule_id} ({self.level}) violated by {self.target}: {self.problem}"]
        lines.append(f"  rule:     {self.rule_id} {self.level} {self.rule_text}")
        if self.expected:
            lines.append(f"  expected: {self.expected}")
        if self.actual:
            lines.append(f"  actual:   {self.actual}")
        cause = self.__cause__
        detail = self.detail
        if cause is not None:
            detail = "".join(traceback.format_exception(type(cause), cause, cause.__traceback__, limit=-4))
        if detail:
            lines.append("  raised by the target:")
            lines += [_INDENT + row for row in detail.rstrip().splitlines()]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()

    def to_report(self) -> dict[str, Any]:
        """The failure as JSON data (what crosses from a job process to the supervisor and back)."""
        cause = self.__cause__
        detail = ""
        if cause is not None:
            detail = "".join(traceback.format_exception(type(cause), cause, cause.__traceback__, limit=-4))
        return {
            "rule_id": self.rule_id,
            "level": self.level,
            "rule_text": self.rule_text,
            "target": self.target,
            "problem": self.problem,
            "expected": self.expected,
            "actual": self.actual,
            "reproducer": self.reproducer,
            "seed": self.seed,
            "detail": self.detail or detail,
            "message": self.message(),
        }

    @classmethod
    def from_report(cls, data: Mapping[str, Any]) -> RuleFailure:
        """The failure :meth:`to_report` described (the target's exception survives as text)."""
        failure = cls(
            str(data["rule_id"]),
            str(data["level"]),
            str(data["rule_text"]),
            str(data["target"]),
            str(data["problem"]),
            expected=str(data.get("expected", "")),
            actual=str(data.get("actual", "")),
            reproducer=str(data.get("reproducer", "")),
            seed=data.get("seed"),
        )
        failure.detail = str(data.get("detail", ""))
        return failure


class NotCheckable(BaseException):
    """The rule cannot be checked on this target (not applicable, or blocked by another rule's violation).

    A ``BaseException``, so Hypothesis stops at once instead of shrinking a situation that is not a failure.

    Args:
        reason: Why, naming the rule that reports the blocking problem when there is one.
    """


class Unchecked(Exception):
    """The item could not check its rule for a reason that is no verdict on the rule (an earlier call of the target
    hung, say): recorded as an ``error`` naming the cause and the remedy, never as a pass, a skip or a failure of the
    rule (which would report a SHOULD rule as violated)."""
