"""Item records shared by the tests of the report (:mod:`conformance.results`, :mod:`conformance._engine.report`)."""

from __future__ import annotations

from conformance.results import RuleResult


def sample_results() -> list[RuleResult]:
    """Two targets: ``env-a`` passed, failed and warned; ``env-b`` errored in construction and skipped a rule."""
    return [
        RuleResult("ENV-001", "env-a", "MUST", "passed", nodeid="a1"),
        RuleResult("ENV-009", "env-a", "MUST", "failed", "ENV-009 (MUST) violated", "env.step(1)", "a2"),
        RuleResult("RENDER-003", "env-a", "SHOULD", "warned", nodeid="a3"),
        RuleResult("CONSTRUCT", "env-b", "MUST", "error", nodeid="b0"),
        RuleResult("SEED-001", "env-b", "MUST", "skipped", "not applicable", nodeid="b1"),
    ]
