"""Errors the specification names.

Every error a rule requires an implementation to raise derives from :class:`Error`, so a conformance check
can assert "raised ResetNeeded" without importing any implementation. Implementations written against another
library (Gymnasium's own ``gymnasium.error.ResetNeeded``, say) are recognised by class *name* through
:func:`matches`, because the rules constrain behaviour, not inheritance.
"""

from __future__ import annotations

__all__ = [
    "AlreadyPendingCallError",
    "ClosedEnvironmentError",
    "DeprecatedEnv",
    "Error",
    "InvalidAction",
    "InvalidMetadata",
    "NameNotFound",
    "NamespaceNotFound",
    "NoAsyncCallError",
    "RegistrationError",
    "ResetNeeded",
    "UnregisteredEnv",
    "UnsupportedMode",
    "VersionNotFound",
    "matches",
]


class Error(Exception):
    """Root of every error named by the specification."""


# --- API-state errors -------------------------------------------------------------------------------------------


class ResetNeeded(Error):
    """``step`` or ``render`` was called before the first ``reset``."""


class ClosedEnvironmentError(Error):
    """An environment (or vector environment) was used after ``close``."""


class AlreadyPendingCallError(Error):
    """An ``*_async`` call was made while another asynchronous call is still pending.

    Args:
        message: What went wrong.
        name: The name of the call that is pending (``"step"``, ``"reset"``, ``"call"``).
    """

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


class NoAsyncCallError(Error):
    """A ``*_wait`` call was made without a matching pending ``*_async`` call.

    Args:
        message: What went wrong.
        name: The name of the wait call that found nothing pending.
    """

    def __init__(self, message: str, name: str) -> None:
        super().__init__(message)
        self.name = name


class InvalidAction(Error):
    """An action outside the action space was rejected by an environment that validates actions."""


class UnsupportedMode(Error):
    """A ``render_mode`` the environment does not declare in ``metadata["render_modes"]`` was requested."""


class InvalidMetadata(Error):
    """An environment's ``metadata`` is not a mapping of the documented shape."""


# --- registry errors --------------------------------------------------------------------------------------------


class RegistrationError(Error):
    """An environment id could not be registered (malformed, or versioned/unversioned conflict)."""


class UnregisteredEnv(Error):
    """No environment is registered under the requested id."""


class NamespaceNotFound(UnregisteredEnv):
    """The namespace part of the id is unknown."""


class NameNotFound(UnregisteredEnv):
    """The name part of the id is unknown in its namespace."""


class VersionNotFound(UnregisteredEnv):
    """The name is registered, but not with the requested version."""


class DeprecatedEnv(Error):
    """The requested version is older than the registered ones and is no longer available."""


def matches(exc: BaseException, expected: type[Error]) -> bool:
    """Tell whether ``exc`` is (structurally) the error ``expected`` names.

    An exception matches when it is an instance of ``expected`` or when any class in its MRO has the same name,
    which recognises other libraries' equivalents (``gymnasium.error.ResetNeeded``) without importing them.

    Args:
        exc: The exception that was raised.
        expected: The specification's error class.

    Returns:
        Whether the exception counts as ``expected``.
    """
    if isinstance(exc, expected):
        return True
    return any(cls.__name__ == expected.__name__ for cls in type(exc).__mro__)
