"""The process-wide state a target can change at import or at run time, as it was before any target code ran.

A target is imported into the process that runs its items (a zygote, then its forked job processes). Whatever it
does to process-wide state there would otherwise change the suite's outcomes: ``warnings.filterwarnings("error")``
turns the suite's own SHOULD warnings into failures, a changed root logger or NumPy print options change what is
captured and printed, and a ``SIGCHLD`` set to ``SIG_IGN`` makes the zygote lose its children's exit statuses.

The state is recorded when this module is first imported, which the plugin does when pytest loads it (before any
target is resolved); :func:`restore` puts it back before each item, and :class:`WarningState` lets the suite emit its
own warnings under the filters the *user* chose, whatever the target has done to them since the item started.
"""

from __future__ import annotations

import contextlib
import logging
import re
import signal
import warnings
from collections.abc import Callable, Generator
from types import FrameType
from typing import TypeAlias, cast

import numpy as np

__all__ = ["WarningState", "restore"]

# Signals whose disposition a target could change to the suite's harm. SIGINT is left alone (a zygote ignores it on
# purpose: Ctrl-C is the supervisor's), and so is SIGUSR2 (faulthandler's, registered by each job process).
_SIGNALS: tuple[int, ...] = tuple(
    int(getattr(signal, name)) for name in ("SIGCHLD", "SIGPIPE", "SIGTERM", "SIGALRM", "SIGHUP", "SIGUSR1", "SIGXFSZ")
    if hasattr(signal, name)
)


# One entry of ``warnings.filters`` (typeshed's element type; the list itself is typed a read-only Sequence).
_Filter: TypeAlias = tuple[
    str, re.Pattern[str] | None, type[Warning] | tuple[type[Warning], ...], re.Pattern[str] | None, int
]
_Handler: TypeAlias = Callable[[int, FrameType | None], object] | int | signal.Handlers


def _set_filters(filters: list[_Filter]) -> None:
    """Replace the warning filters in place (the module's own functions read the very list object)."""
    cast("list[_Filter]", warnings.filters)[:] = filters
    mutated = getattr(warnings, "_filters_mutated", None)  # invalidates the "once"/"default" registries
    if callable(mutated):
        mutated()


def _signal_handlers() -> dict[int, _Handler]:
    handlers: dict[int, _Handler] = {}
    for number in _SIGNALS:
        with contextlib.suppress(ValueError, OSError):  # not the main thread, or not settable here
            handler = signal.getsignal(number)
            if handler is not None:  # a handler installed from C cannot be put back from Python
                handlers[number] = handler
    return handlers


_FILTERS: list[_Filter] = list(warnings.filters)
_SHOWWARNING = warnings.showwarning
_PRINT_OPTIONS = np.get_printoptions()
_ROOT = logging.getLogger()
_ROOT_LEVEL = _ROOT.level
_ROOT_HANDLERS = list(_ROOT.handlers)
_DISABLE = logging.root.manager.disable
_RAISE_EXCEPTIONS = logging.raiseExceptions
_HANDLERS = _signal_handlers()


def restore() -> None:
    """Put back the warning filters, logging configuration, NumPy print options and signal handlers recorded before
    any target ran (a target may have changed them at import, or during an earlier item)."""
    _set_filters(_FILTERS)
    warnings.showwarning = _SHOWWARNING
    with contextlib.suppress(Exception):  # print options a newer NumPy rejects: leave them as they are
        np.set_printoptions(**_PRINT_OPTIONS)
    _ROOT.setLevel(_ROOT_LEVEL)
    _ROOT.handlers[:] = _ROOT_HANDLERS
    logging.disable(_DISABLE)
    logging.raiseExceptions = _RAISE_EXCEPTIONS
    for number, handler in _HANDLERS.items():
        with contextlib.suppress(ValueError, OSError):
            signal.signal(number, handler)


class WarningState:
    """The warning machinery as it is at one moment: the filters and where a warning is shown (pytest's recorder)."""

    def __init__(self) -> None:
        self.filters: list[_Filter] = list(warnings.filters)
        self.showwarning = warnings.showwarning
        self.show_impl: object = getattr(warnings, "_showwarnmsg_impl", None)

    @contextlib.contextmanager
    def active(self) -> Generator[None]:
        """Within the block, the warning machinery is as recorded (what the target changed since is undone, and
        redone after the block): the suite's own warnings are emitted, recorded and escalated as the user asked."""
        with warnings.catch_warnings():
            _set_filters(self.filters)
            warnings.showwarning = self.showwarning
            if self.show_impl is not None:
                setattr(warnings, "_showwarnmsg_impl", self.show_impl)  # noqa: B010 - private: pytest's recorder
            yield

