"""Helpers shared by the vector wrappers: the declared autoreset mode, argument checks, single-space handling."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from gymspec import autoreset_mode_of
from reference import logger
from reference.core import Env
from reference.spaces import Box, Dict, Discrete, Space, Tuple
from reference.spaces._guards import is_box, is_dict_space, is_multi_discrete, is_tuple_space
from reference.vector.utils import batch_space, split_reset_mask
from reference.vector.vector_env import AutoresetMode, VectorEnv

__all__ = [
    "SingleEnv",
    "check_callable",
    "check_optional_spaces",
    "check_single_wrapper",
    "declared_autoreset_mode",
    "reset_mask",
    "resolve_spaces",
]

_AnyVectorEnv: TypeAlias = "VectorEnv[Any, Any, Any]"
_AnySpace: TypeAlias = "Space[Any]"
_Options: TypeAlias = dict[str, Any]
_MODE_VALUES = [mode.value for mode in AutoresetMode]


def declared_autoreset_mode(owner: str, env: _AnyVectorEnv, *, warn: bool = True) -> AutoresetMode:
    """Read ``env.metadata["autoreset_mode"]``; a missing key means ``NextStep`` (with a warning, like Gymnasium).

    Args:
        owner: The wrapper's class name, for messages.
        env: The wrapped vector environment.
        warn: Warn when the key is missing (off when a base class has already warned).

    Returns:
        The declared mode.

    Raises:
        TypeError: The value is neither an autoreset-mode enum nor a string.
        ValueError: The value names no mode.
    """
    if "autoreset_mode" not in env.metadata:
        if warn:
            logger.warn(
                f"{owner}: {env} declares no metadata['autoreset_mode']; assuming AutoresetMode.NEXT_STEP "
                "(see https://farama.org/Vector-Autoreset-Mode)"
            )
        return AutoresetMode.NEXT_STEP
    value = env.metadata["autoreset_mode"]
    mode = autoreset_mode_of(value)
    if mode is None:
        if not isinstance(getattr(value, "value", value), str):
            raise TypeError(
                f"{owner} env.metadata['autoreset_mode'] must be an AutoresetMode or one of {_MODE_VALUES}, "
                f"got {value!r} of type {type(value).__name__}"
            )
        raise ValueError(f"{owner} env.metadata['autoreset_mode'] must be one of {_MODE_VALUES}, got {value!r}")
    return mode


def reset_mask(owner: str, options: _Options | None, num_envs: int) -> NDArray[np.bool_] | None:
    """The validated ``options["reset_mask"]`` (a copy), or ``None`` for a full reset.

    Read before the inner ``reset`` so a vector environment that consumes the key cannot hide it.

    Args:
        owner: The wrapper's class name, for messages.
        options: The caller's reset options (not modified).
        num_envs: The number of sub-environments.

    Returns:
        The mask or ``None``.

    Raises:
        TypeError: The mask is not a bool NumPy array.
        ValueError: The mask has the wrong shape or selects nothing.
    """
    mask, _ = split_reset_mask(owner, options, num_envs)
    return mask


def check_callable(owner: str, name: str, value: object) -> None:
    """Raise ``TypeError`` unless ``value`` is callable."""
    if not callable(value):
        raise TypeError(f"{owner} {name} must be callable, got {value!r}")


def check_optional_spaces(owner: str, kind: str, batched: object, single: object) -> None:
    """Raise ``TypeError`` unless the ``{kind}_space`` and ``single_{kind}_space`` arguments are spaces or ``None``."""
    for name, value in ((f"{kind}_space", batched), (f"single_{kind}_space", single)):
        if value is not None and not isinstance(value, Space):
            raise TypeError(f"{owner} {name} must be a Space or None, got {value!r} of type {type(value).__name__}")


def check_single_wrapper(owner: str, wrapper: object, base: type) -> None:
    """Raise ``TypeError`` unless ``wrapper`` is a class derived from the single-env hook wrapper ``base``."""
    if not (isinstance(wrapper, type) and issubclass(wrapper, base)):
        raise TypeError(f"{owner} wrapper must be a single-env {base.__name__} class, got {wrapper!r}")


class SingleEnv(Env[Any, Any]):
    """A stand-in single environment that only carries spaces, so single-env wrappers can compute theirs.

    Args:
        observation_space: One sub-environment's observation space.
        action_space: One sub-environment's action space.
    """

    def __init__(self, observation_space: _AnySpace, action_space: _AnySpace) -> None:
        self.observation_space = observation_space
        self.action_space = action_space

    @classmethod
    def of(cls, env: _AnyVectorEnv) -> SingleEnv:
        """The stand-in for one sub-environment of ``env`` (its single spaces).

        Args:
            env: The vector environment.

        Returns:
            A new stand-in.
        """
        return cls(env.single_observation_space, env.single_action_space)


def _unbatch(space: _AnySpace, n: int) -> _AnySpace | None:
    # Only the unambiguous inverses of batch_space; anything else is left to the caller.
    if is_box(space):
        if not space.shape or space.shape[0] != n:
            return None
        low, high = space.low, space.high
        if not (np.all(low == low[0]) and np.all(high == high[0])):
            return None
        return Box(low=low[0], high=high[0], shape=space.shape[1:], dtype=space.dtype)
    if is_multi_discrete(space):
        nvec, start = space.nvec, space.start
        if nvec.shape != (n,) or not (np.all(nvec == nvec[0]) and np.all(start == start[0])):
            return None
        return Discrete(int(nvec[0]), start=int(start[0]))
    if is_dict_space(space):
        children = {key: _unbatch(sub, n) for key, sub in space.spaces.items()}
        if any(child is None for child in children.values()):
            return None
        return Dict({key: child for key, child in children.items() if child is not None})
    if is_tuple_space(space):
        items = [_unbatch(sub, n) for sub in space.spaces]
        if any(item is None for item in items):
            return None
        return Tuple(tuple(item for item in items if item is not None))
    return None


def resolve_spaces(
    owner: str,
    env: _AnyVectorEnv,
    kind: str,
    batched: _AnySpace | None,
    single: _AnySpace | None,
) -> tuple[_AnySpace, _AnySpace]:
    """Work out a wrapper's ``(batched, single)`` spaces from the optional ones a user gave.

    A single space alone is batched. A batched space alone is un-batched when it is an unambiguous batch (a
    Box/MultiDiscrete with a leading ``num_envs`` axis and equal rows, or a Dict/Tuple of those); otherwise the
    inner single space is kept, as in Gymnasium. A warning is emitted when the two do not correspond.

    Args:
        owner: The wrapper's class name, for messages.
        env: The wrapped vector environment.
        kind: ``"observation"`` or ``"action"``.
        batched: The batched space given, or ``None``.
        single: The single space given, or ``None``.

    Returns:
        ``(batched_space, single_space)``.
    """
    n = env.num_envs
    inner_batched: _AnySpace = getattr(env, f"{kind}_space")
    inner_single: _AnySpace = getattr(env, f"single_{kind}_space")
    if batched is None:
        if single is None:
            return inner_batched, inner_single
        return batch_space(single, n), single
    if single is None:
        derived = _unbatch(batched, n)
        if derived is not None and batch_space(derived, n) == batched:
            single = derived
    resolved_single = inner_single if single is None else single
    expected = batch_space(resolved_single, n)
    if batched != expected:
        logger.warn(
            f"{owner} {kind}_space should equal the batched single_{kind}_space {expected} of {env}, got "
            f"{batched}; pass single_{kind}_space too"
        )
    return batched, resolved_single
