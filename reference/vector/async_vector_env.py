"""``AsyncVectorEnv``: sub-environments stepped in worker processes, under Gymnasium's module name.

The implementation lives in the private package :mod:`reference.vector._async` (start with its ``env`` module);
the classes keep that module as ``__module__``, so tracebacks and ``inspect.getsource`` lead there.
"""

from __future__ import annotations

from reference.vector._async.env import AsyncState, AsyncVectorEnv
from reference.vector._async.pool import WorkerDiedError

__all__ = ["AsyncState", "AsyncVectorEnv", "WorkerDiedError"]
