"""Gymnasium-compatible error names.

Everything :mod:`gymspec.errors` defines is re-exported here as the *same* object, so code that catches
``reference.error.ResetNeeded`` also catches what the conformance suite expects, and vice versa. The classes
Gymnasium has beyond the specification are added below; every one of them derives from
:class:`gymspec.errors.Error`, so a single ``except Error`` catches any failure this package raises on purpose.
"""

from __future__ import annotations

from gymspec.errors import (
    AlreadyPendingCallError,
    ClosedEnvironmentError,
    DeprecatedEnv,
    Error,
    InvalidAction,
    InvalidMetadata,
    NameNotFound,
    NamespaceNotFound,
    NoAsyncCallError,
    RegistrationError,
    ResetNeeded,
    UnregisteredEnv,
    UnsupportedMode,
    VersionNotFound,
    matches,
)

__all__ = [
    "AlreadyPendingCallError",
    "ClosedEnvironmentError",
    "CustomSpaceError",
    "DependencyNotInstalled",
    "DeprecatedEnv",
    "DeprecatedWrapper",
    "Error",
    "InvalidAction",
    "InvalidBound",
    "InvalidMetadata",
    "InvalidProbability",
    "MissingArgument",
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


class DependencyNotInstalled(Error):
    """An optional dependency (pygame, say) is needed for the requested feature but is not importable."""


class MissingArgument(Error):
    """A constructor was called without an argument it cannot work without."""


class InvalidProbability(Error):
    """A probability (or probability vector) is outside ``[0, 1]`` or does not sum to one."""


class InvalidBound(Error):
    """A lower/upper bound pair is unusable, e.g. ``low > high`` when clipping."""


class CustomSpaceError(Error):
    """A user-defined space was given to machinery that only supports the built-in spaces (shared memory)."""


class DeprecatedWrapper(ImportError, Error):
    """A wrapper that was removed or renamed was imported; the message names its replacement."""
