"""The shared memory of an ``AsyncVectorEnv`` and the accessors both sides build on it once.

One block per field: observations (per ``create_shared_memory``), actions (when the action space is made of arrays
only), rewards (float64), terminations and truncations (bool). The parent loads whole action batches and reads
whole observation batches; each worker sees its slice of every block as rows indexed from 0
(:func:`action_rows`, :func:`observation_rows`), which is what :func:`~reference.vector._autoreset.step_envs` reads
and writes. Accessors are compiled once per space, so the per-step cost is one NumPy item access per sub-env and
field.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from multiprocessing.context import BaseContext
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_array, is_dict, is_tuple
from reference.spaces import Box, Discrete, MultiBinary, MultiDiscrete, Space
from reference.spaces._guards import is_dict_space, is_tuple_space
from reference.vector._autoreset import Actions, Rows
from reference.vector._common import RowSink, is_array_tree, make_row_writer
from reference.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

__all__ = [
    "SharedBlock",
    "SharedBuffers",
    "action_rows",
    "make_action_loader",
    "make_observation_reader",
    "observation_rows",
]

#: One raw shared array per array leaf of a space, nested in tuples and dicts like the space.
SharedBlock: TypeAlias = "ctypes.Array[Any] | tuple[SharedBlock, ...] | dict[str, SharedBlock]"
#: A batch of a space, or one element of it; its structure follows the space, its leaves are arrays or scalars.
Value: TypeAlias = Any
_AnySpace: TypeAlias = Space[Any]
_ARRAY_SPACES = (Box, Discrete, MultiDiscrete, MultiBinary)


class _Unlocked:
    """A context whose ``Array`` is ``RawArray``, for ``create_shared_memory``.

    Workers write disjoint rows and the parent reads only between commands, so the lock ``Array`` adds is never
    taken; without it there is no semaphore to create (a named one under spawn) or to leak.
    """

    def __init__(self, ctx: BaseContext) -> None:
        self._ctx = ctx

    def Array(self, typecode: Any, size: int) -> ctypes.Array[Any]:  # noqa: N802 - the multiprocessing name
        """Allocate ``size`` items of ``typecode`` (a ctypes type or array typecode) in shared memory."""
        array: ctypes.Array[Any] = self._ctx.RawArray(typecode, size)
        return array


@dataclass
class SharedBuffers:
    """The shared blocks of one vector environment.

    Attributes:
        num_envs: The number of sub-envs every block holds.
        observations: The observation memory, or ``None`` when observations travel through the pipes.
        actions: The action memory, or ``None`` when the action space is not made of arrays.
        rewards: ``num_envs`` float64 values.
        terminations: ``num_envs`` bools.
        truncations: ``num_envs`` bools.
    """

    num_envs: int
    observations: SharedBlock | None
    actions: SharedBlock | None
    rewards: ctypes.Array[ctypes.c_double]
    terminations: ctypes.Array[ctypes.c_bool]
    truncations: ctypes.Array[ctypes.c_bool]

    @classmethod
    def allocate(
        cls,
        ctx: BaseContext,
        observation_space: _AnySpace,
        action_space: _AnySpace,
        num_envs: int,
        *,
        share_observations: bool,
    ) -> SharedBuffers:
        """Allocate every block from ``ctx``.

        Args:
            ctx: The ``multiprocessing`` context the workers will be started from.
            observation_space: One sub-env's observation space.
            action_space: One sub-env's action space.
            num_envs: The number of sub-envs.
            share_observations: Whether observations go through shared memory.

        Returns:
            The buffers.

        Raises:
            CustomSpaceError: ``share_observations`` with a space that has no shared-memory implementation.
            TypeError: ``share_observations`` with a space of varying shape (Sequence, Graph).
        """
        raw = _Unlocked(ctx)
        return cls(
            num_envs=num_envs,
            observations=create_shared_memory(observation_space, num_envs, raw) if share_observations else None,
            actions=create_shared_memory(action_space, num_envs, raw) if is_array_tree(action_space) else None,
            rewards=ctx.RawArray(ctypes.c_double, num_envs),
            terminations=ctx.RawArray(ctypes.c_bool, num_envs),
            truncations=ctx.RawArray(ctypes.c_bool, num_envs),
        )

    def step_views(self) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
        """Return NumPy views of the rewards, terminations and truncations blocks."""
        return (
            np.frombuffer(memoryview(self.rewards), dtype=np.float64),
            np.frombuffer(memoryview(self.terminations), dtype=np.bool_),
            np.frombuffer(memoryview(self.truncations), dtype=np.bool_),
        )


def _slice_tree(batch: Value, start: int, stop: int) -> Value:
    """Rows ``start:stop`` of a (nested) batch of arrays, as views."""
    if is_tuple(batch):
        return tuple(_slice_tree(item, start, stop) for item in batch)
    if is_dict(batch):
        return {key: _slice_tree(item, start, stop) for key, item in batch.items()}
    return batch[start:stop]


class _ShiftedRows:
    """``rows[k] = element`` writes element ``start + k`` through a function that takes the global index."""

    __slots__ = ("_start", "_write")

    def __init__(self, start: int, write: Callable[[int, Value], None]) -> None:
        self._start, self._write = start, write

    def __setitem__(self, k: int, value: Value) -> None:
        self._write(self._start + k, value)


class _ShiftedActions:
    """``actions[k]`` reads element ``start + k`` through a function that takes the global index."""

    __slots__ = ("_read", "_start")

    def __init__(self, start: int, read: Callable[[int], Value]) -> None:
        self._start, self._read = start, read

    def __getitem__(self, k: int) -> Value:
        return self._read(self._start + k)


def observation_rows(space: _AnySpace, memory: SharedBlock, n: int, start: int, stop: int) -> Rows:
    """The rows of sub-envs ``start:stop`` in the observation block, indexed from 0 (worker side).

    Args:
        space: One sub-env's observation space.
        memory: The observation block.
        n: The number of sub-envs.
        start: The first sub-env of the slice.
        stop: One past its last sub-env.

    Returns:
        ``rows`` with ``rows[k] = observation`` storing sub-env ``start + k``'s observation in place.
    """
    if not is_array_tree(space):
        return _ShiftedRows(start, lambda index, value: write_to_shared_memory(space, index, value, memory))
    views = _slice_tree(read_from_shared_memory(space, memory, n), start, stop)
    if is_array(views):
        return views
    return RowSink(make_row_writer(space, views))


def make_observation_reader(space: _AnySpace, memory: SharedBlock, n: int) -> Callable[[], Value]:
    """Compile ``read()`` returning the batch in ``memory`` (parent side).

    Array-only spaces are viewed once and the same live views are returned every time; other spaces (Text, OneOf)
    are decoded on each call.

    Args:
        space: One sub-env's observation space.
        memory: The observation block.
        n: The number of sub-envs.

    Returns:
        The reader.
    """
    if is_array_tree(space):
        views = read_from_shared_memory(space, memory, n)
        return lambda: views
    return lambda: read_from_shared_memory(space, memory, n)


def make_action_loader(space: _AnySpace, memory: SharedBlock, n: int) -> Callable[[Value], bool]:
    """Compile ``load(actions) -> bool`` copying a batch of actions into the action block (parent side).

    A batch is loaded only when every leaf is a NumPy array with exactly the block's dtype and shape, so the
    sub-envs receive exactly the values (and scalar types) ``SyncVectorEnv`` would pass them; otherwise ``load``
    returns ``False`` and the caller sends the actions through the pipes instead.

    Args:
        space: One sub-env's action space (an array tree).
        memory: The action block.
        n: The number of sub-envs.

    Returns:
        The loader.
    """
    if type(space) in _ARRAY_SPACES:
        view = read_from_shared_memory(space, memory, n)
        dtype, shape = view.dtype, view.shape

        def load_array(actions: Value) -> bool:
            if type(actions) is not np.ndarray or actions.dtype != dtype or actions.shape != shape:
                return False
            view[...] = actions
            return True

        return load_array
    if is_tuple_space(space) and is_tuple(memory):
        parts = [make_action_loader(s, m, n) for s, m in zip(space.spaces, memory, strict=True)]

        def load_tuple(actions: Value) -> bool:
            if not is_tuple(actions) or len(actions) != len(parts):
                return False
            return all(load(item) for load, item in zip(parts, actions, strict=True))

        return load_tuple
    if is_dict_space(space) and is_dict(memory):
        keyed = [(key, make_action_loader(s, memory[key], n)) for key, s in space.spaces.items()]

        def load_dict(actions: Value) -> bool:
            if not isinstance(actions, Mapping):
                return False
            return all(key in actions and load(actions[key]) for key, load in keyed)

        return load_dict
    raise TypeError(f"make_action_loader space must be an array tree, got {space!r}")


def _action_reader(space: _AnySpace, memory: SharedBlock, n: int) -> Callable[[int], Value]:
    if type(space) in _ARRAY_SPACES:
        view = read_from_shared_memory(space, memory, n)
        if view.ndim == 1:
            read: Callable[[int], Value] = view.__getitem__
            return read
        return lambda index: view[index].copy()
    if is_tuple_space(space) and is_tuple(memory):
        parts = [_action_reader(s, m, n) for s, m in zip(space.spaces, memory, strict=True)]
        return lambda index: tuple(read(index) for read in parts)
    if is_dict_space(space) and is_dict(memory):
        keyed = [(key, _action_reader(s, memory[key], n)) for key, s in space.spaces.items()]
        return lambda index: {key: read(index) for key, read in keyed}
    raise TypeError(f"action_rows space must be an array tree, got {space!r}")


def action_rows(space: _AnySpace, memory: SharedBlock, n: int, start: int, stop: int) -> Actions:
    """The actions of sub-envs ``start:stop`` in the action block, indexed from 0 (worker side).

    ``actions[k]`` is what ``iterate`` would yield for sub-env ``start + k``: scalars come out as NumPy scalars of
    the block's dtype; array actions are copies, so a sub-env that keeps its action does not see it change at the
    next step.

    Args:
        space: One sub-env's action space (an array tree).
        memory: The action block.
        n: The number of sub-envs.
        start: The first sub-env of the slice.
        stop: One past its last sub-env.

    Returns:
        The readable rows.
    """
    if type(space) in _ARRAY_SPACES:
        view = read_from_shared_memory(space, memory, n)
        if view.ndim == 1:
            rows: NDArray[Any] = view[start:stop]
            return rows
    return _ShiftedActions(start, _action_reader(space, memory, n))
