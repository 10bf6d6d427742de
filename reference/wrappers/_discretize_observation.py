"""The :class:`DiscretizeObservation` wrapper (re-exported by ``transform_observation``, where Gymnasium has it)."""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._wrapper import require_env
from reference.core import ActType, Env
from reference.spaces.space import Space
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._discretize import BoxGrid
from reference.wrappers.transform_observation import TransformObservation

__all__ = ["DiscretizeObservation"]

_Array: TypeAlias = "np.ndarray[Any, Any]"
_Cell: TypeAlias = "int | np.integer[Any] | NDArray[np.int64]"  # a flat index (Discrete), or one per dimension


class DiscretizeObservation(TransformObservation[_Cell, ActType, _Array], RecordConstructorArgs):
    """Replace bounded Box observations by the index of the grid cell they fall in.

    Each dimension is split into ``bins`` equal cells; the observation becomes one flat cell index (``Discrete``,
    row-major: the first dimension is the most significant) or, with ``multidiscrete``, an int64 array of
    per-dimension indices (``MultiDiscrete``). Values outside the Box go to the edge cells.

    Args:
        env: The environment to wrap; its observation space must be a Box with finite bounds.
        bins: Cells per dimension: one int for all, or a tuple with one per dimension.
        multidiscrete: Use a ``MultiDiscrete`` space instead of one flat ``Discrete`` index.

    Raises:
        TypeError: If the observation space is not a Box or ``bins`` holds non-integers.
        ValueError: If the Box is unbounded or ``bins`` has the wrong length or a count below 1 or above 2**24.

    Example:
        >>> from reference.envs.classic_control.mountain_car import MountainCarEnv
        >>> env = DiscretizeObservation(MountainCarEnv(), bins=10)
        >>> env.observation_space
        Discrete(100)
        >>> env.reset(seed=42)[0]
        45
        >>> low, high = env.revert_observation(45)
        >>> [round(float(v), 3) for v in (*low, *high)]
        [-0.48, 0.0, -0.3, 0.014]
    """

    def __init__(self, env: Env[_Array, ActType], bins: int | tuple[int, ...], multidiscrete: bool = False) -> None:
        require_env("DiscretizeObservation", env)
        grid = BoxGrid("DiscretizeObservation", env.observation_space, "observation", bins, multidiscrete)
        RecordConstructorArgs.__init__(self, bins=bins, multidiscrete=multidiscrete)
        self._grid = grid
        self.bins, self.multidiscrete, self.n_dims = grid.bins, multidiscrete, grid.n_dims
        self.low, self.high = grid.low, grid.high
        space: Space[_Cell] = grid.space
        TransformObservation.__init__(
            self, env=env, func=lambda obs: grid.encode(grid.cell_of(obs)), observation_space=space
        )

    def revert_observation(self, obs: _Cell) -> tuple[_Array, _Array]:
        """The bounds of the cell a discretised observation names.

        Args:
            obs: A flat cell index, or per-dimension indices with ``multidiscrete``.

        Returns:
            ``(lows, highs)``: the cell's edges, flat, in the inner observation dtype.
        """
        lows, highs = self._grid.bounds(self._grid.decode(obs))
        dtype = self.env.observation_space.dtype
        return lows.astype(dtype), highs.astype(dtype)
