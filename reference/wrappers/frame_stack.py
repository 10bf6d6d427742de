"""The :class:`FrameStackObservation` wrapper (re-exported by ``stateful_observation``)."""

from __future__ import annotations

import importlib
from collections import deque
from copy import deepcopy
from typing import Any, SupportsFloat, TypeAlias, cast

import numpy as np

import gymspec
from reference.core import ActType, ObsType, Wrapper
from reference.spaces._guards import is_box
from reference.spaces.box import Box
from reference.spaces.space import Space
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import is_int
from reference.wrappers.utils import create_zero_array, space_kind

__all__ = ["FrameStackObservation"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Value: TypeAlias = Any


class _Stacker:
    """Stacks observations of one space along a new first axis: a direct path for Box, the vector utils otherwise."""

    def __init__(self, space: Space[Any], n: int) -> None:
        self.space = space
        if is_box(space):
            self.stacked_space: Space[Any] = Box(
                low=np.repeat(space.low[np.newaxis], n, axis=0),
                high=np.repeat(space.high[np.newaxis], n, axis=0),
                dtype=space.dtype,
            )
            self._utils = None
            self._buffer: _Value = None
        else:
            self._utils = importlib.import_module("reference.vector.utils")
            self.stacked_space = self._utils.batch_space(space, n=n)
            self._buffer = self._utils.create_empty_array(space, n=n)

    def stack(self, items: deque[_Value]) -> _Value:
        if self._utils is None:
            return np.stack(list(items))
        return deepcopy(self._utils.concatenate(self.space, items, self._buffer))


class FrameStackObservation(Wrapper[_Value, ActType, ObsType, ActType], RecordConstructorArgs):
    """Return the last ``stack_size`` observations stacked along a new first axis.

    After ``reset`` the stack is padded with the reset observation (``padding_type="reset"``), the space's zero
    element (``"zero"``) or a given observation.

    Args:
        env: The environment to wrap.
        stack_size: How many observations to stack; a positive int.
        padding_type: ``"reset"``, ``"zero"`` or an element of the observation space.

    Raises:
        TypeError: If ``stack_size`` is not an int.
        ValueError: If ``stack_size`` is not positive or ``padding_type`` is not valid.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = FrameStackObservation(CartPoleEnv(), stack_size=3, padding_type="zero")
        >>> obs, _ = env.reset(seed=0)
        >>> obs.shape, obs[0].tolist()
        ((3, 4), [0.0, 0.0, 0.0, 0.0])
    """

    def __init__(
        self, env: gymspec.Env[ObsType, ActType], stack_size: int, *, padding_type: str | ObsType = "reset"
    ) -> None:
        RecordConstructorArgs.__init__(self, stack_size=stack_size, padding_type=padding_type)
        Wrapper.__init__(self, env)
        if not is_int(stack_size):
            raise TypeError(f"FrameStackObservation stack_size must be an int, got {stack_size!r}")
        if stack_size <= 0:
            raise ValueError(f"FrameStackObservation stack_size must be positive, got {stack_size!r}")
        inner = cast("Space[ObsType]", env.observation_space)  # create_zero_array rejects a foreign space
        if isinstance(padding_type, str) and padding_type in ("reset", "zero"):
            self.padding_value: _Value = create_zero_array(inner)
            mode = padding_type
        elif (not isinstance(padding_type, str) or space_kind(inner) == "Text") and padding_type in inner:
            self.padding_value = padding_type
            mode = "_custom"
        else:
            raise ValueError(
                "FrameStackObservation padding_type must be 'reset', 'zero' or an element of the observation space "
                f"{inner!r}, got {padding_type!r}"
            )
        try:
            self._stacker = _Stacker(inner, int(stack_size))
            self.obs_queue: deque[_Value] = deque([self.padding_value] * int(stack_size), maxlen=int(stack_size))
        except (MemoryError, OverflowError, ValueError):  # ValueError: NumPy's "maximum supported dimension"
            raise ValueError(
                f"FrameStackObservation stack_size must leave the stacked observations room in memory, got {stack_size!r}"
            ) from None
        self.observation_space = self._stacker.stacked_space
        self.stack_size = int(stack_size)
        self.padding_type = mode

    def step(self, action: ActType) -> tuple[_Value, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment and push its observation onto the stack.

        Args:
            action: Passed through.

        Returns:
            The step result with the stacked observation (a fresh array).
        """
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.obs_queue.append(obs)
        return self._stacker.stack(self.obs_queue), reward, terminated, truncated, info

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Value, _Info]:
        """Reset the inner environment and refill the stack with padding plus the reset observation.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The reset result with the stacked observation.
        """
        obs, info = self.env.reset(seed=seed, options=options)
        if self.padding_type == "reset":
            self.padding_value = obs
        for _ in range(self.stack_size - 1):
            self.obs_queue.append(self.padding_value)
        self.obs_queue.append(obs)
        return self._stacker.stack(self.obs_queue), info
