"""The rule catalog, parsed from the protocol docstrings (the single source of truth).

A rule is a line ``[AREA-NNN] LEVEL text`` in the ``Rules:`` section of the docstring of the protocol member it
constrains; continuation lines are indented deeper than the rule line. Levels are RFC 2119 (``MUST``, ``MUST NOT``,
``SHOULD``, ``SHOULD NOT``, ``MAY``) plus ``WITHDRAWN`` for retired ids, which are never reused.

Run ``python -m gymspec.rules`` to print the catalog as Markdown. ``docs/spec.md`` is the same catalog with, under
each rule, what the conformance suite knows of it (its check, evidence floor and broken targets), rendered through
:func:`render_markdown`'s ``notes`` by ``python -m tests.meta.spec_doc``: the catalog itself knows nothing of the
suite.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType, ModuleType

__all__ = [
    "AREAS",
    "Level",
    "RULES",
    "Rule",
    "RuleSyntaxError",
    "parse_rules",
    "render_markdown",
    "rules_in_area",
]

AREAS: tuple[str, ...] = ("SPACE", "ENV", "SEED", "RENDER", "WRAP", "VEC", "AUTORESET", "FUNC", "REG")
"""The fixed rule-id prefixes, in catalog order."""

_AREA_TITLES: Mapping[str, str] = {
    "SPACE": "Spaces",
    "ENV": "Env API: reset, step, close",
    "SEED": "Seeding and determinism",
    "RENDER": "Render modes and frames",
    "WRAP": "Wrappers",
    "VEC": "Vector envs",
    "AUTORESET": "Autoreset modes",
    "FUNC": "Functional envs",
    "REG": "Registry and env ids",
}

# Modules whose protocol docstrings carry rules, in the order the catalog lists owners.
_SOURCE_MODULES: tuple[str, ...] = (
    "gymspec.space",
    "gymspec.env",
    "gymspec.render",
    "gymspec.wrapper",
    "gymspec.vector",
    "gymspec.functional",
    "gymspec.registry",
)

_RULE_LINE = re.compile(r"^(?P<indent>\s*)\[(?P<id>[A-Z]+-\d+)\]\s+(?P<rest>.*)$")
_ID = re.compile(r"^(?P<area>[A-Z]+)-(?P<number>\d{3})$")


class Level(enum.Enum):
    """RFC 2119 requirement levels, plus ``WITHDRAWN`` for retired rules."""

    MUST = "MUST"
    MUST_NOT = "MUST NOT"
    SHOULD = "SHOULD"
    SHOULD_NOT = "SHOULD NOT"
    MAY = "MAY"
    WITHDRAWN = "WITHDRAWN"

    @property
    def is_mandatory(self) -> bool:
        """Whether a violation is a failure (MUST, MUST NOT) rather than a warning."""
        return self in (Level.MUST, Level.MUST_NOT)

    @property
    def is_recommended(self) -> bool:
        """Whether a violation is reported as a warning (SHOULD, SHOULD NOT)."""
        return self in (Level.SHOULD, Level.SHOULD_NOT)


# Longest first, so "MUST NOT" is not read as "MUST" followed by text starting with "NOT".
_LEVELS_BY_LENGTH = sorted(Level, key=lambda level: len(level.value), reverse=True)


class RuleSyntaxError(ValueError):
    """A ``Rules:`` section contains a line that breaks the rule grammar."""


@dataclass(frozen=True)
class Rule:
    """One normative statement of the specification.

    Attributes:
        id: ``AREA-NNN``, e.g. ``"ENV-004"``.
        area: The id prefix, one of :data:`AREAS`.
        number: The numeric part of the id.
        level: The requirement level.
        text: The statement, without id and level.
        owner: The qualified name of the protocol member whose docstring states it.
    """

    id: str
    area: str
    number: int
    level: Level
    text: str
    owner: str

    def __str__(self) -> str:
        return f"[{self.id}] {self.level.value} {self.text}"


def _rules_section(doc: str) -> Iterator[tuple[int, str]]:
    """Yield ``(indent, line)`` for the lines of the ``Rules:`` section of a cleaned docstring."""
    lines = doc.splitlines()
    for start, line in enumerate(lines):
        if line.strip() == "Rules:":
            header_indent = len(line) - len(line.lstrip())
            for body in lines[start + 1 :]:
                if not body.strip():
                    continue
                indent = len(body) - len(body.lstrip())
                if indent <= header_indent:
                    return
                yield indent, body
            return


def _parse_level(rest: str, rule_id: str, owner: str) -> tuple[Level, str]:
    for level in _LEVELS_BY_LENGTH:
        if rest == level.value or rest.startswith(level.value + " "):
            return level, rest[len(level.value) :].strip()
    raise RuleSyntaxError(
        f"Rule {rule_id} level must be one of {[lvl.value for lvl in Level]}, got {rest.split(' ')[0]!r} "
        f"(in {owner})"
    )


def _parse_doc(doc: str, owner: str) -> list[Rule]:
    rules: list[Rule] = []
    current: dict[str, str] | None = None
    current_indent = 0
    for indent, line in _rules_section(inspect.cleandoc(doc)):
        match = _RULE_LINE.match(line)
        if match is not None:
            current = {"id": match["id"], "rest": match["rest"].strip()}
            current_indent = indent
            rules.append(_make_rule(current, owner))
        elif current is not None and indent > current_indent:
            current["rest"] += " " + line.strip()
            rules[-1] = _make_rule(current, owner)
        else:
            raise RuleSyntaxError(
                f"Rules section line must start with '[AREA-NNN] LEVEL', got {line.strip()!r} (in {owner})"
            )
    return rules


def _make_rule(raw: Mapping[str, str], owner: str) -> Rule:
    rule_id = raw["id"]
    id_match = _ID.match(rule_id)
    if id_match is None or id_match["area"] not in AREAS:
        raise RuleSyntaxError(
            f"Rule id must be AREA-NNN with AREA in {AREAS} and a 3-digit number, got {rule_id!r} (in {owner})"
        )
    level, text = _parse_level(raw["rest"], rule_id, owner)
    if not text:
        raise RuleSyntaxError(f"Rule {rule_id} text must not be empty (in {owner})")
    return Rule(rule_id, id_match["area"], int(id_match["number"]), level, text, owner)


def _documented_members(module: ModuleType) -> Iterator[tuple[str, str]]:
    """Yield ``(qualified owner, docstring)`` for each class of ``module`` and each of its own members."""
    for name, obj in vars(module).items():
        if not inspect.isclass(obj) or obj.__module__ != module.__name__:
            continue
        owner = f"{module.__name__}.{name}"
        if obj.__doc__:
            yield owner, obj.__doc__
        for member_name, member in vars(obj).items():
            doc = getattr(member, "__doc__", None)
            if isinstance(member, (property, staticmethod, classmethod)) or inspect.isfunction(member):
                if doc:
                    yield f"{owner}.{member_name}", doc


def parse_rules(modules: tuple[str, ...] = _SOURCE_MODULES) -> Mapping[str, Rule]:
    """Collect the rules stated in the docstrings of ``modules``.

    Args:
        modules: Importable module names.

    Returns:
        A read-only mapping from rule id to rule, ordered by area (as in :data:`AREAS`) and number.

    Raises:
        RuleSyntaxError: A rule line is malformed, or an id is stated twice.
    """
    found: dict[str, Rule] = {}
    for module_name in modules:
        for owner, doc in _documented_members(importlib.import_module(module_name)):
            for rule in _parse_doc(doc, owner):
                if rule.id in found:
                    raise RuleSyntaxError(
                        f"Rule id must be unique, got {rule.id!r} in both {found[rule.id].owner} and {owner}"
                    )
                found[rule.id] = rule
    ordered = sorted(found.values(), key=lambda r: (AREAS.index(r.area), r.number))
    return MappingProxyType({rule.id: rule for rule in ordered})


RULES: Mapping[str, Rule] = parse_rules()
"""Every rule of the specification, keyed by id, in catalog order."""


def rules_in_area(area: str) -> tuple[Rule, ...]:
    """The rules whose id starts with ``area``.

    Args:
        area: One of :data:`AREAS`.

    Returns:
        The area's rules in number order.

    Raises:
        ValueError: ``area`` is not one of :data:`AREAS`.
    """
    if area not in AREAS:
        raise ValueError(f"rules_in_area area must be one of {AREAS}, got {area!r}")
    return tuple(rule for rule in RULES.values() if rule.area == area)


def render_markdown(
    rules: Mapping[str, Rule] = RULES,
    *,
    notes: Mapping[str, Sequence[str]] = MappingProxyType({}),
    command: str = "python -m gymspec.rules",
) -> str:
    """Render the catalog as Markdown: a summary table, then one section per area.

    Args:
        rules: The catalog to render.
        notes: Lines to list under a rule (by rule id), each a nested bullet.
        command: The command the text says generated it.

    Returns:
        The Markdown text, ending with a newline.
    """
    out = [
        "# The gymspec rule catalog",
        "",
        f"<!-- Generated by `{command}`; do not edit by hand. -->",
        "",
        "Each rule is stated in the docstring of the protocol member it constrains. Levels follow RFC 2119: a MUST",
        "violation fails conformance, a SHOULD violation is reported as a warning.",
        "",
        "| area | rules | MUST | SHOULD |",
        "|---|---|---|---|",
    ]
    for area in AREAS:
        in_area = [r for r in rules.values() if r.area == area]
        must = sum(r.level.is_mandatory for r in in_area)
        should = sum(r.level.is_recommended for r in in_area)
        out.append(f"| {area} | {len(in_area)} | {must} | {should} |")
    out.append(f"| **total** | **{len(rules)}** | | |")
    for area in AREAS:
        out += ["", f"## {area}: {_AREA_TITLES[area]}", ""]
        for rule in (r for r in rules.values() if r.area == area):
            out.append(f"- **{rule.id}** {rule.level.value} {rule.text} *({rule.owner})*")
            out += [f"  - {line}" for line in notes.get(rule.id, ())]
    return "\n".join(out) + "\n"


def main() -> int:
    """Print the catalog as Markdown to standard output."""
    sys.stdout.write(render_markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
