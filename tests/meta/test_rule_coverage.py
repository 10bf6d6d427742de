"""Every MUST/SHOULD rule has exactly one conformance test, and every test names a rule.

Every MUST and SHOULD rule also has a broken target that violates it, in one of the catalogs
(:class:`tests.meta.catalog.Broken`): an env (:mod:`tests.meta.broken`), a vector env
(:mod:`tests.meta.broken_vector`), a functional env (:mod:`tests.meta.broken_func`) or a registry
(:mod:`tests.meta.broken_registry`).
"""

from __future__ import annotations

import importlib
from collections import Counter

from gymspec.rules import RULES, Level
from tests.meta.broken.catalog import BROKEN as ENV_BROKEN
from tests.meta.broken_func.catalog import BROKEN as FUNC_BROKEN
from tests.meta.broken_registry.catalog import BROKEN as REGISTRY_BROKEN
from tests.meta.broken_vector.catalog import BROKEN as VECTOR_BROKEN
from tests.meta.catalog import Broken

BROKEN: tuple[Broken, ...] = (*ENV_BROKEN, *VECTOR_BROKEN, *FUNC_BROKEN, *REGISTRY_BROKEN)
"""Every catalog's broken targets."""

COVERED_AREAS = ("SPACE", "ENV", "SEED", "RENDER", "WRAP", "VEC", "AUTORESET", "FUNC", "REG")
MODULES = (
    "test_space",
    "test_env",
    "test_seeding",
    "test_render",
    "test_wrapper",
    "test_vector",
    "test_autoreset",
    "test_functional",
    "test_registry",
    # Rules of one gymspec module may be checked in more than one suite module (issue 26: ENV rules about episode
    # ends and about the env's attributes, which would have grown test_env.py past 500 lines).
    "test_episodes",
    "test_env_attributes",
    # SEED-009 and ENV-030, rules about several live instances side by side.
    "test_instances",
)
_CHECKED = (Level.MUST, Level.MUST_NOT, Level.SHOULD, Level.SHOULD_NOT)


def _tests_by_rule() -> Counter[str]:
    found: Counter[str] = Counter()
    for name in MODULES:
        module = importlib.import_module(f"conformance.{name}")
        for attr in vars(module).values():
            for mark in getattr(attr, "pytestmark", []):
                if mark.name == "conformance_rule":
                    found[str(mark.args[0])] += 1
    return found


def _checked_rules(areas: tuple[str, ...]) -> set[str]:
    return {rule.id for rule in RULES.values() if rule.area in areas and rule.level in _CHECKED}


def test_every_rule_has_one_test() -> None:
    uncovered = sorted({rule.area for rule in RULES.values()} - set(COVERED_AREAS))
    assert not uncovered, f"rule areas the coverage check does not know: {uncovered}"
    tests = _tests_by_rule()
    missing = sorted(_checked_rules(COVERED_AREAS) - set(tests))
    assert not missing, f"rules without a conformance test: {missing}"
    duplicated = sorted(rule for rule, count in tests.items() if count > 1)
    assert not duplicated, f"rules with more than one test: {duplicated}"


def test_every_test_names_a_checked_rule() -> None:
    unknown = sorted(set(_tests_by_rule()) - _checked_rules(COVERED_AREAS))
    assert not unknown, f"tests naming rules that are not MUST/SHOULD rules of {COVERED_AREAS}: {unknown}"


def test_every_checked_rule_has_a_broken_env() -> None:
    broken = {entry.rule for entry in BROKEN}
    missing = sorted(_checked_rules(COVERED_AREAS) - broken)
    assert not missing, f"MUST/SHOULD rules without a broken target in any catalog: {missing}"
    assert broken <= set(RULES), f"broken envs naming unknown rules: {sorted(broken - set(RULES))}"

