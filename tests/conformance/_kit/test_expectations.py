"""The reproducers' final assertions: each helper's lines run, fail with the rule id and what differs while the defect
exists, and pass once it is gone; a trace records what another method returned only when an expectation reads it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pytest

from conformance._engine.case import Case
from conformance._engine.record import Trace, copied, returned
from conformance._kit.expectations import (
    Equal,
    Holds,
    Member,
    NoRaise,
    Raises,
    Unequal,
    expect_equal,
    expect_member,
    expect_no_raise,
    expect_raises,
    expect_true,
    expect_unequal,
)
from reference.spaces import Discrete


@dataclass
class _Rule:
    id: str = "SPACE-007"


@dataclass
class _Case:
    """What the helpers use of a :class:`Case`: its rule and ``expect``."""

    rule: _Rule = field(default_factory=_Rule)
    lines: list[str] = field(default_factory=list[str])
    imports: list[str] = field(default_factory=list[str])
    dropped: list[str] = field(default_factory=list[str])

    def expect(self, *lines: str, imports: tuple[str, ...] = (), drop: tuple[str, ...] = ()) -> None:
        self.lines.extend(lines)
        self.imports.extend(imports)
        self.dropped.extend(drop)

    def run(self, **values: Any) -> None:
        exec(compile("\n".join([*self.imports, *self.lines]), "<expectation>", "exec"), dict(values))  # noqa: S102


def _case() -> tuple[_Case, Case]:
    fake = _Case()
    return fake, cast(Case, fake)


def test_member_names_the_broken_bound() -> None:
    fake, case = _case()
    expect_member(case, "space", "drawn", "sample() returned a value outside the space")
    with pytest.raises(AssertionError, match=r"^SPACE-007: sample\(\) returned .*: value = 3 is outside \[0, 2\]"):
        fake.run(space=Discrete(3), drawn=3)
    fake.run(space=Discrete(3), drawn=2)


def test_equal_says_what_differs_and_unequal_fails_on_equal_values() -> None:
    fake, case = _case()
    expect_equal(case, "a", "b", "runs differ")
    with pytest.raises(AssertionError, match=r"^SPACE-007: runs differ: \[1\]: 2 != 3$"):
        fake.run(a=[1, 2], b=[1, 3])
    fake.run(a=[1, 2], b=[1, 2])
    fake, case = _case()
    expect_unequal(case, "a", "b", "two entropy-seeded copies agree")
    with pytest.raises(AssertionError, match="^SPACE-007: two entropy-seeded copies agree"):
        fake.run(a=[1, 2], b=[1, 2])
    fake.run(a=[1, 2], b=[1, 3])


def test_true_shows_the_value_and_runs_its_given_lines() -> None:
    fake, case = _case()
    expect_true(case, "frame is None", "render() returned a frame", "frame", given=("frame = frames[-1]",))
    with pytest.raises(AssertionError, match="^SPACE-007: render\\(\\) returned a frame: 'pixels'$"):
        fake.run(frames=[None, "pixels"])
    fake.run(frames=["pixels", None])


def test_raises_and_no_raise() -> None:
    def ok() -> None:
        return None

    def bad() -> None:
        raise KeyError("x")

    fake, case = _case()
    expect_raises(case, "call()", "no ValueError", accepted="isinstance(raised, ValueError)")
    with pytest.raises(AssertionError, match="^SPACE-007: no ValueError: None$"):
        fake.run(call=ok)
    with pytest.raises(AssertionError, match="KeyError"):
        fake.run(call=bad)
    fake.run(call=lambda: int("x"))
    fake, case = _case()
    expect_no_raise(case, "call()", "call() raised")
    with pytest.raises(AssertionError, match="^SPACE-007: call\\(\\) raised: KeyError"):
        fake.run(call=bad)
    fake.run(call=ok)


def test_a_trace_records_another_method_only_when_an_expectation_reads_it() -> None:
    trace = Trace(("from reference.spaces import Discrete",))
    trace.construct("space", "Discrete(3)")
    trace.call("space", "seed", 0)
    trace.call("space", "sample")
    trace.call("space", "sample")
    plain = trace.script()
    assert "results" not in plain
    trace.expect(f"assert space.contains({returned('space', 'sample')}[-1]), 'SPACE-007: outside'")
    lines = trace.script().splitlines()
    assert lines.count("results.setdefault('space.sample', []).append(space.sample())") == 2
    assert "space.seed(0)" in lines  # not read by the expectation: replayed as it is
    exec(compile(trace.script(), "<trace>", "exec"), {})  # noqa: S102 - the trace's own output


class _Buffer:
    """Returns one array it writes again at every call (a reused buffer), or a fresh one."""

    def __init__(self, reuse: bool) -> None:
        self.reuse = reuse
        self.frame = np.zeros(2, dtype=np.int64)
        self.count = 0

    def render(self) -> np.ndarray[Any, Any]:
        self.count += 1
        frame = self.frame if self.reuse else np.zeros(2, dtype=np.int64)
        frame[:] = self.count
        return frame


def test_a_trace_copies_what_a_call_returned_when_an_expectation_compares_the_copies() -> None:
    def script(reuse: bool) -> str:
        trace = Trace((f"from {__name__} import _Buffer",))
        trace.construct("env", f"_Buffer({reuse})")
        trace.call("env", "render")
        trace.call("env", "render")
        trace.expect(*_equal_lines(returned("env", "render"), copied("env", "render")))
        return trace.script()

    broken = script(True)
    assert broken.splitlines()[0] == "import copy"
    assert broken.count("copies.setdefault('env.render', []).append(copy.deepcopy(results['env.render'][-1]))") == 2
    with pytest.raises(AssertionError, match=r"^SPACE-007: frames changed: \[0\]: 2 of 2 elements differ"):
        exec(compile(broken, "<trace>", "exec"), {})  # noqa: S102 - the trace's own output
    exec(compile(script(False), "<trace>", "exec"), {})  # noqa: S102


def test_a_copy_of_a_part_of_a_step_result() -> None:
    trace = Trace()
    trace.construct("env", "object()")
    trace.expect(f"assert {copied('env', 'step', '[0]')}")
    assert copied("env", "step", "[0]") == "copies['env[0]']"
    assert trace._copied_parts("env") == ["[0]"]  # pyright: ignore[reportPrivateUsage]
    assert trace._copied_parts("env_again") == []  # pyright: ignore[reportPrivateUsage]


def test_a_dropped_variable_leaves_the_replay_for_the_assertion_to_construct() -> None:
    trace = Trace()
    trace.construct("env", "dict()")
    trace.construct("env_undeclared", "dict(mode='x')")
    trace.call("env_undeclared", "clear")
    trace.line("note = 1")
    trace.expect("assert env_undeclared is not None", drop=("env_undeclared",))
    lines = trace.script().splitlines()
    assert "env = dict()" in lines and "note = 1" in lines
    assert not any(line.startswith("env_undeclared") for line in lines)


def _equal_lines(left: str, right: str) -> list[str]:
    fake, case = _case()
    expect_equal(case, left, right, "frames changed")
    return [*fake.imports, *fake.lines]


_PAIRS: list[tuple[Any, Any]] = [
    (Holds("x > 0", "x", given=("x = 1",), imports=("import math",)),
     lambda case, problem: expect_true(case, "x > 0", problem, "x", given=("x = 1",), imports=("import math",))),
    (Member("space", "drawn"), lambda case, problem: expect_member(case, "space", "drawn", problem)),
    (Equal("a", "b", exact=False, given=("a = 1",)),
     lambda case, problem: expect_equal(case, "a", "b", problem, exact=False, given=("a = 1",))),
    (Unequal("a", "b", given=("a = 1",)),
     lambda case, problem: expect_unequal(case, "a", "b", problem, given=("a = 1",))),
    (NoRaise("f()", imports=("import f",)),
     lambda case, problem: expect_no_raise(case, "f()", problem, imports=("import f",))),
    (Raises("f()", accepted="isinstance(raised, KeyError)", imports=("import f",), drop=("env",)),
     lambda case, problem: expect_raises(case, "f()", problem, accepted="isinstance(raised, KeyError)",
                                         imports=("import f",), drop=("env",))),
]


@pytest.mark.parametrize(("assertion", "written_by"), _PAIRS, ids=lambda value: type(value).__name__)
def test_an_assertion_given_to_fail_writes_what_its_expect_function_writes(assertion: Any, written_by: Any) -> None:
    # case.fail(problem, ..., assertion=...) calls write(case, problem): the failure's problem is the message, or
    # the assertion's own problem when it names one.
    for own, message in (("", "the failure's words"), ("the script's words", "the script's words")):
        fake, case = _case()
        written = type(assertion)(**{**vars(assertion), "problem": own})
        written.write(case, "the failure's words")
        expected_fake, expected_case = _case()
        written_by(expected_case, message)
        assert (fake.lines, fake.imports, fake.dropped) == (expected_fake.lines, expected_fake.imports,
                                                            expected_fake.dropped)
        assert any(message in line for line in fake.lines)
