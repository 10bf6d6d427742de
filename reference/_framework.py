"""Helpers the whole framework shares: the lazy pygame import, render-mode validation, the step-before-reset error,
the flag-argument check.

Built-in environments, wrappers and the functional adapters all use them. They live here, below every package, so
that wrappers and :mod:`reference.functional` never import an environment package: environments depend on the
framework, never the other way round (Gymnasium is layered the same way).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import ModuleType
from typing import Any, TypeAlias

from gymspec.errors import ResetNeeded, UnsupportedMode
from reference._narrowing import is_bool
from reference.error import DependencyNotInstalled
from reference.utils._format import describe

__all__ = [
    "StepBeforeReset",
    "UnsupportedRenderMode",
    "import_pygame",
    "require_bool",
    "step_before_reset",
    "validate_render_mode",
]

#: A class's ``metadata`` (only ``"render_modes"`` is read).
_Metadata: TypeAlias = Mapping[str, Any]


class UnsupportedRenderMode(UnsupportedMode, ValueError):
    """A built-in environment was constructed with a ``render_mode`` it does not declare.

    It is both the specification's :class:`~gymspec.errors.UnsupportedMode` and a :class:`ValueError`, so callers
    written against either convention catch it.
    """


def require_bool(owner: str, **flags: object) -> None:
    """Reject a flag argument that is not a bool (an array would fail later, in ``if flag:``, without a name).

    Args:
        owner: The caller's name, for the message.
        **flags: The flag arguments by parameter name.

    Raises:
        TypeError: A flag is not a Python or NumPy bool.
    """
    for name, flag in flags.items():
        if not is_bool(flag):
            raise TypeError(f"{owner} {name} must be a bool, got {describe(flag)}")


def validate_render_mode(owner: str, render_mode: str | None, metadata: _Metadata) -> str | None:
    """Check a constructor's ``render_mode`` against the class metadata.

    Args:
        owner: The environment class name, used in the error message.
        render_mode: The requested mode, or None for no rendering.
        metadata: The class metadata holding ``"render_modes"``.

    Returns:
        The validated mode.

    Raises:
        UnsupportedRenderMode: If the mode is not None and not declared.
    """
    modes = tuple(metadata.get("render_modes", ()))
    if render_mode is None or render_mode in modes:
        return render_mode
    raise UnsupportedRenderMode(
        f"{owner} render_mode must be None or one of {list(modes)}, got {render_mode!r}; "
        "rendering collections such as 'rgb_array_list' are added by make(), not by the environment"
    )


def import_pygame() -> ModuleType:
    """Import pygame, explaining how to install it when it is missing.

    Returns:
        The pygame module.

    Raises:
        DependencyNotInstalled: If pygame cannot be imported.
    """
    # pygame prints a banner to stdout on import unless told not to; an environment's stdout is not ours to use.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame as module
    except ImportError as exc:
        raise DependencyNotInstalled(
            "pygame is needed for the 'human' and 'rgb_array' render modes, got ImportError; "
            "install it with `pip install pygame`"
        ) from exc
    return module


class StepBeforeReset(ResetNeeded, RuntimeError):
    """``step`` or ``render`` was called on a raw built-in environment that was never reset."""


def step_before_reset(owner: str, method: str = "step") -> StepBeforeReset:
    """Build the error raised when an environment is used before its first ``reset``.

    Args:
        owner: The environment class name.
        method: The method that was called too early.

    Returns:
        The error, for the caller to raise.
    """
    return StepBeforeReset(f"{owner} {method}() must be preceded by reset(), got a call on a never-reset environment")
