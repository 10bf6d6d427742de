"""The one catalog format of the deliberately broken targets in ``tests/meta``.

Each catalog (:mod:`tests.meta.broken.catalog` for envs, :mod:`tests.meta.broken_vector.catalog` for vector envs,
:mod:`tests.meta.broken_func.catalog` for functional envs, :mod:`tests.meta.broken_registry.catalog` for
registries) is a tuple of :class:`Broken`: the rule a target must violate, how the suite names the target, and the
rules it may violate as a consequence. The hostile targets of :mod:`tests.meta.broken.hostile` are not broken for
one rule: they attack the suite itself, and their catalog says what the suite must report instead.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["OPTIONS", "Broken"]

OPTIONS = ("--env", "--env-id", "--vector-env", "--func-env", "--registry")
"""The suite options a broken target is named by."""

_PROBLEMS = ("failed", "warned", "error")


@dataclass(frozen=True)
class Broken:
    """One broken target.

    Attributes:
        rule: The rule it must violate (fail, or warn on for a SHOULD rule).
        spec: What the option takes: ``module:attr`` of a class or factory, a registered id (``--env-id``), or a
            registry module (``--registry``).
        option: The suite option that names it (one of :data:`OPTIONS`).
        collateral: fnmatch patterns of the other rules it may violate, because the one change necessarily breaks
            them too (an env that raises on a valid action cannot return a valid step either).
        registry: The ``--registry`` a registered id (``--env-id``) is made from.
    """

    rule: str
    spec: str
    option: str = "--env"
    collateral: tuple[str, ...] = ()
    registry: str = ""

    def __post_init__(self) -> None:
        if self.option not in OPTIONS:
            raise ValueError(f"Broken option must be one of {OPTIONS}, got {self.option!r}")
        if (self.option == "--env-id") != bool(self.registry):
            raise ValueError(f"Broken registry must be given exactly for '--env-id' targets, got {self.registry!r}")

    @property
    def name(self) -> str:
        """The class, factory or id it is known by in reproducers and test ids."""
        return self.spec.rpartition(":")[2] if ":" in self.spec else self.spec.rpartition(".")[2]

    @property
    def args(self) -> tuple[str, ...]:
        """The suite arguments that name it (``--registry`` included for a registered id)."""
        if self.registry:
            return ("--registry", self.registry, self.option, self.spec)
        return (self.option, self.spec)

    @property
    def target_id(self) -> str:
        """The target's id in the suite's report."""
        return f"{self.registry}/{self.spec}" if self.registry else self.spec

    def unexpected(self, outcomes: Mapping[str, str]) -> dict[str, str]:
        """The rules of ``outcomes`` (rule → outcome on this target) that failed, warned or errored though they are
        neither the rule it breaks nor its collateral: what it broke besides."""
        allowed = (self.rule, *self.collateral)
        return {
            rule: outcome
            for rule, outcome in outcomes.items()
            if outcome in _PROBLEMS and not any(fnmatch.fnmatchcase(rule, pattern) for pattern in allowed)
        }

    @property
    def test_id(self) -> str:
        """A short id for parametrized tests: ``RULE:name`` (``@registry`` for a registered id)."""
        return f"{self.rule}:{self.name}{'@registry' if self.registry else ''}"
