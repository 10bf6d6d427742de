"""The gymspec conformance suite: run it with ``pytest --pyargs conformance``.

The suite checks an environment against every MUST and SHOULD rule of the gymspec catalog (``gymspec.rules``),
one pytest item per (rule, target). Targets are chosen with ``--env pkg.mod:attr``, ``--env-id ID`` (with
``--registry reference|gymnasium|pkg.module``, any module with ``make``) or the ``CONFORMANCE_ENV`` environment
variable; ``python -m conformance`` is a small front end that prints a one-screen table. SHOULD violations are
warnings of the per-rule classes in :mod:`conformance.rule_warnings` (named so as not to shadow the standard
library's :mod:`warnings`), all subclasses of :class:`ConformanceWarning`.

:func:`check_env` runs the same suite from a function — in a user's own tests, a script or a notebook — and returns
a :class:`Report` of :class:`RuleResult` items; it raises :class:`ConformanceError` when MUST rules are violated.

How a check is written (the rule's marker, the four forms, outcomes, reproducers) is docs/writing-checks.md; the
engine that runs them starts at :mod:`conformance._engine` (its docstring gives the reading order).

Importing this package has no side effects: the pytest plugin (:mod:`conformance.plugin`) stays inert unless the
suite's own test modules are collected.
"""

from __future__ import annotations

from conformance import rule_warnings
from conformance.check import check_env
from conformance.results import ConformanceError, Evidence, Report, RuleResult
from conformance.rule_warnings import ConformanceWarning

__all__ = ["ConformanceError", "ConformanceWarning", "Evidence", "Report", "RuleResult", "check_env"]


def __getattr__(name: str) -> object:
    # Per-rule warning classes are reachable from the package too: -W "ignore::conformance.SEED004Warning".
    if not name.endswith("Warning"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(rule_warnings, name)
