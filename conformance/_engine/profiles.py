"""Effort profiles: how many Hypothesis examples each rule gets and how long its rollouts are.

The profile is applied through explicit :class:`hypothesis.settings` objects built here, never by registering or
loading a global Hypothesis profile, so importing or running the suite leaves Hypothesis' global state untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, settings

__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "hypothesis_settings"]


@dataclass(frozen=True)
class Profile:
    """A budget for one (rule, target) item.

    Attributes:
        name: ``quick``, ``default`` or ``thorough``.
        max_examples: Hypothesis examples per item.
        max_steps: The longest rollout, in steps, across episode ends.
        max_prefix: How many leading actions of a rollout Hypothesis draws (and shrinks) itself; the rest come
            from a seeded sampler, which keeps long rollouts cheap to generate.
        derandomize: Whether Hypothesis draws the same examples on every run (reproducible verdicts).
    """

    name: str
    max_examples: int
    max_steps: int
    max_prefix: int
    derandomize: bool


PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", max_examples=5, max_steps=50, max_prefix=10, derandomize=True),
    "default": Profile("default", max_examples=15, max_steps=200, max_prefix=20, derandomize=True),
    "thorough": Profile("thorough", max_examples=100, max_steps=1000, max_prefix=50, derandomize=False),
}
DEFAULT_PROFILE = "default"


def hypothesis_settings(profile: Profile, *, max_examples: int | None = None) -> settings:
    """Build the Hypothesis settings for one item.

    Args:
        profile: The effort profile.
        max_examples: Overrides the profile's example count (for checks that are costly per example).

    Returns:
        Settings with no deadline, no example database (the suite writes nothing into the user's directory) and
        a single reported failure per item.
    """
    return settings(
        max_examples=profile.max_examples if max_examples is None else max_examples,
        deadline=None,
        database=None,
        derandomize=profile.derandomize,
        report_multiple_bugs=False,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
        # No "explain" phase: it re-runs the failing example many times to annotate a traceback the suite replaces
        # with its own reproducer anyway.
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    )
