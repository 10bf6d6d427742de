"""Stateless wrappers that transform each observation and update ``observation_space`` to match.

Any function (:class:`TransformObservation`); flatten, filter keys, cast, reshape, rescale and greyscale; and
:class:`AddRenderObservation`, which adds (or substitutes) the rendered frame; :class:`ResizeObservation`, which
resizes image observations, and :class:`DiscretizeObservation`, which replaces Box observations by grid cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias, cast

import numpy as np
from numpy.typing import NDArray

import gymspec
from reference._framework import require_bool
from reference._narrowing import is_array, is_tuple
from reference._wrapper import require_env
from reference.core import ActType, Env, ObservationWrapper, ObsType, WrapperObsType
from reference.spaces._guards import is_box, is_discrete
from reference.spaces.box import Box
from reference.spaces.space import Space
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._discretize import BoxGrid
from reference.wrappers._image import resize_image
from reference.wrappers._shared import is_int
from reference.wrappers.utils import affine_rescale, space_kind

__all__ = [
    "AddRenderObservation",
    "DiscretizeObservation",
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "ReshapeObservation",
    "RescaleObservation",
    "ResizeObservation",
    "TransformObservation",
]

_Array: TypeAlias = "np.ndarray[Any, Any]"
_Value: TypeAlias = Any
_Cell: TypeAlias = "int | np.integer[Any] | NDArray[np.int64]"  # a flat index (Discrete), or one per dimension

# ITU-R 601-2 luma weights, as Gymnasium uses them.
_LUMA = np.array([0.2125, 0.7154, 0.0721])


class TransformObservation(ObservationWrapper[WrapperObsType, ActType, ObsType], RecordConstructorArgs):
    """Apply ``func`` to every observation from ``reset`` and ``step``.

    Args:
        env: The environment to wrap.
        func: Maps inner observations to the wrapper's observations.
        observation_space: The wrapper's observation space, or ``None`` to keep the inner one.

    Raises:
        TypeError: If ``func`` is not callable or ``observation_space`` is not a space.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = TransformObservation(CartPoleEnv(), lambda obs: obs.shape, None)
        >>> env.reset(seed=0)[0]
        (4,)
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        func: Callable[[ObsType], _Value],
        observation_space: Space[WrapperObsType] | None,
    ) -> None:
        if not callable(func):
            raise TypeError(f"{type(self).__name__} func must be callable, got {func!r}")
        if observation_space is not None and not isinstance(observation_space, Space):
            raise TypeError(
                f"{type(self).__name__} observation_space must be a Space or None, got {observation_space!r}"
            )
        RecordConstructorArgs.__init__(self, func=func, observation_space=observation_space)
        ObservationWrapper.__init__(self, env)
        if observation_space is not None:
            self.observation_space = observation_space
        self.func = func

    def observation(self, observation: ObsType) -> WrapperObsType:
        """Transform an observation with ``func``.

        Args:
            observation: The inner observation.

        Returns:
            ``func(observation)``.
        """
        result: WrapperObsType = self.func(observation)
        return result


class FlattenObservation(TransformObservation[_Array, ActType, ObsType], RecordConstructorArgs):
    """Flatten observations to 1-D arrays; the space becomes ``flatten_space(inner space)``.

    Args:
        env: The environment to wrap; its observation space must be flattenable.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = FlattenObservation(CartPoleEnv())
        >>> env.observation_space.shape
        (4,)
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        from reference.spaces.utils import flatten, flatten_space

        require_env("FlattenObservation", env)
        # A foreign space is rejected by flatten_space (NotImplementedError), as in Gymnasium.
        inner = cast("Space[ObsType]", env.observation_space)
        RecordConstructorArgs.__init__(self)
        TransformObservation.__init__(
            self, env=env, func=lambda obs: flatten(inner, obs), observation_space=flatten_space(inner)
        )


class FilterObservation(TransformObservation[_Value, ActType, ObsType], RecordConstructorArgs):
    """Keep only ``filter_keys`` of a Dict observation (str keys) or a Tuple observation (int indices).

    Args:
        env: The environment to wrap; its observation space must be a Dict or a Tuple.
        filter_keys: The keys (Dict) or indices (Tuple) to keep, in the order to keep them.

    Raises:
        TypeError: If ``filter_keys`` is not a sequence of the right key type.
        ValueError: If a key is missing, an index is out of range or duplicated, nothing is kept, or the space is
            neither a Dict nor a Tuple.

    Example:
        >>> from reference.spaces import Box, Dict, Discrete
        >>> from reference.wrappers import TransformObservation
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> space = Dict({"obs": Box(-5, 5, (4,)), "time": Discrete(3)})
        >>> base = TransformObservation(CartPoleEnv(), lambda o: {"obs": o, "time": 0}, space)
        >>> env = FilterObservation(base, filter_keys=["time"])
        >>> env.reset(seed=0)[0]
        {'time': 0}
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], filter_keys: Sequence[str | int]) -> None:
        if isinstance(filter_keys, (str, bytes)) or not isinstance(filter_keys, Sequence):
            raise TypeError(f"FilterObservation filter_keys must be a sequence of keys, got {filter_keys!r}")
        keys = list(filter_keys)
        RecordConstructorArgs.__init__(self, filter_keys=filter_keys)
        if not keys:
            raise ValueError("FilterObservation filter_keys must keep at least one key, got an empty sequence")
        require_env("FilterObservation", env)
        inner = env.observation_space
        kind = space_kind(inner)
        new_space: Space[Any]
        func: Callable[[Any], Any]
        if kind == "Dict":
            from reference.spaces import Dict

            children = getattr(inner, "spaces")
            if not all(isinstance(key, str) for key in keys):
                raise TypeError(f"FilterObservation filter_keys must all be str for a Dict space, got {keys!r}")
            missing = [key for key in keys if key not in children]
            if missing:
                raise ValueError(
                    f"FilterObservation filter_keys must be keys of the observation space {list(children)}, "
                    f"got missing keys {missing!r}"
                )
            new_space = Dict({key: children[key] for key in keys}, sort_keys=getattr(inner, "sort_keys", True))
            func = lambda obs: {key: obs[key] for key in keys}  # noqa: E731
        elif kind == "Tuple":
            from reference.spaces import Tuple

            children_seq = tuple(getattr(inner, "spaces"))
            if not all(isinstance(key, int) and not isinstance(key, bool) for key in keys):
                raise TypeError(f"FilterObservation filter_keys must all be int for a Tuple space, got {keys!r}")
            if len(set(keys)) != len(keys):
                raise ValueError(f"FilterObservation filter_keys must not repeat indices, got {keys!r}")
            bad = [key for key in keys if not -len(children_seq) <= int(key) < len(children_seq)]
            if bad:
                raise ValueError(
                    f"FilterObservation filter_keys must be indices of the {len(children_seq)}-element Tuple space, "
                    f"got out-of-range {bad!r}"
                )
            new_space = Tuple(tuple(children_seq[int(key)] for key in keys))
            func = lambda obs: tuple(obs[key] for key in keys)  # noqa: E731
        else:
            raise ValueError(f"FilterObservation env.observation_space must be a Dict or a Tuple, got {kind}")
        TransformObservation.__init__(self, env=env, func=func, observation_space=new_space)
        self.filter_keys = filter_keys


class DtypeObservation(TransformObservation[_Value, ActType, ObsType], RecordConstructorArgs):
    """Cast observations to ``dtype`` (Box, Discrete, MultiDiscrete or MultiBinary spaces).

    Args:
        env: The environment to wrap.
        dtype: The new dtype.

    Raises:
        TypeError: If the observation space is not array-like.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = DtypeObservation(CartPoleEnv(), np.float64)
        >>> env.reset(seed=0)[0].dtype, env.observation_space.dtype
        (dtype('float64'), dtype('float64'))
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], dtype: Any) -> None:
        require_env("DtypeObservation", env)
        try:
            np.dtype(dtype)
        except (TypeError, ValueError):  # ValueError: a dict or list NumPy reads as a malformed structured dtype
            raise TypeError(f"DtypeObservation dtype must be a NumPy dtype, got {describe(dtype)}") from None
        inner = cast("Space[ObsType]", env.observation_space)  # a foreign space is rejected below (TypeError)
        kind = space_kind(inner)
        new_space: Space[Any]
        if is_box(inner):
            new_space = Box(low=inner.low, high=inner.high, shape=inner.shape, dtype=dtype)
        elif is_discrete(inner):
            start = int(inner.start)
            new_space = Box(low=start, high=start + int(inner.n) - 1, shape=(), dtype=dtype)
        elif kind == "MultiDiscrete":
            from reference.spaces import MultiDiscrete

            new_space = MultiDiscrete(getattr(inner, "nvec"), dtype=dtype, start=getattr(inner, "start"))
        elif kind == "MultiBinary":
            new_space = Box(low=0, high=1, shape=inner.shape, dtype=dtype)
        else:
            raise TypeError(
                f"DtypeObservation env.observation_space must be a Box, Discrete, MultiDiscrete or MultiBinary, got {kind}"
            )
        self.dtype = dtype
        RecordConstructorArgs.__init__(self, dtype=dtype)
        convert = np.dtype(new_space.dtype).type
        TransformObservation.__init__(self, env=env, func=lambda obs: convert(obs), observation_space=new_space)


def _box_observation_space(env: gymspec.Env[Any, Any], owner: str) -> Box[Any]:
    require_env(owner, env)
    space = env.observation_space
    if not is_box(space):
        raise TypeError(f"{owner} env.observation_space must be a Box, got {type(space).__name__}")
    return space


class ReshapeObservation(TransformObservation[_Array, ActType, _Array], RecordConstructorArgs):
    """Reshape Box observations to ``shape`` (one ``-1`` allowed).

    Args:
        env: The environment to wrap; its observation space must be a Box.
        shape: The new shape, with the same number of elements.

    Raises:
        TypeError: If the space is not a Box or ``shape`` is not a tuple of ints.
        ValueError: If the element counts differ or a dimension is invalid.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = ReshapeObservation(CartPoleEnv(), (2, 2))
        >>> env.reset(seed=0)[0].shape, env.observation_space.shape
        ((2, 2), (2, 2))
    """

    def __init__(self, env: gymspec.Env[_Array, ActType], shape: int | tuple[int, ...]) -> None:
        inner = _box_observation_space(env, "ReshapeObservation")
        if not is_tuple(shape):
            raise TypeError(f"ReshapeObservation shape must be a tuple of ints, got {shape!r}")
        if not all(isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in shape):
            raise TypeError(f"ReshapeObservation shape must be a tuple of ints, got {shape!r}")
        if not all(d > 0 or d == -1 for d in shape) or sum(d == -1 for d in shape) > 1:
            raise ValueError(f"ReshapeObservation shape must have positive dimensions (at most one -1), got {shape!r}")
        try:
            new_low = np.reshape(inner.low, shape)
        except ValueError:
            raise ValueError(
                f"ReshapeObservation shape must have as many elements as the observation shape {inner.shape}, got {shape!r}"
            ) from None
        new_space = Box(low=new_low, high=np.reshape(inner.high, shape), dtype=inner.dtype)
        self.shape = shape
        RecordConstructorArgs.__init__(self, shape=shape)
        TransformObservation.__init__(self, env=env, func=lambda obs: np.reshape(obs, shape), observation_space=new_space)


class RescaleObservation(TransformObservation[_Array, ActType, _Array], RecordConstructorArgs):
    """Map Box observations affinely onto ``[min_obs, max_obs]``.

    Args:
        env: The environment to wrap; its observation space must be a Box.
        min_obs: The new lower bounds (scalar or array).
        max_obs: The new upper bounds (scalar or array).

    Raises:
        TypeError: If the space is not a Box or the bounds are not numbers/arrays.
        ValueError: If the bounds have the wrong shape, ``min_obs > max_obs``, or infinite bounds do not line up.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> env = RescaleObservation(PendulumEnv(), np.array([0.0, 0.0, 0.0]), np.array([1.0, 1.0, 1.0]))
        >>> env.observation_space
        Box(0.0, 1.0, (3,), float32)
    """

    def __init__(self, env: gymspec.Env[_Array, ActType], min_obs: object, max_obs: object) -> None:
        inner = _box_observation_space(env, "RescaleObservation")
        RecordConstructorArgs.__init__(self, min_obs=min_obs, max_obs=max_obs)
        new_space, to_new, _ = affine_rescale("RescaleObservation", inner, (min_obs, "min_obs"), (max_obs, "max_obs"))
        TransformObservation.__init__(self, env=env, func=to_new, observation_space=new_space)


class GrayscaleObservation(TransformObservation[_Array, ActType, _Array], RecordConstructorArgs):
    """Convert ``(H, W, 3)`` uint8 RGB observations to greyscale ``(H, W)`` (or ``(H, W, 1)`` with ``keep_dim``).

    Args:
        env: The environment to wrap; its observation space must be a uint8 Box ``(H, W, 3)`` with bounds 0..255.
        keep_dim: Keep a trailing channel axis of size 1.

    Raises:
        TypeError: If the space is not a Box.
        ValueError: If it is not an RGB uint8 image space.

    Example:
        >>> import numpy as np
        >>> from reference.spaces import Box
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> image = Box(0, 255, (2, 2, 3), dtype=np.uint8)
        >>> rgb = TransformObservation(CartPoleEnv(), lambda o: np.full((2, 2, 3), 100, np.uint8), image)
        >>> GrayscaleObservation(rgb).reset(seed=0)[0].tolist()
        [[100, 100], [100, 100]]
    """

    def __init__(self, env: gymspec.Env[_Array, ActType], keep_dim: bool = False) -> None:
        require_bool("GrayscaleObservation", keep_dim=keep_dim)
        inner = _box_observation_space(env, "GrayscaleObservation")
        if len(inner.shape) != 3 or inner.shape[-1] != 3:
            raise ValueError(f"GrayscaleObservation observation shape must be (height, width, 3), got {inner.shape}")
        if inner.dtype != np.uint8 or not (np.all(inner.low == 0) and np.all(inner.high == 255)):
            raise ValueError(
                f"GrayscaleObservation observation space must be uint8 with bounds 0..255, got {inner!r}"
            )
        RecordConstructorArgs.__init__(self, keep_dim=keep_dim)
        self.keep_dim = keep_dim
        shape = inner.shape[:2] + ((1,) if keep_dim else ())

        def to_grey(obs: _Array) -> _Array:
            grey = np.sum(np.multiply(obs, _LUMA), axis=-1).astype(np.uint8)
            return np.expand_dims(grey, axis=-1) if keep_dim else grey

        TransformObservation.__init__(
            self, env=env, func=to_grey, observation_space=Box(low=0, high=255, shape=shape, dtype=np.uint8)
        )


class AddRenderObservation(TransformObservation[_Value, ActType, ObsType], RecordConstructorArgs):
    """Put the rendered frame into the observation: instead of it, or next to it in a Dict.

    Construction resets the environment once to learn the frame shape. With ``render_only`` the observation is
    the frame; otherwise a Dict observation gains ``render_key``, and any other observation becomes
    ``{obs_key: obs, render_key: frame}``.

    Args:
        env: The environment to wrap; its render mode must produce array frames.
        render_only: Replace the observation by the frame.
        render_key: The Dict key of the frame.
        obs_key: The Dict key of a non-Dict observation.

    Raises:
        ValueError: If the render mode is ``None``/``"human"`` or ``render_key`` already exists.
        TypeError: If ``render()`` does not return an array.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = AddRenderObservation(CartPoleEnv(render_mode="rgb_array"), render_only=False)
        >>> obs, _ = env.reset(seed=0)
        >>> sorted(obs), obs["pixels"].shape
        (['pixels', 'state'], (400, 600, 3))
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        render_only: bool = True,
        render_key: str = "pixels",
        obs_key: str = "state",
    ) -> None:
        RecordConstructorArgs.__init__(self, render_only=render_only, render_key=render_key, obs_key=obs_key)
        require_env("AddRenderObservation", env)
        require_bool("AddRenderObservation", render_only=render_only)
        for param, key in (("render_key", render_key), ("obs_key", obs_key)):
            if not isinstance(key, str):
                raise TypeError(f"AddRenderObservation {param} must be a str, got {describe(key)}")
        if env.render_mode is None or env.render_mode == "human":
            raise ValueError(
                f"AddRenderObservation env.render_mode must produce frames (not None or 'human'), got {env.render_mode!r}"
            )
        env.reset()
        pixels = env.render()
        if not is_array(pixels):
            raise TypeError(f"AddRenderObservation env.render() must return a numpy array, got {type(pixels).__name__}")
        pixel_space = Box(low=0, high=255, shape=pixels.shape, dtype=np.uint8)
        inner = env.observation_space
        obs_space: Space[Any]
        func: Callable[[Any], Any]
        if render_only:
            obs_space = pixel_space
            func = lambda _: self.render()  # noqa: E731
        else:
            from reference.spaces import Dict

            if space_kind(inner) == "Dict":
                children = dict(getattr(inner, "spaces"))
                if render_key in children:
                    raise ValueError(
                        f"AddRenderObservation render_key must not already be an observation key, got {render_key!r}"
                    )
                obs_space = Dict({render_key: pixel_space, **children}, sort_keys=getattr(inner, "sort_keys", True))
                func = lambda obs: {render_key: self.render(), **obs}  # noqa: E731
            else:
                obs_space = Dict({obs_key: inner, render_key: pixel_space})
                func = lambda obs: {obs_key: obs, render_key: self.render()}  # noqa: E731
        TransformObservation.__init__(self, env=env, func=func, observation_space=obs_space)


class ResizeObservation(TransformObservation[_Array, ActType, _Array], RecordConstructorArgs):
    """Resize image observations to ``shape`` (height, width), keeping any channel axis.

    Uses OpenCV's area interpolation when OpenCV is installed (as Gymnasium does), else the NumPy equivalent
    (see :func:`reference.wrappers._image.resize_image`).

    Args:
        env: The environment to wrap; its observation space must be a uint8 Box of 2 or 3 dimensions with
            bounds 0..255.
        shape: The new ``(height, width)``: two positive ints.

    Raises:
        TypeError: If the space is not a Box, ``shape`` is not a tuple or holds non-integers.
        ValueError: If the space is not a uint8 0..255 image, or ``shape`` does not hold two positive ints.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> image = Box(0, 255, (60, 80, 3), dtype=np.uint8)
        >>> frames = TransformObservation(CartPoleEnv(), lambda o: np.zeros((60, 80, 3), np.uint8), image)
        >>> env = ResizeObservation(frames, (30, 40))
        >>> env.observation_space
        Box(0, 255, (30, 40, 3), uint8)
        >>> env.reset(seed=0)[0].shape
        (30, 40, 3)
    """

    def __init__(self, env: Env[_Array, ActType], shape: tuple[int, int]) -> None:
        require_env("ResizeObservation", env)
        inner = env.observation_space
        if not is_box(inner):
            raise TypeError(f"ResizeObservation env.observation_space must be a Box, got {type(inner).__name__}")
        if len(inner.shape) not in (2, 3):
            raise ValueError(f"ResizeObservation observation shape must be (H, W) or (H, W, C), got {inner.shape}")
        if inner.dtype != np.uint8 or not (np.all(inner.low == 0) and np.all(inner.high == 255)):
            raise ValueError(f"ResizeObservation observation space must be uint8 with bounds 0..255, got {inner!r}")
        if not isinstance(shape, tuple):
            raise TypeError(f"ResizeObservation shape must be a tuple (height, width), got {shape!r}")
        if len(shape) != 2:
            raise ValueError(f"ResizeObservation shape must have two elements (height, width), got {shape!r}")
        if not all(is_int(size) for size in shape):
            raise TypeError(f"ResizeObservation shape must hold ints, got {shape!r}")
        if not all(size > 0 for size in shape):
            raise ValueError(f"ResizeObservation shape must hold positive ints, got {shape!r}")
        RecordConstructorArgs.__init__(self, shape=shape)
        self.shape: tuple[int, int] = (int(shape[0]), int(shape[1]))
        space = Box(low=0, high=255, shape=self.shape + inner.shape[2:], dtype=np.uint8)
        TransformObservation.__init__(
            self, env=env, func=lambda obs: resize_image(obs, self.shape), observation_space=space
        )


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
