"""Warning classes for SHOULD-level violations: one base class and one subclass per rule.

A SHOULD (or SHOULD NOT) violation does not fail its item; it is emitted as a warning of the rule's own class, so
it can be silenced or escalated per rule with pytest's ``-W``::

    pytest --pyargs conformance -W "ignore::conformance.rule_warnings.SEED004Warning"
    pytest --pyargs conformance -W "error::conformance.ConformanceWarning"

The per-rule classes are created on first access (module ``__getattr__``) from ``gymspec.rules.RULES``, so the
warning filter machinery, which imports the module and looks the name up, finds them.
"""

from __future__ import annotations

import re

__all__ = ["ConformanceWarning", "warning_class", "warning_class_name"]

_NAME = re.compile(r"^(?P<area>[A-Z]+)(?P<number>\d{3})Warning$")


class ConformanceWarning(UserWarning):
    """Base class of every SHOULD-level violation reported by the conformance suite."""

    rule_id: str = ""


_CLASSES: dict[str, type[ConformanceWarning]] = {}


def warning_class_name(rule_id: str) -> str:
    """The class name of a rule's warning, e.g. ``"SEED-004"`` → ``"SEED004Warning"``."""
    return rule_id.replace("-", "") + "Warning"


def warning_class(rule_id: str) -> type[ConformanceWarning]:
    """Return (creating it once) the warning class of one rule.

    Args:
        rule_id: A rule id such as ``"SEED-004"``.

    Returns:
        A subclass of :class:`ConformanceWarning` living in this module under :func:`warning_class_name`.
    """
    cls = _CLASSES.get(rule_id)
    if cls is None:
        name = warning_class_name(rule_id)
        doc = f"A violation of the SHOULD-level rule {rule_id}."
        cls = type(name, (ConformanceWarning,), {"__doc__": doc, "__module__": __name__, "rule_id": rule_id})
        _CLASSES[rule_id] = cls
    return cls


def __getattr__(name: str) -> type[ConformanceWarning]:
    from gymspec.rules import RULES  # deferred: the catalog is only needed when a rule's class is asked for

    match = _NAME.match(name)
    rule_id = "" if match is None else f"{match['area']}-{match['number']}"
    if rule_id not in RULES:
        # A typo in a -W filter must fail loudly rather than silently filter nothing.
        raise AttributeError(f"module {__name__!r} has no attribute {name!r} (no rule {rule_id or name!r})")
    return warning_class(rule_id)
