"""The decorator that ties a conformance test to its rule: ``@checks("ENV-016", owns=("step",))``.

Named ``checks`` rather than ``rule`` so that a suite module may also use Hypothesis' stateful ``rule``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

import pytest

__all__ = ["checks"]

F = TypeVar("F", bound=Callable[..., None])


def checks(rule_id: str, *, kinds: Iterable[str] = ("env",), owns: Iterable[str] = ()) -> Callable[[F], F]:
    """Mark a test as the check of ``rule_id``; the plugin makes one item per target of ``kinds``.

    Args:
        rule_id: The rule, e.g. ``"ENV-016"``.
        kinds: Target kinds the rule applies to (``"env"``, ``"vector"``, ``"func"``).
        owns: Call kinds (``"construct"``, ``"reset"``, ``"step"``, ``"render"``, ``"close"``) whose exceptions
            are violations of this rule; other rules skip when those calls raise.

    Returns:
        The marker decorator.
    """
    mark = pytest.mark.conformance_rule(rule_id, kinds=tuple(kinds), owns=tuple(owns))

    def decorate(fn: F) -> F:
        decorated: F = mark(fn)
        return decorated

    return decorate
