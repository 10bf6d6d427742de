"""The final assertion of a failure's reproducer, one helper per kind of check.

A reproducer replays the calls of the failing example (:mod:`conformance._engine.record`); these helpers end it
with an ``assert`` that fails while the defect exists and passes once it is fixed, its message starting with the
rule id and saying what differs (:mod:`conformance.equality`'s describing helpers, imported by the script). Each
takes *source expressions* over the reproducer's variables, e.g. ``returned("space", "sample") + "[-1]"``
(:func:`~conformance._engine.record.returned`) or ``"env.action_space"``.

A finding is one statement: ``case.fail(problem, expected=..., actual=..., assertion=Equal(left, right))`` writes
the assertion (its message ``problem``, or the assertion's own ``problem`` where the script's words differ from the
report's) and fails. The ``expect_*`` functions write an assertion alone, for a helper that words it before another
decides to fail.
"""

from __future__ import annotations

from dataclasses import dataclass

from conformance._engine.case import Case

__all__ = [
    "Equal",
    "Holds",
    "Member",
    "NoRaise",
    "Raises",
    "Unequal",
    "expect_equal",
    "expect_member",
    "expect_no_raise",
    "expect_raises",
    "expect_true",
    "expect_unequal",
]

_EQUALITY = "from conformance.equality import {}"


def _headline(case: Case, problem: str) -> str:
    """The message's opening as a string literal: ``'RULE-001: problem: '``."""
    return repr(f"{case.rule.id}: {problem}: ")


def expect_true(
    case: Case,
    condition: str,
    problem: str,
    shown: str = "",
    *,
    given: tuple[str, ...] = (),
    imports: tuple[str, ...] = (),
) -> None:
    """End with ``assert condition``; the message shows ``repr(shown)`` (an expression) when given.

    For checks on a value's type, dtype, flags or a declared property (``isinstance(...)``, ``x.dtype == ...``).
    ``given``: lines before the assertion that name what it reads (``"frame = results['env.render'][-1]"``).
    """
    message = f"{_headline(case, problem)} + repr({shown})" if shown else repr(f"{case.rule.id}: {problem}")
    case.expect(*given, f"assert {condition}, {message}", imports=imports)


def expect_member(case: Case, space: str, value: str, problem: str) -> None:
    """End with ``assert space.contains(value)``; the message names the broken bound, dtype or key path
    (:func:`conformance.equality.outside_space`)."""
    case.expect(
        f"value = {value}",
        f"assert {space}.contains(value), {_headline(case, problem)} + "
        f"(outside_space({space}, value) or repr(value))",
        imports=(_EQUALITY.format("outside_space"),),
    )


def expect_equal(
    case: Case, left: str, right: str, problem: str, *, exact: bool = True, given: tuple[str, ...] = ()
) -> None:
    """End with the assertion that two values are the same (types included unless ``exact`` is false, as
    :func:`conformance.equality.difference` / :func:`~conformance.equality.value_difference` compare them); the
    message is the first difference. ``given``: lines before it (as for :func:`expect_true`)."""
    compare = "difference" if exact else "value_difference"
    case.expect(
        *given,
        f"found = {compare}({left}, {right})",
        f"assert found is None, {_headline(case, problem)} + found",
        imports=(_EQUALITY.format(compare),),
    )


def expect_unequal(case: Case, left: str, right: str, problem: str, *, given: tuple[str, ...] = ()) -> None:
    """End with the assertion that two values differ (two entropy-seeded runs, say)."""
    case.expect(
        *given,
        f"assert difference({left}, {right}) is not None, {_headline(case, problem)} + repr({left})",
        imports=(_EQUALITY.format("difference"),),
    )


def _attempt(statement: str) -> tuple[str, ...]:
    """Lines that run ``statement`` and keep what it raised as ``raised`` (``None``: nothing)."""
    return ("raised = None", "try:", f"    {statement}",
            "except Exception as error:  # noqa: BLE001 - what the call raised is the finding", "    raised = error")


def expect_no_raise(case: Case, statement: str, problem: str, *, imports: tuple[str, ...] = ()) -> None:
    """End by running ``statement`` and asserting that it raised nothing."""
    case.expect(*_attempt(statement), f"assert raised is None, {_headline(case, problem)} + repr(raised)",
                imports=imports)


def expect_raises(
    case: Case,
    statement: str,
    problem: str,
    *,
    accepted: str = "",
    imports: tuple[str, ...] = (),
    drop: tuple[str, ...] = (),
) -> None:
    """End by running ``statement`` (a call the check made unrecorded, since the fixed target raises there) and
    asserting that it raised, and that what it raised (``raised``) meets the condition ``accepted`` when given.
    ``drop``: variables the replay leaves out because ``statement`` makes their construction (the check's was
    recorded, and a fixed target raises there)."""
    condition = f"raised is not None and ({accepted})" if accepted else "raised is not None"
    case.expect(*_attempt(statement), f"assert {condition}, {_headline(case, problem)} + repr(raised)",
                imports=imports, drop=drop)


# --- One statement: the assertion a case.fail(...) ends the reproducer in ---------------------------------------------
# Each takes what its expect_* function takes but the case and the problem: case.fail gives both. ``problem``, when
# given, is the assertion's message instead of the failure's (a static wording beside a report that names values).


@dataclass(frozen=True)
class Holds:
    """``assert condition`` (:func:`expect_true`)."""

    condition: str
    shown: str = ""
    given: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()
    problem: str = ""

    def write(self, case: Case, problem: str) -> None:
        """End ``case``'s reproducer with the assertion."""
        expect_true(case, self.condition, self.problem or problem, self.shown, given=self.given, imports=self.imports)


@dataclass(frozen=True)
class Member:
    """``assert space.contains(value)`` (:func:`expect_member`)."""

    space: str
    value: str
    problem: str = ""

    def write(self, case: Case, problem: str) -> None:
        """End ``case``'s reproducer with the assertion."""
        expect_member(case, self.space, self.value, self.problem or problem)


@dataclass(frozen=True)
class Equal:
    """Two values are the same (:func:`expect_equal`)."""

    left: str
    right: str
    exact: bool = True
    given: tuple[str, ...] = ()
    problem: str = ""

    def write(self, case: Case, problem: str) -> None:
        """End ``case``'s reproducer with the assertion."""
        expect_equal(case, self.left, self.right, self.problem or problem, exact=self.exact, given=self.given)


@dataclass(frozen=True)
class Unequal:
    """Two values differ (:func:`expect_unequal`)."""

    left: str
    right: str
    given: tuple[str, ...] = ()
    problem: str = ""

    def write(self, case: Case, problem: str) -> None:
        """End ``case``'s reproducer with the assertion."""
        expect_unequal(case, self.left, self.right, self.problem or problem, given=self.given)


@dataclass(frozen=True)
class NoRaise:
    """``statement`` raises nothing (:func:`expect_no_raise`)."""

    statement: str
    imports: tuple[str, ...] = ()
    problem: str = ""

    def write(self, case: Case, problem: str) -> None:
        """End ``case``'s reproducer with the assertion."""
        expect_no_raise(case, self.statement, self.problem or problem, imports=self.imports)


@dataclass(frozen=True)
class Raises:
    """``statement`` raises, what it raised meeting ``accepted`` (:func:`expect_raises`)."""

    statement: str
    accepted: str = ""
    imports: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()
    problem: str = ""

    def write(self, case: Case, problem: str) -> None:
        """End ``case``'s reproducer with the assertion."""
        expect_raises(case, self.statement, self.problem or problem, accepted=self.accepted, imports=self.imports,
                      drop=self.drop)
