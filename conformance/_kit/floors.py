"""The evidence floors the suite's checks share: what a kind of rule needs to have seen before it may pass.

Each check declares its floor in its decorator (``@checks("ENV-024", floor=...)``), one of these or a
:class:`~conformance._engine.evidence.Floor` of its own; docs/writing-checks.md lists every rule's. The numbers are
what the statement needs, not what a profile affords: the profiles' shortest rollout (``min_steps``) reaches every
step floor in the one full-length example a costly target gets.
"""

from __future__ import annotations

from conformance._engine.evidence import Floor

__all__ = [
    "CONSTRUCTION",
    "FACT",
    "FIRST_EPISODES",
    "FRAMES",
    "INSTANCES",
    "RESET",
    "ROLLOUT",
    "SAMPLES",
    "SUB_ENV_ENDS",
    "TRANSITIONS",
]

FACT = Floor()
"""A fixed fact of the target (its spaces, metadata, spec, as the probe or one instance shows them): no calls to
count."""

CONSTRUCTION = Floor(constructions=1)
"""What a construction does or returns (a render mode it takes or refuses, the layers it builds)."""

RESET = Floor(seeded_resets=1)
"""What ``reset`` returns (seeded; unseeded resets come with episode ends, which not every env gives)."""

ROLLOUT = Floor(steps=30)
"""What ``step`` returns, rule by rule on each result: some tens of steps."""

FIRST_EPISODES = Floor(steps=60) | Floor(ends=2)
"""Two first episodes compared (two instances, or one reset twice): 30 steps of each, or two that ended sooner."""

INSTANCES = Floor(instances=2, steps=2)
"""Two live instances of the target, each stepped, in one example."""

FRAMES = Floor(renders=2, renders_after_step=1)
"""Frames of a render mode: after a reset and after a step."""

SAMPLES = Floor(examples=1)
"""Calls on a space (seed, sample, contains) with drawn arguments: a space, not an env, so no steps to count."""

SUB_ENV_ENDS = Floor(steps=30, autoreset_envs=2, after_autoreset=2)
"""A vector env's autoreset: episode ends in two sub-envs at least, and steps of each after its reset (rollouts are
driven to them, up to the episode cap)."""

TRANSITIONS = Floor(steps=30) | Floor(ends=1)
"""A functional env's episodes: 30 transitions, or one episode that reached a terminal state sooner."""
