"""Targets whose factory imports a package that takes seconds to import and leaves threads running (as torch and
JAX do): the suite runs their items under spawn isolation, so each process that runs them imports the package anew.

:func:`behind_a_slow_import` makes such a factory of any env class (a broken env's too: the defect must still be
found when every process pays seconds to start); :func:`walk` is the correct ``Walk`` behind it. The runtime is
:mod:`tests.meta.broken._slow_runtime` (its import sleeps ``$CONFORMANCE_SLOW_IMPORT_SECONDS``, default 4, and logs
each importing process in ``$CONFORMANCE_SLOW_IMPORT_LOG``): ``benchmarks/bench_suite.py --only "slow import"``
counts how many processes paid for the import and times the run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from tests.meta.broken._base import Walk

__all__ = ["RUNTIME", "behind_a_slow_import", "walk"]

RUNTIME = "tests.meta.broken._slow_runtime"
"""The module the factories import (on their first call in a process)."""


def behind_a_slow_import(env: Callable[..., Any]) -> Callable[..., Any]:
    """A factory that imports the slow runtime, then builds ``env(render_mode=...)``."""

    def factory(render_mode: str | None = None) -> Any:
        importlib.import_module(RUNTIME)
        return env(render_mode=render_mode)

    factory.__name__ = factory.__qualname__ = f"slow_{getattr(env, '__name__', 'env')}"
    return factory


walk = behind_a_slow_import(Walk)
"""The correct ``Walk``, behind the slow import: it passes every rule, under spawn isolation."""
