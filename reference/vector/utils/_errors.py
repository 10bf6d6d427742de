"""The error every ``reference.vector.utils`` function raises when it is given something that is not a space."""

from __future__ import annotations

__all__ = ["not_a_space"]


def not_a_space(function: str, space: object) -> TypeError:
    """The ``TypeError`` for ``function`` called with ``space``, which is not a reference space.

    Args:
        function: The function's name.
        space: What it was given.

    Returns:
        The exception to raise.
    """
    return TypeError(f"{function} space must be a reference Space, got {type(space).__name__}: {space!r}")
