"""The exceptions the environment checkers raise when an environment breaks the API.

Gymnasium's checkers ``assert``, so code written for them catches ``AssertionError``; ours raise these classes,
which are ``AssertionError`` s *and* the builtin a reader expects for the problem (a result of the wrong type is a
``TypeError``, a wrong value a ``ValueError``), so either ``except`` clause works.
"""

from __future__ import annotations

from reference import error

__all__ = ["CheckError", "CheckTypeError", "CheckUnsupportedMode", "CheckValueError"]


class CheckError(AssertionError):
    """An environment failed an API check."""


class CheckTypeError(CheckError, TypeError):
    """An environment returned or declared something of the wrong type."""


class CheckValueError(CheckError, ValueError):
    """An environment returned or declared a value of the right type that breaks the API."""


class CheckUnsupportedMode(CheckError, error.UnsupportedMode):
    """An environment's ``render_mode`` is not one of its ``metadata["render_modes"]``."""
