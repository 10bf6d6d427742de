"""How an ``AsyncVectorEnv`` lays out its workers: the start method, the number of workers, each one's sub-envs."""

from __future__ import annotations

import os
import sys

import numpy as np

__all__ = ["default_context", "slices", "worker_count"]


def default_context() -> str | None:
    """The start method used when none is given: fork on Linux (nothing to pickle, so fast), else the default."""
    return "fork" if sys.platform.startswith("linux") else None


def _positive_int(owner: str, name: str, value: object) -> int | None:
    if value is None:
        return None
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{owner} {name} must be a positive int or None, got {value!r}")
    return int(value)


def worker_count(owner: str, num_envs: int, num_workers: object, max_concurrency: object) -> tuple[int | None, int]:
    """Validate the worker options and pick the number of workers.

    Args:
        owner: The class name for error messages.
        num_envs: The number of sub-envs.
        num_workers: The requested number of workers, or ``None`` for one per usable CPU.
        max_concurrency: At most this many sub-envs may run at once, or ``None``.

    Returns:
        ``(max_concurrency, num_workers)``; there are never more workers than sub-envs.

    Raises:
        ValueError: An option is not a positive int or ``None``.
    """
    limit = _positive_int(owner, "max_concurrency", max_concurrency)
    requested = _positive_int(owner, "num_workers", num_workers)
    affinity = getattr(os, "sched_getaffinity", None)
    cpus = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return limit, min(num_envs, requested or cpus, limit or num_envs)


def slices(num_envs: int, num_workers: int) -> list[tuple[int, int]]:
    """Split ``range(num_envs)`` into ``num_workers`` contiguous slices whose sizes differ by at most one.

    Args:
        num_envs: The number of sub-envs.
        num_workers: The number of workers.

    Returns:
        ``(start, stop)`` of each worker's slice.
    """
    bounds = [round(k * num_envs / num_workers) for k in range(num_workers + 1)]
    return list(zip(bounds[:-1], bounds[1:], strict=True))
