"""Targets that change process-wide state at import and while they run (never imported by the project's own test
process: only by the suite's child runs, see tests/meta/test_global_state.py).

Like gym-trading-env, which calls ``warnings.filterwarnings("error")`` at import, they make every warning an error,
raise the root logger to DEBUG, shorten NumPy's printing and ignore ``SIGCHLD`` (a zygote ignoring it would lose its
job processes' exit statuses). None of that breaks a rule: the suite's outcomes must not change because of it.
"""

from __future__ import annotations

import logging
import signal
import warnings
from typing import Any

import numpy as np

from tests.meta.broken._base import Walk

__all__ = ["HostileCorrect", "HostileFloat16"]


def _hostile() -> None:
    warnings.filterwarnings("error")
    logging.basicConfig(level=logging.DEBUG, force=True)
    logging.disable(logging.CRITICAL)
    np.set_printoptions(threshold=2, precision=1, edgeitems=1)
    if hasattr(signal, "SIGCHLD"):
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)


_hostile()


class HostileCorrect(Walk):
    """A correct env that changes the process-wide state again at every reset: it must pass everything."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        _hostile()
        return super().reset(seed=seed, options=options)


class HostileFloat16(HostileCorrect):
    """A SHOULD violation (ENV-010: float16 observations for a float32 Box): a warning, never a failure."""

    def _observation(self) -> Any:
        return super()._observation().astype(np.float16)
