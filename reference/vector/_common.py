"""What ``SyncVectorEnv`` and ``AsyncVectorEnv`` share: argument handling, so both accept and reject the same inputs,
and the writers that put one sub-env's observation into its row of a batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from typing import Any, TypeAlias, TypeVar, cast

import numpy as np

from gymspec import AutoresetMode, autoreset_mode_of
from reference._narrowing import is_array, is_integer, is_sequence, is_tuple
from reference.core import Env
from reference.error import ResetNeeded
from reference.spaces import Box, Discrete, MultiBinary, MultiDiscrete, Space
from reference.spaces._guards import is_dict_space, is_space, is_tuple_space
from reference.spaces.utils import is_space_dtype_shape_equiv
from reference.utils._format import describe
from reference.vector.utils import batch_differing_spaces, batch_space

__all__ = [
    "ObservationMode",
    "RowSink",
    "SubEnv",
    "check_sub_env_spaces",
    "copy_batch",
    "factory_sequence",
    "finished_error",
    "is_array_tree",
    "make_row_writer",
    "require_sub_env",
    "resolve_autoreset_mode",
    "resolve_observation_spaces",
    "resolve_seeds",
]

#: A batch of observations (an array, or tuples/dicts of batches) or one sub-env's element of it.
Batch: TypeAlias = Any
_BatchT = TypeVar("_BatchT")
#: A sub-environment: anything with the ``Env`` methods and attributes (reference or Gymnasium envs alike).
SubEnv: TypeAlias = Env[Any, Any]
#: ``"same"``, ``"different"`` or a ``(batched_space, single_space)`` pair.
ObservationMode: TypeAlias = "str | tuple[Space[Any], Space[Any]]"
_MODE_VALUES = [mode.value for mode in AutoresetMode]
# What the vector envs read from a sub-env (metadata and render_mode as Env declares them at class level).
_SUB_ENV_MEMBERS = ("reset", "step", "close", "observation_space", "action_space", "metadata", "render_mode")
_ARRAY_SPACES = (Box, Discrete, MultiDiscrete, MultiBinary)


def factory_sequence(owner: str, env_fns: object) -> Sequence[Callable[[], SubEnv]]:
    """``env_fns`` as a sequence of callables (any other iterable is made into a list).

    Args:
        owner: The class name for error messages.
        env_fns: The environment factories.

    Returns:
        The factories (``env_fns`` itself when it is a sequence).

    Raises:
        TypeError: ``env_fns`` is not an iterable of callables.
    """
    if isinstance(env_fns, (str, bytes)) or not hasattr(env_fns, "__iter__"):
        raise TypeError(f"{owner} env_fns must be an iterable of environment factories, got {describe(env_fns)}")
    factories: Sequence[object] = env_fns if is_sequence(env_fns) else list(cast("Iterable[object]", env_fns))
    for index, factory in enumerate(factories):
        if not callable(factory):
            raise TypeError(f"{owner} env_fns must hold callables, got {describe(factory)} at index {index}")
    return cast("Sequence[Callable[[], SubEnv]]", factories)


def require_sub_env(owner: str, env: object, index: int) -> SubEnv:
    """Check what ``env_fns[index]()`` returned before anything reads (or closes) it.

    Args:
        owner: The class name for error messages.
        env: The factory's result.
        index: The factory's position in ``env_fns``.

    Returns:
        ``env``.

    Raises:
        TypeError: ``env`` lacks a member of an environment.
    """
    missing = [member for member in _SUB_ENV_MEMBERS if not hasattr(env, member)]
    if missing:
        raise TypeError(
            f"{owner} env_fns[{index}] must return an environment (with {', '.join(_SUB_ENV_MEMBERS)}), "
            f"got {describe(env)} missing {', '.join(missing)}"
        )
    return cast(SubEnv, env)


def resolve_autoreset_mode(owner: str, value: object) -> AutoresetMode:
    """Accept an :class:`AutoresetMode`, its string value, or another library's enum with the same values.

    Args:
        owner: The class name for error messages.
        value: The ``autoreset_mode`` argument.

    Returns:
        The mode.

    Raises:
        ValueError: ``value`` names no mode.
    """
    if isinstance(value, AutoresetMode):
        return value
    mode = autoreset_mode_of(value)
    if mode is None:
        raise ValueError(f"{owner} autoreset_mode must be an AutoresetMode or one of {_MODE_VALUES}, got {value!r}")
    return mode


def resolve_seeds(owner: str, seed: object, num_envs: int) -> list[int | None]:
    """Expand a vector ``reset`` seed into one seed per sub-environment.

    Args:
        owner: The class name for error messages.
        seed: ``None``; an int ``s`` (sub-env ``i`` gets ``s + i``); or a list of ``num_envs`` ints/``None``.
        num_envs: The number of sub-environments.

    Returns:
        One seed (or ``None``) per sub-environment.

    Raises:
        TypeError: ``seed`` is of another type.
        ValueError: A list of seeds does not have ``num_envs`` entries.
    """
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, int) or is_integer(seed):
        first = int(seed)
        return [first + i for i in range(num_envs)]
    seeds: object = seed.tolist() if is_array(seed) and seed.ndim == 1 else seed
    if is_sequence(seeds) and not isinstance(seeds, (str, bytes)):
        if len(seeds) != num_envs:
            raise ValueError(
                f"{owner} seed must have num_envs={num_envs} entries when a list, got {len(seeds)}: {seeds!r}"
            )
        return [int(s) if is_integer(s) else s for s in seeds]
    raise TypeError(f"{owner} seed must be None, an int or a list of num_envs ints/None, got {describe(seed)}")


def resolve_observation_spaces(
    owner: str,
    observation_mode: object,
    first_space: Space[Any],
    all_spaces: Callable[[], list[Space[Any]]],
    num_envs: int,
) -> tuple[Space[Any], Space[Any]]:
    """Work out ``(single_observation_space, observation_space)`` from ``observation_mode``.

    Args:
        owner: The class name for error messages.
        observation_mode: ``"same"``, ``"different"`` or ``(batched_space, single_space)``.
        first_space: Sub-env 0's observation space.
        all_spaces: Returns every sub-env's observation space (only called for ``"different"``).
        num_envs: The number of sub-environments.

    Returns:
        The single and batched observation spaces.

    Raises:
        TypeError: A pair whose entries are not spaces.
        ValueError: Any other mode.
    """
    if is_tuple(observation_mode) and len(observation_mode) == 2:
        batched, single = observation_mode
        if not is_space(batched) or not is_space(single):
            raise TypeError(
                f"{owner} observation_mode must hold two spaces (batched, single) when a tuple, "
                f"got {type(batched).__name__} and {type(single).__name__}"
            )
        return single, batched
    if isinstance(observation_mode, str) and observation_mode == "same":
        return first_space, batch_space(first_space, num_envs)
    if isinstance(observation_mode, str) and observation_mode == "different":
        return first_space, batch_differing_spaces(all_spaces())
    raise ValueError(
        f"{owner} observation_mode must be 'same', 'different' or a (batched_space, single_space) tuple, "
        f"got {observation_mode!r}"
    )


def check_sub_env_spaces(
    owner: str,
    index: int,
    observation_mode: object,
    single_observation_space: Space[Any],
    single_action_space: Space[Any],
    observation_space: object,
    action_space: object,
) -> None:
    """Check one sub-env's spaces against the vector environment's single spaces.

    Args:
        owner: The class name for error messages.
        index: The sub-env's index.
        observation_mode: The vector environment's observation mode.
        single_observation_space: The expected observation space.
        single_action_space: The expected action space.
        observation_space: The sub-env's observation space.
        action_space: The sub-env's action space.

    Raises:
        RuntimeError: A space does not match (equal for ``"same"``, same shape and dtype otherwise).
    """
    if observation_mode == "same":
        if observation_space != single_observation_space:
            raise RuntimeError(
                f"{owner} sub-env {index} observation_space must equal single_observation_space "
                f"{single_observation_space} with observation_mode='same', got {observation_space}; "
                "use observation_mode='different' if the spaces differ on purpose"
            )
    elif not isinstance(observation_space, Space) or not is_space_dtype_shape_equiv(
        observation_space, single_observation_space
    ):
        raise RuntimeError(
            f"{owner} sub-env {index} observation_space must share the shape and dtype of "
            f"{single_observation_space}, got {observation_space}"
        )
    if action_space != single_action_space:
        raise RuntimeError(
            f"{owner} sub-env {index} action_space must equal single_action_space {single_action_space}, "
            f"got {action_space}"
        )


def copy_batch(batch: _BatchT) -> _BatchT:
    """Copy a batch of observations so later steps cannot change it (one array copy per leaf).

    Args:
        batch: An array, a tuple/dict of batches, or any other value.

    Returns:
        The copy.
    """
    value: Batch = batch
    kind = type(cast(object, value))
    if kind is np.ndarray:
        value = value.copy() if value.dtype != object else deepcopy(value)
    elif kind is tuple:
        value = tuple(copy_batch(item) for item in value)
    elif kind is dict:
        value = {key: copy_batch(item) for key, item in value.items()}
    else:
        value = deepcopy(value)
    return cast("_BatchT", value)


def finished_error(owner: str, finished: Sequence[int]) -> Exception:
    """The error for stepping ended sub-envs under ``autoreset_mode=Disabled``.

    Args:
        owner: The class name.
        finished: The indices of sub-envs whose episode ended and that were not reset.

    Returns:
        The exception to raise.
    """
    return ResetNeeded(
        f"{owner} step must not step ended sub-envs under autoreset_mode=Disabled, got ended sub-envs "
        f"{list(finished)}; reset them first with reset(options={{'reset_mask': mask}})"
    )


def is_array_tree(space: Space[Any]) -> bool:
    """Tell whether every leaf of ``space`` (through Tuple and Dict) is a fixed-shape array space.

    Args:
        space: A single space.

    Returns:
        Whether batches of ``space`` are (nested) arrays whose rows can be written in place.
    """
    if type(space) in _ARRAY_SPACES:
        return True
    if is_tuple_space(space):
        return all(is_array_tree(subspace) for subspace in space.spaces)
    if is_dict_space(space):
        return all(is_array_tree(subspace) for subspace in space.spaces.values())
    return False


def make_row_writer(space: Space[Any], batch: Batch) -> Callable[[int, Batch], None]:
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
        write: Callable[[int, Batch], None] = batch.__setitem__
        return write
    if is_tuple_space(space):
        parts = [make_row_writer(s, b) for s, b in zip(space.spaces, batch, strict=True)]

        def write_tuple(index: int, value: Batch) -> None:
            for write_part, item in zip(parts, value, strict=True):
                write_part(index, item)

        return write_tuple
    if is_dict_space(space):
        keyed = [(key, make_row_writer(s, batch[key])) for key, s in space.spaces.items()]

        def write_dict(index: int, value: Batch) -> None:
            for key, write_part in keyed:
                write_part(index, value[key])

        return write_dict
    raise TypeError(f"make_row_writer space must be an array tree, got {space!r}")


class RowSink:
    """``sink[index] = element`` writes an element into its row of a batch (see :func:`make_row_writer`).

    Args:
        write: The compiled row writer.
    """

    __slots__ = ("_write",)

    def __init__(self, write: Callable[[int, Batch], None]) -> None:
        self._write = write

    def __setitem__(self, index: int, value: Batch) -> None:
        self._write(index, value)
