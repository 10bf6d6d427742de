"""Running a Hypothesis state machine as one conformance item.

A :class:`~hypothesis.stateful.RuleBasedStateMachine` draws its own program of calls, so it cannot go through
:meth:`Case.given`; :func:`run_machine` gives it the same treatment: the item's profile (examples, and a program
length derived from the rollout length), a fresh reproducer per program, every instance closed after it, and the
item's outcome from what the last (shrunk) program did, through :class:`~conformance._engine.case.Case`'s example API
(:meth:`~conformance._engine.case.Case.new_example`, :meth:`~conformance._engine.case.Case.close_all`,
:meth:`~conformance._engine.case.Case.conclude`).
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis.stateful import RuleBasedStateMachine, run_state_machine_as_test

from conformance._engine.case import Case
from conformance._engine.profiles import hypothesis_settings

__all__ = ["begin_program", "end_program", "program_length", "run_machine"]

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


def run_machine(case: Case, machine: type[RuleBasedStateMachine], *, max_examples: int | None = None) -> None:
    """Run ``machine`` under the item's profile and turn its ending into the item's outcome.

    Args:
        case: The item.
        machine: The state machine class (its ``__init__`` calls :func:`begin_program`).
        max_examples: Overrides the profile's number of programs.
    """
    chosen = settings(hypothesis_settings(case.profile, max_examples=max_examples),
                      stateful_step_count=program_length(case))
    case.conclude(lambda: run_state_machine_as_test(machine, settings=chosen))
