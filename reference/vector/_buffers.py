"""The shared memory of an ``AsyncVectorEnv`` and the fast accessors both sides build on it once.

One block per field: observations (per ``create_shared_memory``), actions (when the action space is made of arrays
only), rewards (float64), terminations and truncations (bool). Workers write their slice of each block in place;
the parent reads whole batches. Accessors are compiled once per space into small closures so the per-step cost is
one NumPy item assignment per sub-env and field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from ctypes import c_bool
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from reference.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete, Space, Tuple
from reference.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

__all__ = [
    "RowSink",
    "SharedBuffers",
    "is_array_tree",
    "make_action_loader",
    "make_action_reader",
    "make_observation_reader",
    "make_observation_writer",
    "make_row_writer",
]

#: A ``multiprocessing`` context.
Context: TypeAlias = Any
#: What ``create_shared_memory``/``RawArray`` return (picklable while spawning workers).
SharedMemory: TypeAlias = Any
#: A batch or one element of a space.
Value: TypeAlias = Any
_AnySpace: TypeAlias = Space[Any]
_ARRAY_SPACES = (Box, Discrete, MultiDiscrete, MultiBinary)


def is_array_tree(space: _AnySpace) -> bool:
    """Tell whether every leaf of ``space`` (through Tuple and Dict) is a fixed-shape array space.

    Args:
        space: A single space.

    Returns:
        Whether batches of ``space`` are (nested) arrays that shared memory can hold and view directly.
    """
    if type(space) in _ARRAY_SPACES:
        return True
    if isinstance(space, Tuple):
        return all(is_array_tree(subspace) for subspace in space.spaces)
    if isinstance(space, Dict):
        return all(is_array_tree(subspace) for subspace in space.spaces.values())
    return False


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
    observations: SharedMemory | None
    actions: SharedMemory | None
    rewards: SharedMemory
    terminations: SharedMemory
    truncations: SharedMemory

    @classmethod
    def allocate(
        cls,
        ctx: Context,
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
        return cls(
            num_envs=num_envs,
            observations=create_shared_memory(observation_space, num_envs, ctx) if share_observations else None,
            actions=create_shared_memory(action_space, num_envs, ctx) if is_array_tree(action_space) else None,
            rewards=ctx.RawArray("d", num_envs),
            terminations=ctx.RawArray(c_bool, num_envs),
            truncations=ctx.RawArray(c_bool, num_envs),
        )

    def step_views(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Return NumPy views of the rewards, terminations and truncations blocks."""
        return (
            np.frombuffer(self.rewards, dtype=np.float64),
            np.frombuffer(self.terminations, dtype=np.bool_),
            np.frombuffer(self.truncations, dtype=np.bool_),
        )


def make_row_writer(space: _AnySpace, batch: Value) -> Callable[[int, Value], None]:
    """Compile ``write(index, element)`` storing one element into row ``index`` of a batch of an array tree.

    Args:
        space: The single space (an array tree, see :func:`is_array_tree`).
        batch: Its batch buffer: an array, or tuples/dicts of arrays (shared-memory views or ordinary arrays).

    Returns:
        The writer: one NumPy item assignment per leaf.

    Raises:
        TypeError: ``space`` is not an array tree.
    """
    if type(space) in _ARRAY_SPACES:
        return batch.__setitem__  # type: ignore[no-any-return]
    if isinstance(space, Tuple):
        parts = [make_row_writer(s, b) for s, b in zip(space.spaces, batch, strict=True)]

        def write_tuple(index: int, value: Value) -> None:
            for write, item in zip(parts, value, strict=True):
                write(index, item)

        return write_tuple
    if isinstance(space, Dict):
        keyed = [(key, make_row_writer(s, batch[key])) for key, s in space.spaces.items()]

        def write_dict(index: int, value: Value) -> None:
            for key, write in keyed:
                write(index, value[key])

        return write_dict
    raise TypeError(f"make_row_writer space must be an array tree, got {space!r}")


class RowSink:
    """``sink[index] = element`` writes an element into its row of a batch (see :func:`make_row_writer`).

    Args:
        write: The compiled row writer.
    """

    __slots__ = ("_write",)

    def __init__(self, write: Callable[[int, Value], None]) -> None:
        self._write = write

    def __setitem__(self, index: int, value: Value) -> None:
        self._write(index, value)


def make_observation_writer(space: _AnySpace, memory: SharedMemory, n: int) -> Callable[[int, Value], None]:
    """Compile ``write(index, observation)`` for one sub-env's observation (worker side).

    Args:
        space: One sub-env's observation space.
        memory: The observation block.
        n: The number of sub-envs.

    Returns:
        The writer.
    """
    if is_array_tree(space):
        return make_row_writer(space, read_from_shared_memory(space, memory, n))

    def write_other(index: int, value: Value) -> None:
        write_to_shared_memory(space, index, value, memory)

    return write_other


def make_observation_reader(space: _AnySpace, memory: SharedMemory, n: int) -> Callable[[], Value]:
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


def make_action_loader(space: _AnySpace, memory: SharedMemory, n: int) -> Callable[[Value], bool]:
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
    if isinstance(space, Tuple):
        parts = [make_action_loader(s, m, n) for s, m in zip(space.spaces, memory, strict=True)]

        def load_tuple(actions: Value) -> bool:
            if not isinstance(actions, tuple) or len(actions) != len(parts):
                return False
            return all(load(item) for load, item in zip(parts, actions, strict=True))

        return load_tuple
    if isinstance(space, Dict):
        keyed = [(key, make_action_loader(s, memory[key], n)) for key, s in space.spaces.items()]

        def load_dict(actions: Value) -> bool:
            if not isinstance(actions, Mapping):
                return False
            return all(key in actions and load(actions[key]) for key, load in keyed)

        return load_dict
    raise TypeError(f"make_action_loader space must be an array tree, got {space!r}")


def make_action_reader(space: _AnySpace, memory: SharedMemory, n: int) -> Callable[[int], Value]:
    """Compile ``read(index)`` returning sub-env ``index``'s action as ``iterate`` would yield it (worker side).

    Scalars come out as NumPy scalars of the block's dtype; array actions are copies, so a sub-env that keeps its
    action does not see it change at the next step.

    Args:
        space: One sub-env's action space (an array tree).
        memory: The action block.
        n: The number of sub-envs.

    Returns:
        The reader.
    """
    if type(space) in _ARRAY_SPACES:
        view = read_from_shared_memory(space, memory, n)
        if view.ndim == 1:
            return view.__getitem__  # type: ignore[no-any-return]
        return lambda index: view[index].copy()
    if isinstance(space, Tuple):
        parts = [make_action_reader(s, m, n) for s, m in zip(space.spaces, memory, strict=True)]
        return lambda index: tuple(read(index) for read in parts)
    if isinstance(space, Dict):
        keyed = [(key, make_action_reader(s, memory[key], n)) for key, s in space.spaces.items()]
        return lambda index: {key: read(index) for key, read in keyed}
    raise TypeError(f"make_action_reader space must be an array tree, got {space!r}")
