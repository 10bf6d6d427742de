"""docs/spec.md: the rule catalog with, under each rule, its check, its evidence floor and its broken targets.

From a rule id the reader reaches the check (``file::function``, the function the rule's marker names: a
``@checks`` test, an ``@observer`` check, or the test a ``watcher(...)`` call is assigned to) and the targets that
violate it (``file::name`` in the broken-target catalogs), so a rule, its check and a broken target are three files
apart at most. The catalog lives in :mod:`gymspec.rules`, which knows nothing of the suite or of these tests; this
module gathers what they know and renders it through :func:`gymspec.rules.render_markdown`'s ``notes``.

Run ``python -m tests.meta.spec_doc > docs/spec.md`` after changing a rule, a check or a broken target;
tests/meta/test_spec_doc.py fails while the file is stale.
"""

from __future__ import annotations

import importlib
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from conformance._engine.evidence import Floor
from gymspec.rules import render_markdown
from tests.meta.catalog import Broken
from tests.meta.test_rule_coverage import BROKEN, MODULES

__all__ = ["COMMAND", "Check", "broken_location", "checks", "main", "notes", "render"]

COMMAND = "python -m tests.meta.spec_doc > docs/spec.md"
"""How docs/spec.md is made (named in the file's header)."""

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Check:
    """Where a rule is checked: the suite module's path from the repository root, the function and its floor."""

    path: str
    function: str
    floor: Floor


def checks() -> dict[str, Check]:
    """Every rule's check, from the markers of the suite modules' test functions."""
    found: dict[str, Check] = {}
    for name in MODULES:
        module = importlib.import_module(f"conformance.{name}")
        # The attribute's name, not the function's: an observer's test is made in conformance._engine.observe and
        # a watcher's is the module attribute its call is assigned to; both are named in the suite module.
        for attr, value in vars(module).items():
            for mark in getattr(value, "pytestmark", []):
                if mark.name == "conformance_rule":
                    found[str(mark.args[0])] = Check(f"conformance/{name}.py", attr, mark.kwargs["floor"])
    return found


def broken_location(broken: Broken) -> tuple[str, str]:
    """The file (from the repository root) defining a broken target and its name there (``""`` for a registry,
    which is the whole module)."""
    if ":" in broken.spec:
        module, _, name = broken.spec.partition(":")
    elif broken.option == "--env-id":
        # "<module>/<attr>-v0", registered by a registry module beside the target's module.
        relative, _, registered = broken.spec.partition("/")
        module = f"{broken.registry.rpartition('.')[0]}.{relative}"
        name = registered.rpartition("-v")[0]
    else:
        module, name = broken.spec, ""
    return module.replace(".", "/") + ".py", name


def _broken_note(broken: Broken) -> str:
    path, name = broken_location(broken)
    where = f"`{path}::{name}`" if name else f"`{path}`"
    # An env class or factory (--env) is the common case; other options say how the target is named.
    if broken.registry:
        return f"{where} (`--registry {broken.registry} {broken.option} {broken.spec}`)"
    return where if broken.option == "--env" else f"{where} (`{broken.option}`)"


def notes() -> dict[str, list[str]]:
    """The lines docs/spec.md lists under each rule: its check and floor, then its broken targets."""
    lines: dict[str, list[str]] = defaultdict(list)
    for rule, check in checks().items():
        lines[rule].append(f"check: `{check.path}::{check.function}`; floor: {check.floor.describe()}")
    broken_by_rule: dict[str, list[str]] = defaultdict(list)
    for broken in BROKEN:
        broken_by_rule[broken.rule].append(_broken_note(broken))
    for rule, found in broken_by_rule.items():
        lines[rule].append("broken: " + ", ".join(found))
    return dict(lines)


def render() -> str:
    """docs/spec.md's text."""
    return render_markdown(notes=notes(), command=COMMAND)


def main() -> int:
    """Print docs/spec.md's text to standard output."""
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
