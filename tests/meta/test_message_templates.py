"""Every failure-message template of the suite renders as readable text: no doubled words ("the the reset",
"layer layer (...)"), no type named twice ("jaxlib._jax.ArrayImpl jaxlib._jax.ArrayImpl: ...").

The templates are the f-strings the suite passes to ``fail``, ``not_checkable``, ``require`` and ``skip`` (and as
their ``expected``/``actual``), found in its source; each placeholder is rendered as what it typically holds:
``record.where()`` as the method's own text, a type name or summary as a token of its own, anything else as a
distinct word, so the words around a placeholder are checked against what it renders.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from conformance._engine.messages import Died
from conformance._engine.processes import Snapshot
from conformance._engine.verdicts import remedy, unreported
from conformance._kit.rollout import Record
from conformance._kit.vector_rollout import VecRecord
from tests.meta._run import REPO

_SOURCES = sorted((REPO / "conformance").rglob("*.py"))
_CALLS = {"fail", "not_checkable", "require", "skip", "failure", "Problem"}
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)


def _where_texts() -> tuple[str, ...]:
    texts = []
    for kind in ("reset", "step"):
        record = Record.__new__(Record)
        object.__setattr__(record, "kind", kind)
        object.__setattr__(record, "index", 3)
        texts.append(record.where())
    for kind in ("reset", "partial", "step"):
        vec = VecRecord.__new__(VecRecord)
        object.__setattr__(vec, "kind", kind)
        object.__setattr__(vec, "index", 3)
        texts.append(vec.where())
    return tuple(texts)


_WHERE = _where_texts()


def _render(node: ast.JoinedStr, counter: Iterator[int]) -> str:
    parts: list[str] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
            continue
        if not isinstance(value, ast.FormattedValue):
            continue
        inner = value.value
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and inner.func.attr == "where":
            parts.append(_WHERE[next(counter) % len(_WHERE)])
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "type_name":
            parts.append("pkg.Type")
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "summarize":
            parts.append("pkg.Type: <value>")
        else:
            parts.append(f"p{next(counter)}")
    return "".join(parts)


def _templates() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for path in _SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        counter = iter(range(10**6))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in _CALLS:
                continue
            strings = [*node.args, *(keyword.value for keyword in node.keywords)]
            for arg in strings:
                if isinstance(arg, ast.JoinedStr):
                    where = f"{path.relative_to(REPO)}:{arg.lineno}"
                    found.append((where, _render(arg, counter)))
    return found


_TEMPLATES = _templates()


def test_templates_are_found() -> None:
    assert len(_TEMPLATES) > 200, len(_TEMPLATES)
    assert all(not text.startswith("the the") for text in _WHERE)


@pytest.mark.parametrize(("where", "text"), _TEMPLATES, ids=[where for where, _ in _TEMPLATES])
def test_template_renders_without_doubled_words(where: str, text: str) -> None:
    doubled = _DOUBLED.search(text)
    assert doubled is None, f"{where}: {doubled.group(0)!r} in {text!r}"
    assert "pkg.Type pkg.Type" not in text and "pkg.Type: pkg.Type" not in text, f"{where}: {text!r}"


def test_the_where_of_records_reads_after_the() -> None:
    for text in _WHERE:
        assert not text.startswith("the "), text
        assert f"the {text}".split()[1] in {"reset", "partial", "step"}


def test_wrapper_layers_are_named_once() -> None:
    source = Path(REPO / "conformance" / "test_wrapper.py").read_text(encoding="utf-8")
    assert "layer {handle.var}" not in source


# --- Messages that send the user to run a rule (issue 37 item 8) ---------------------------------------------------

# A template that tells the user to run a rule names it right after "--rules" or "run": every such f-string in the
# suite's source, and where it lives. Each must be gated on that rule's outcome (below), so a new one is listed here.
_RUN_A_RULE = re.compile(r"(--rules |\b[Rr]un )p\d+")
_GATED = {"conformance/_engine/verdicts.py"}


def _strings(path: Path) -> Iterator[tuple[int, str]]:
    counter = iter(range(10**6))
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, _render(node, counter)


def test_every_template_that_sends_the_user_to_a_rule_is_gated_on_its_outcome() -> None:
    found = {str(path.relative_to(REPO)) for path in _SOURCES for _, text in _strings(path) if _RUN_A_RULE.search(text)}
    assert found == _GATED, found


def _deaths() -> list[Died | None]:
    board = Snapshot(pid=1, active=True, started=0.0, beat=0.0, calls=3, method="render", mode="rgb_array",
                     label="env_0.render()", note="")
    return [None, Died(status="SIGABRT", board=board, seconds=0.0)]


@pytest.mark.parametrize("known", ["passed", "warned", "skipped", "not run here"])
def test_a_message_sends_the_user_to_a_rule_only_when_it_did_not_run(known: str) -> None:
    owner = "RENDER-004"
    texts = [remedy(owner, outcome, known=known, rule_id="SEED-009", mode="rgb_array") for outcome in _deaths()]
    texts.append(unreported("SEED-009 not checked on t: x (reported by RENDER-004)", owner, "t", known, "SEED-009"))
    sends = [text for text in texts if f"--rules {owner}" in text or f",{owner}" in text]
    if known == "not run here":
        assert len(sends) == len(texts), texts  # it did not run: running it beside the item judges the call
    else:
        assert not sends, sends  # it ran and did not fail: the message states what the item saw instead
