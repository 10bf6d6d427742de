"""Process helpers for vector environments: picklable env factories and an MPI-safe process start."""

from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable, Generator
from typing import Generic, TypeVar

import cloudpickle  # pyright: ignore[reportMissingTypeStubs]  # it ships no type information (mypy.ini skips it too)

__all__ = ["CloudpickleWrapper", "clear_mpi_env_vars"]

_T_co = TypeVar("_T_co", covariant=True)

# Launchers such as Open MPI and PMI-based ones export these; a child that inherits them may call MPI_Init and hang.
_MPI_PREFIXES = ("OMPI_", "PMI_")


class CloudpickleWrapper(Generic[_T_co]):
    """A zero-argument callable that survives pickling, closures and lambdas included.

    The standard pickler cannot serialise lambdas or locally defined factories, which is what users usually pass
    to ``AsyncVectorEnv``; this wrapper pickles the callable with ``cloudpickle`` and unpickles it with the
    standard ``pickle`` (cloudpickle's output is ordinary pickle data).

    Args:
        fn: The callable, usually an environment factory.
    """

    fn: Callable[[], _T_co]

    def __init__(self, fn: Callable[[], _T_co]) -> None:
        self.fn = fn

    def __getstate__(self) -> bytes:
        return bytes(cloudpickle.dumps(self.fn))  # pyright: ignore[reportUnknownMemberType]  # untyped, as above

    def __setstate__(self, state: bytes) -> None:
        self.fn = pickle.loads(state)

    def __call__(self) -> _T_co:
        """Call the wrapped callable.

        Returns:
            Whatever the callable returns.
        """
        return self.fn()

    def __repr__(self) -> str:
        return f"CloudpickleWrapper({self.fn!r})"


@contextlib.contextmanager
def clear_mpi_env_vars() -> Generator[None, None, None]:
    """Hide MPI launcher variables from processes started inside the block.

    A worker that imports ``mpi4py`` with the parent's ``OMPI_*``/``PMI_*`` variables believes it is an MPI rank
    and may hang in ``MPI_Init``. The variables are removed for the duration of the block and restored afterwards,
    even if the block raises.

    Yields:
        Nothing; the environment is restored on exit.
    """
    removed = {key: value for key, value in os.environ.items() if key.startswith(_MPI_PREFIXES)}
    for key in removed:
        del os.environ[key]
    try:
        yield
    finally:
        os.environ.update(removed)
