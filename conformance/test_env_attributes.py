"""ENV rules about the attributes an env describes itself with: class-level ``metadata`` that construction leaves
alone, and spaces that stay the same objects from one read to the next.

PYTEST_DONT_REWRITE: checks fail through rule failures, never ``assert``, so pytest need not rewrite this module
(which costs every run where the installed package's bytecode cannot be cached).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

from conformance._kit.api import (
    FACT, Case, Floor, Handle, Undeclared, checks, declared_attribute, describe_exception, expect_equal, is_mapping,
    read, source, summarize, value_difference,
)

# How many samples ENV-026 compares after seeding a space through the attribute.
_SAMPLES = 3


def _layers(raw: Any) -> Iterator[Any]:
    """The object and the layers below it (``.env``), down to ``unwrapped``, each once."""
    seen: set[int] = set()
    current = raw
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        try:
            current = getattr(current, "env", None)
        except Exception:  # noqa: BLE001 - a layer whose .env raises ends the chain (WRAP-005 reports it)
            current = None


def _declaring_classes(raw: Any) -> list[type]:
    """Every class on the layers' MROs that holds a ``metadata`` mapping of its own."""
    classes: list[type] = []
    for layer in _layers(raw):
        for cls in type(layer).__mro__:
            if cls not in classes and is_mapping(vars(cls).get("metadata")):
                classes.append(cls)
    return classes


def _differs(live: Any, declared: Any) -> str | None:
    found = value_difference(live, declared, "metadata")
    if found is not None and repr(live) == repr(declared):
        return None  # equal in all but identity of objects the fresh module made again (an enum member, a class)
    return found


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}.metadata"


def _declared_metadata(case: Case, cls: type) -> Any:
    return case.watchdog.call(f"declared {_name(cls)}", lambda: declared_attribute(cls, "metadata"))


def _expect_metadata(case: Case, env: Handle, cls: type | None, value: Any, problem: str) -> None:
    """End the reproducer comparing the class's own metadata (``cls``), or the env's (``None``), with ``value``
    written out, when it can be."""
    literal = source(value)
    if "not_literal(" in literal:
        return
    held = (f"{env.var}.metadata" if cls is None else f"next(vars(cls)['metadata'] for cls in type({env.var}).__mro__ "
            f"if cls.__qualname__ == {cls.__qualname__!r} and 'metadata' in vars(cls))")
    expect_equal(case, held, literal, problem, exact=False)


@checks("ENV-025", floor=Floor(constructions=2))
def test_class_metadata_unchanged(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        env = case.make()
        classes = _declaring_classes(env.raw)
        checked = 0
        for cls in classes:
            try:
                declared = _declared_metadata(case, cls)
            except Undeclared:
                continue
            checked += 1
            found = _differs(vars(cls)["metadata"], declared)
            if found is not None:
                _expect_metadata(case, env, cls, declared, f"{_name(cls)} no longer has the value its class declares")
                case.fail(f"{_name(cls)} no longer has the value its class declares, after the env was constructed "
                          f"({found}): a constructor changed a dict shared by every instance",
                          expected=f"{summarize(declared)} (as declared; assign a new dict per instance instead)",
                          actual=summarize(vars(cls)["metadata"]))
        if not checked:
            case.not_checkable("no class of the env that declares metadata can be read again from its source")
        before_classes = {cls: copy.deepcopy(vars(cls)["metadata"]) for cls in classes}
        before = copy.deepcopy(read(case, env, "metadata", "ENV-003"))
        second = case.make("second")
        for cls, value in before_classes.items():
            found = _differs(vars(cls)["metadata"], value)
            if found is not None:
                _expect_metadata(case, env, cls, value, f"constructing a second env changed {_name(cls)}")
                case.fail(f"constructing a second env changed {_name(cls)} ({found})",
                          expected=summarize(value), actual=summarize(vars(cls)["metadata"]))
        found = _differs(read(case, env, "metadata", "ENV-003"), before)
        if found is not None:
            _expect_metadata(case, env, None, before, "constructing a second env changed the first env's metadata")
            case.fail(f"constructing a second env changed the first env's metadata ({found})",
                      expected=summarize(before), actual=summarize(env.get("metadata")))
        second.call("close", record=False)

    case.once(body)


def _samples(case: Case, env: Handle, name: str, seed: int) -> list[Any]:
    """Seed ``env.<name>`` through the attribute, then sample from fresh reads of it (as the reproducer shows)."""
    case.note(f"env.{name}.seed({seed})")
    case.note(f"samples = [env.{name}.sample() for _ in range({_SAMPLES})]")
    try:
        case.watchdog.call(f"env.{name}.seed", lambda: env.get(name).seed(seed))
        return [case.watchdog.call(f"env.{name}.sample", lambda: env.get(name).sample()) for _ in range(_SAMPLES)]
    except Exception as exc:  # noqa: BLE001 - SPACE-004/005 report seeding and sampling failures
        case.not_checkable(f"env.{name} cannot be seeded and sampled ({describe_exception(exc)}; reported by the "
                           "SPACE rules)")


@checks("ENV-026", floor=FACT)
def test_spaces_are_the_same_objects(conformance_case: Case) -> None:
    case = conformance_case

    def body() -> None:
        env = case.make()
        for name in ("action_space", "observation_space"):
            if read(case, env, name) is read(case, env, name):
                continue
            first, second = _samples(case, env, name, 0), _samples(case, env, name, 0)
            found = value_difference(first, second, "samples")
            if found is not None:
                case.expect(f"assert env.{name} is env.{name}, 'ENV-026: env.{name} is a new object on every read'")
                case.fail(f"env.{name} is a new object on every read, so env.{name}.seed(0) seeds a space nobody "
                          f"samples from again: the samples after two such seedings differ ({found})",
                          expected=f"env.{name} is env.{name} (one space, seeded once for all later reads)",
                          actual=f"{summarize(first)} then {summarize(second)}")

    case.once(body)
