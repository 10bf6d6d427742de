"""Running a Hypothesis state machine as one conformance item.

A :class:`~hypothesis.stateful.RuleBasedStateMachine` draws its own program of calls, so it cannot go through
:meth:`Case.given`; :func:`run_machine` gives it the same treatment: the item's profile (examples, and a program
length derived from the rollout length), a fresh reproducer per program, every instance closed after it, and the
item's outcome from what the last (shrunk) program did, through :class:`~conformance._engine.case.Case`'s example API
(:meth:`~conformance._engine.case.Case.new_example`, :meth:`~conformance._engine.case.Case.close_all`,
:meth:`~conformance._engine.case.Case.conclude`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from typing import cast

from hypothesis import Phase, settings
from hypothesis.stateful import (
    RuleBasedStateMachine,
    run_state_machine_as_test,  # pyright: ignore[reportUnknownVariableType] - typed below, as _run_machine
)

from conformance._engine.case import Case
from conformance._engine.handles import TargetError
from conformance._engine.profiles import hypothesis_settings

# Hypothesis 6.15x dropped this function's annotations; its signature is unchanged (factory, *, settings).
_run_machine = cast(Callable[..., None], run_state_machine_as_test)

__all__ = ["begin_program", "end_program", "program_length", "run_machine", "target_errors"]

_MIN_STEPS = 10
_MAX_STEPS = 100


def program_length(case: Case) -> int:
    """Calls per program: a quarter of the profile's rollout length, within [10, 100]."""
    return max(_MIN_STEPS, min(_MAX_STEPS, case.profile.max_steps // 4))


def begin_program(case: Case) -> None:
    """Start a new example: an empty reproducer and no open instances (call from the machine's ``__init__``)."""
    case.new_example()


def end_program(case: Case) -> None:
    """Close every instance the program made (call from the machine's ``teardown``)."""
    case.close_all()


@contextmanager
def target_errors(case: Case) -> Generator[None, None, None]:
    """Give an exception the target raises in the block its meaning for the item, as examples of
    :meth:`~conformance._engine.case.Case.explore` do: a failure of the item's rule when the rule owns the call,
    else not checkable, naming the rule that reports it (:meth:`~conformance._engine.case.Case.translate`)."""
    try:
        yield
    except TargetError as error:
        raise case.translate(error, case.rule, case.owns) from error.error


def run_machine(
    case: Case,
    machine: type[RuleBasedStateMachine],
    *,
    max_examples: int | None = None,
    calls: int | None = None,
    shrink: bool = True,
    first: Callable[[], None] | None = None,
) -> None:
    """Run ``machine`` under the item's profile and turn its ending into the item's outcome.

    Args:
        case: The item.
        machine: The state machine class (its ``__init__`` calls :func:`begin_program`).
        max_examples: Overrides the profile's number of programs.
        calls: Overrides the number of calls per program (:func:`program_length`).
        shrink: Whether Hypothesis shrinks a failing program (a machine whose check shortens what it reports
            itself can do without: shrinking a long program re-runs it hundreds of times).
        first: A fixed program run before Hypothesis' ones, as an example of its own: the interleavings a defect
            is known to need, checked whatever programs Hypothesis' derandomized draws happen to make.
    """
    base = hypothesis_settings(case.profile, max_examples=max_examples)
    # Hypothesis 6.15x leaves settings.phases partly unannotated; it is a sequence of Phase.
    given = cast("Sequence[Phase]", base.phases)  # pyright: ignore[reportUnknownMemberType]
    phases = tuple(given) if shrink else tuple(phase for phase in given if phase is not Phase.shrink)
    steps = program_length(case) if calls is None else calls
    chosen = settings(base, stateful_step_count=steps, phases=phases)

    def run() -> None:
        if first is not None:
            begin_program(case)
            try:
                with target_errors(case):
                    first()
            finally:
                end_program(case)
        _run_machine(machine, settings=chosen)

    case.conclude(run)
