"""Observation buffers in shared memory, so worker processes write observations where the parent reads them.

:func:`create_shared_memory` allocates one ``multiprocessing`` array per array leaf of a space (Tuple/Dict nest,
Text stores character indices, OneOf stores the chosen index plus one buffer per alternative);
:func:`read_from_shared_memory` returns NumPy arrays that *view* that memory (or, for Text and OneOf, decodes it);
:func:`write_to_shared_memory` writes one sub-environment's element in place. Spaces without a fixed shape
(Sequence, Graph) cannot live in static buffers; user-defined spaces raise ``CustomSpaceError`` unless they
register implementations.

The arrays come from ``ctx.Array``: anonymous memory that is released when its last reference (in every process)
goes away, so nothing is left behind in ``/dev/shm``.
"""

from __future__ import annotations

import multiprocessing
from array import typecodes
from collections.abc import Mapping
from ctypes import c_bool, c_uint8
from functools import singledispatch
from typing import Any, NoReturn, Protocol, TypeAlias

import numpy as np

from reference.error import CustomSpaceError
from reference.spaces import (
    Box,
    Dict,
    Discrete,
    Graph,
    MultiBinary,
    MultiDiscrete,
    OneOf,
    Sequence,
    Space,
    Text,
    Tuple,
    flatten,
)
from reference.spaces._guards import is_dict_space, is_space, is_tuple_space
from reference.vector.utils._errors import not_a_space

__all__ = ["create_shared_memory", "read_from_shared_memory", "write_to_shared_memory"]

#: A (nested) structure of ``multiprocessing`` arrays mirroring the space.
SharedMemory: TypeAlias = Any
#: One sub-environment's element.
Element: TypeAlias = Any
#: The batched view of the shared memory.
Batch: TypeAlias = Any
_AnySpace: TypeAlias = Space[Any]
_TypeCode: TypeAlias = "str | type[c_bool | c_uint8]"  # an array typecode, or the ctypes types used here


class Context(Protocol):
    """A ``multiprocessing`` context, the ``multiprocessing`` module itself, or anything else with ``Array``."""

    def Array(self, typecode_or_type: _TypeCode, size_or_initializer: int, /) -> SharedMemory: ...  # multiprocessing.Array
_ArraySpace: TypeAlias = "Box[Any] | Discrete[Any] | MultiDiscrete[Any] | MultiBinary"


def _buffer(shared: SharedMemory) -> Any:
    # Synchronized arrays wrap the raw ctypes array; raw arrays are the buffer themselves.
    get_obj = getattr(shared, "get_obj", None)
    return shared if get_obj is None else get_obj()


def _no_implementation(function: str, space: object) -> Exception:
    if is_space(space):
        return CustomSpaceError(
            f"{function} space must have a registered {function} implementation, got {type(space).__name__}; "
            "register one, or pass shared_memory=False to AsyncVectorEnv"
        )
    return not_a_space(function, space)


# --- create -----------------------------------------------------------------------------------------------------


@singledispatch
def create_shared_memory(space: _AnySpace, n: int = 1, ctx: Context = multiprocessing) -> SharedMemory:
    """Allocate shared memory holding ``n`` elements of ``space``.

    Args:
        space: The single (sub-environment) space.
        n: The number of elements (sub-environments).
        ctx: A ``multiprocessing`` context (or the module); workers must be started from the same context.

    Returns:
        A ``ctx.Array`` per array leaf, nested in tuples/dicts like the space.

    Raises:
        CustomSpaceError: ``space`` is a user-defined space with no registered implementation.
        TypeError: ``space`` is not a space, or has no fixed shape (Sequence, Graph).
    """
    raise _no_implementation("create_shared_memory", space)


@create_shared_memory.register(Box)
@create_shared_memory.register(Discrete)
@create_shared_memory.register(MultiDiscrete)
@create_shared_memory.register(MultiBinary)
def _create_array(space: _ArraySpace, n: int = 1, ctx: Context = multiprocessing) -> SharedMemory:
    size = n * int(np.prod(space.shape))
    code = space.dtype.char
    if code == "?":
        return ctx.Array(c_bool, size)
    if code in typecodes:
        return ctx.Array(code, size)
    # No ctypes equivalent (float16, complex): allocate raw bytes, which the readers reinterpret with the dtype.
    return ctx.Array(c_uint8, size * space.dtype.itemsize)


@create_shared_memory.register(Tuple)
def _create_tuple(space: Tuple[Any], n: int = 1, ctx: Context = multiprocessing) -> tuple[SharedMemory, ...]:
    return tuple(create_shared_memory(subspace, n, ctx) for subspace in space.spaces)


@create_shared_memory.register(Dict)
def _create_dict(space: Dict[Any], n: int = 1, ctx: Context = multiprocessing) -> dict[str, SharedMemory]:
    return {key: create_shared_memory(subspace, n, ctx) for key, subspace in space.spaces.items()}


@create_shared_memory.register(Text)
def _create_text(space: Text, n: int = 1, ctx: Context = multiprocessing) -> SharedMemory:
    return ctx.Array(np.dtype(np.int32).char, n * space.max_length)


@create_shared_memory.register(OneOf)
def _create_oneof(space: OneOf[Any], n: int = 1, ctx: Context = multiprocessing) -> tuple[SharedMemory, ...]:
    chosen = ctx.Array(np.dtype(np.int64).char, n)
    return (chosen, *(create_shared_memory(subspace, n, ctx) for subspace in space.spaces))


@create_shared_memory.register(Graph)
@create_shared_memory.register(Sequence)
def _create_dynamic(space: _AnySpace, n: int = 1, ctx: Context = multiprocessing) -> NoReturn:
    raise TypeError(
        f"create_shared_memory space must have a fixed shape, got {space!r} (its elements vary in size); "
        "pass shared_memory=False to AsyncVectorEnv"
    )


# --- read -------------------------------------------------------------------------------------------------------


@singledispatch
def read_from_shared_memory(space: _AnySpace, shared_memory: SharedMemory, n: int = 1) -> Batch:
    """Return the batch of ``n`` elements stored in ``shared_memory``.

    Array leaves are NumPy arrays that view the shared memory: later writes (by any process) show through them,
    and writes to them go to the shared memory. Copy them to keep a snapshot. Text and OneOf elements are decoded
    into new objects on every call.

    Args:
        space: The single space the memory was created for.
        shared_memory: What :func:`create_shared_memory` returned.
        n: The number of elements it holds.

    Returns:
        The batch, shaped like :func:`~reference.vector.utils.create_empty_array`'s output.

    Raises:
        CustomSpaceError: ``space`` is a user-defined space with no registered implementation.
        TypeError: ``space`` is not a space.
    """
    raise _no_implementation("read_from_shared_memory", space)


@read_from_shared_memory.register(Box)
@read_from_shared_memory.register(Discrete)
@read_from_shared_memory.register(MultiDiscrete)
@read_from_shared_memory.register(MultiBinary)
def _read_array(space: _ArraySpace, shared_memory: SharedMemory, n: int = 1) -> Batch:
    return np.frombuffer(_buffer(shared_memory), dtype=space.dtype).reshape((n, *space.shape))


@read_from_shared_memory.register(Tuple)
def _read_tuple(space: Tuple[Any], shared_memory: SharedMemory, n: int = 1) -> tuple[Any, ...]:
    return tuple(
        read_from_shared_memory(subspace, memory, n)
        for memory, subspace in zip(shared_memory, space.spaces, strict=True)
    )


@read_from_shared_memory.register(Dict)
def _read_dict(space: Dict[Any], shared_memory: SharedMemory, n: int = 1) -> dict[str, Any]:
    return {key: read_from_shared_memory(subspace, shared_memory[key], n) for key, subspace in space.spaces.items()}


@read_from_shared_memory.register(Text)
def _read_text(space: Text, shared_memory: SharedMemory, n: int = 1) -> tuple[str, ...]:
    codes = np.frombuffer(_buffer(shared_memory), dtype=np.int32).reshape((n, space.max_length))
    characters = space.character_list
    # Indices >= len(charset) are the padding flatten() writes after the end of the string.
    return tuple("".join(characters[int(code)] for code in row if code < len(characters)) for row in codes)


def _element(space: _AnySpace, batch: Batch, index: int) -> Element:
    """Pick element ``index`` out of a batch read from shared memory."""
    if is_tuple_space(space):
        return tuple(_element(subspace, part, index) for subspace, part in zip(space.spaces, batch, strict=True))
    if is_dict_space(space):
        return {key: _element(subspace, batch[key], index) for key, subspace in space.spaces.items()}
    return batch[index]


@read_from_shared_memory.register(OneOf)
def _read_oneof(space: OneOf[Any], shared_memory: SharedMemory, n: int = 1) -> tuple[tuple[Any, Any], ...]:
    chosen = np.frombuffer(_buffer(shared_memory[0]), dtype=np.int64)
    alternatives = [
        read_from_shared_memory(subspace, memory, n)
        for memory, subspace in zip(shared_memory[1:], space.spaces, strict=True)
    ]
    # Unlike Gymnasium, Tuple and Dict alternatives work too: their batches are indexed component-wise.
    return tuple(
        (index, _element(space.spaces[int(index)], alternatives[int(index)], i)) for i, index in enumerate(chosen)
    )


# --- write ------------------------------------------------------------------------------------------------------


@singledispatch
def write_to_shared_memory(space: _AnySpace, index: int, value: Element, shared_memory: SharedMemory) -> None:
    """Write one sub-environment's element into shared memory.

    Args:
        space: The single space.
        index: The sub-environment's index, in ``[0, n)``.
        value: The element (an observation).
        shared_memory: What :func:`create_shared_memory` returned.

    Raises:
        CustomSpaceError: ``space`` is a user-defined space with no registered implementation.
        TypeError: ``space`` is not a space.
    """
    raise _no_implementation("write_to_shared_memory", space)


@write_to_shared_memory.register(Box)
@write_to_shared_memory.register(Discrete)
@write_to_shared_memory.register(MultiDiscrete)
@write_to_shared_memory.register(MultiBinary)
def _write_array(space: _ArraySpace, index: int, value: Element, shared_memory: SharedMemory) -> None:
    size = int(np.prod(space.shape))
    destination = np.frombuffer(_buffer(shared_memory), dtype=space.dtype)
    np.copyto(destination[index * size : (index + 1) * size], np.asarray(value, dtype=space.dtype).reshape(-1))


@write_to_shared_memory.register(Tuple)
def _write_tuple(space: Tuple[Any], index: int, value: Element, shared_memory: SharedMemory) -> None:
    for item, memory, subspace in zip(value, shared_memory, space.spaces, strict=True):
        write_to_shared_memory(subspace, index, item, memory)


@write_to_shared_memory.register(Dict)
def _write_dict(space: Dict[Any], index: int, value: Mapping[str, Any], shared_memory: SharedMemory) -> None:
    for key, subspace in space.spaces.items():
        write_to_shared_memory(subspace, index, value[key], shared_memory[key])


@write_to_shared_memory.register(Text)
def _write_text(space: Text, index: int, value: str, shared_memory: SharedMemory) -> None:
    size = space.max_length
    destination = np.frombuffer(_buffer(shared_memory), dtype=np.int32)
    flat: Any = flatten(space, value)
    np.copyto(destination[index * size : (index + 1) * size], flat)


@write_to_shared_memory.register(OneOf)
def _write_oneof(space: OneOf[Any], index: int, value: tuple[int, Any], shared_memory: SharedMemory) -> None:
    chosen, element = value
    np.frombuffer(_buffer(shared_memory[0]), dtype=np.int64)[index] = chosen
    # Only the chosen alternative's buffer is written: the others keep stale data that the reader ignores.
    write_to_shared_memory(space.spaces[int(chosen)], index, element, shared_memory[1 + int(chosen)])
