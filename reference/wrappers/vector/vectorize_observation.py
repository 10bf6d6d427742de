"""Vector wrappers that transform every batch of observations (stateless), updating both observation spaces.

* :class:`TransformObservation` applies a function to the whole batch.
* :class:`VectorizeTransformObservation` applies a single-env observation wrapper to each sub-env's observation;
  the named wrappers below are that, for the single-env wrapper of the same name:
  :class:`FilterObservation`, :class:`FlattenObservation`, :class:`GrayscaleObservation`,
  :class:`ReshapeObservation`, :class:`RescaleObservation`, :class:`ResizeObservation`, :class:`DtypeObservation`.

All of them are :class:`~reference.vector.VectorObservationWrapper` s, which reject ``SameStep`` autoreset: its
final observations travel in ``info["final_obs"]`` and would not be transformed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from reference.core import ActType, ObservationWrapper, ObsType, WrapperObsType
from reference.spaces import Space
from reference.vector.utils import batch_space, concatenate, create_empty_array, iterate
from reference.vector.vector_env import ArrayType, VectorEnv, VectorObservationWrapper
from reference.wrappers import transform_observation
from reference.wrappers.vector._utils import (
    SingleEnv,
    check_callable,
    check_optional_spaces,
    check_single_wrapper,
    resolve_spaces,
)

__all__ = [
    "DtypeObservation",
    "FilterObservation",
    "FlattenObservation",
    "GrayscaleObservation",
    "RescaleObservation",
    "ReshapeObservation",
    "ResizeObservation",
    "TransformObservation",
    "VectorizeTransformObservation",
]

_Batch: TypeAlias = Any
_Value: TypeAlias = Any
_AnySpace: TypeAlias = "Space[Any]"
_AnyVectorEnv: TypeAlias = "VectorEnv[Any, ActType, ArrayType]"
_SingleWrapper: TypeAlias = "ObservationWrapper[Any, Any, Any]"


class TransformObservation(VectorObservationWrapper[WrapperObsType, ActType, ObsType, ArrayType]):
    """Apply ``func`` to every batch of observations from ``reset`` and ``step``.

    Use this when the whole batch can be transformed at once; :class:`VectorizeTransformObservation` applies a
    per-observation function instead.

    Args:
        env: The vector environment to wrap.
        func: Maps a batch of observations to the wrapper's batch.
        observation_space: The wrapper's batched space; ``None`` batches ``single_observation_space`` (or keeps
            the inner space when that is ``None`` too).
        single_observation_space: The wrapper's single space; ``None`` derives it from ``observation_space``
            when that is an unambiguous batch, else keeps the inner one (with a warning if they disagree).

    Raises:
        TypeError: ``func`` is not callable or a space argument is not a space.
        ValueError: ``env`` declares ``SameStep`` autoreset.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Box
        >>> from reference.vector import SyncVectorEnv
        >>> envs = SyncVectorEnv([CartPoleEnv] * 2)
        >>> space = Box(-1.0, 1.0, shape=(4,), dtype=np.float32)
        >>> envs = TransformObservation(envs, np.tanh, single_observation_space=space)
        >>> envs.observation_space
        Box(-1.0, 1.0, (2, 4), float32)
        >>> obs, _ = envs.reset(seed=123)
        >>> obs.round(3)
        array([[ 0.018, -0.045, -0.028, -0.032],
               [ 0.029,  0.029,  0.047,  0.025]], dtype=float32)
        >>> envs.close()
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, ArrayType],
        func: Callable[[ObsType], WrapperObsType],
        observation_space: _AnySpace | None = None,
        single_observation_space: _AnySpace | None = None,
    ) -> None:
        owner = type(self).__name__
        check_callable(owner, "func", func)
        check_optional_spaces(owner, "observation", observation_space, single_observation_space)
        super().__init__(env)
        batched, single = resolve_spaces(owner, env, "observation", observation_space, single_observation_space)
        self.observation_space = batched
        self.single_observation_space = single
        self.func = func

    def observations(self, observations: ObsType) -> WrapperObsType:
        """Transform a batch with ``func``.

        Args:
            observations: The inner batch.

        Returns:
            ``func(observations)``.
        """
        return self.func(observations)


class VectorizeTransformObservation(VectorObservationWrapper[_Batch, ActType, _Batch, ArrayType]):
    """Apply a single-env observation wrapper to each sub-environment's observation.

    ``wrapper`` is built around a stand-in environment with the inner single spaces, so it computes the new single
    observation space exactly as it would on one environment; the batched space is that space batched. Every batch
    is split with ``iterate``, transformed with the wrapper's ``observation`` and re-stacked into a fresh batch.

    Args:
        env: The vector environment to wrap.
        wrapper: A single-env :class:`~reference.core.ObservationWrapper` class (e.g.
            :class:`reference.wrappers.TransformObservation`).
        **kwargs: The wrapper's constructor arguments other than ``env``.

    Raises:
        TypeError: ``wrapper`` is not an ObservationWrapper class; the wrapper's own errors propagate.
        ValueError: ``env`` declares ``SameStep`` autoreset.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Box
        >>> from reference.vector import SyncVectorEnv
        >>> from reference.wrappers import TransformObservation as SingleTransform
        >>> envs = SyncVectorEnv([CartPoleEnv] * 2)
        >>> twice = Box(-10.0, 10.0, shape=(2, 4), dtype=np.float32)
        >>> envs = VectorizeTransformObservation(
        ...     envs, SingleTransform, func=lambda obs: np.stack([obs, obs]), observation_space=twice
        ... )
        >>> envs.single_observation_space, envs.observation_space
        (Box(-10.0, 10.0, (2, 4), float32), Box(-10.0, 10.0, (2, 2, 4), float32))
        >>> obs, _ = envs.reset(seed=123)
        >>> obs.shape
        (2, 2, 4)
        >>> envs.close()
    """

    wrapper: _SingleWrapper

    def __init__(self, env: _AnyVectorEnv, wrapper: type[_SingleWrapper], **kwargs: _Value) -> None:
        check_single_wrapper(type(self).__name__, wrapper, ObservationWrapper)
        super().__init__(env)
        self.wrapper = wrapper(SingleEnv.of(env), **kwargs)
        self.single_observation_space = self.wrapper.observation_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

    def observations(self, observations: _Batch) -> _Batch:
        """Transform each sub-environment's observation and stack the results.

        Args:
            observations: The inner batch.

        Returns:
            A new batch of the wrapper's observations.
        """
        transformed = [self.wrapper.observation(obs) for obs in iterate(self.env.observation_space, observations)]
        out = create_empty_array(self.single_observation_space, self.num_envs)
        return concatenate(self.single_observation_space, transformed, out)


class FilterObservation(VectorizeTransformObservation[ActType, ArrayType]):
    """Keep only some keys of Dict observations (str keys) or entries of Tuple observations (int indices).

    Args:
        env: The vector environment to wrap; its single observation space must be a Dict or a Tuple.
        filter_keys: The keys or indices to keep.

    Raises:
        TypeError: ``filter_keys`` is not a sequence of keys of the right type.
        ValueError: A key is missing, nothing is kept, or the space is neither a Dict nor a Tuple.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Box, Dict
        >>> from reference.vector import SyncVectorEnv
        >>> from reference.wrappers import TransformObservation as SingleTransform
        >>> envs = SyncVectorEnv([CartPoleEnv] * 2)
        >>> space = Dict({"obs": envs.single_observation_space, "junk": Box(-1.0, 1.0)})
        >>> envs = VectorizeTransformObservation(
        ...     envs, SingleTransform, func=lambda o: {"obs": o, "junk": np.zeros(1)}, observation_space=space
        ... )
        >>> envs = FilterObservation(envs, ["obs"])
        >>> obs, _ = envs.reset(seed=123)
        >>> list(obs), obs["obs"].shape
        (['obs'], (2, 4))
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv, filter_keys: Sequence[str | int]) -> None:
        super().__init__(env, transform_observation.FilterObservation, filter_keys=filter_keys)


class FlattenObservation(VectorizeTransformObservation[ActType, ArrayType]):
    """Flatten each observation to a 1-D array (``reference.spaces.flatten``).

    Args:
        env: The vector environment to wrap; its single observation space must be flattenable.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = ReshapeObservation(SyncVectorEnv([CartPoleEnv] * 3), shape=(2, 2))
        >>> envs.observation_space.shape
        (3, 2, 2)
        >>> envs = FlattenObservation(envs)
        >>> envs.single_observation_space.shape, envs.reset(seed=0)[0].shape
        ((4,), (3, 4))
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv) -> None:
        super().__init__(env, transform_observation.FlattenObservation)


class GrayscaleObservation(VectorizeTransformObservation[ActType, ArrayType]):
    """Convert RGB uint8 image observations ``(H, W, 3)`` to greyscale ``(H, W)`` (``(H, W, 1)`` with ``keep_dim``).

    Args:
        env: The vector environment to wrap; its single observation space must be a uint8 ``(H, W, 3)`` Box
            with bounds 0..255.
        keep_dim: Keep a trailing channel axis of size 1.

    Raises:
        TypeError: The space is not a Box.
        ValueError: It is not an RGB uint8 image space.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Box
        >>> from reference.vector import SyncVectorEnv
        >>> from reference.wrappers import TransformObservation as SingleTransform
        >>> image = Box(0, 255, (4, 5, 3), dtype=np.uint8)
        >>> envs = VectorizeTransformObservation(
        ...     SyncVectorEnv([CartPoleEnv] * 2), SingleTransform,
        ...     func=lambda o: np.full((4, 5, 3), 200, np.uint8), observation_space=image,
        ... )
        >>> envs = GrayscaleObservation(envs, keep_dim=True)
        >>> envs.observation_space
        Box(0, 255, (2, 4, 5, 1), uint8)
        >>> obs, _ = envs.reset(seed=0)
        >>> obs.shape, int(obs.max())
        ((2, 4, 5, 1), 200)
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv, keep_dim: bool = False) -> None:
        super().__init__(env, transform_observation.GrayscaleObservation, keep_dim=keep_dim)


class ResizeObservation(VectorizeTransformObservation[ActType, ArrayType]):
    """Resize uint8 image observations to ``shape`` (height, width), as the single-env wrapper of that name does.

    Args:
        env: The vector environment to wrap; its single observation space must be a uint8 Box of 2 or 3
            dimensions with bounds 0..255.
        shape: The new ``(height, width)``.

    Raises:
        TypeError: The space is not a Box, or ``shape`` is not a tuple of ints.
        ValueError: The space is not a uint8 0..255 image, or ``shape`` does not hold two positive ints.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.spaces import Box
        >>> from reference.vector import SyncVectorEnv
        >>> from reference.wrappers import TransformObservation as SingleTransform
        >>> image = Box(0, 255, (60, 80, 3), dtype=np.uint8)
        >>> envs = VectorizeTransformObservation(
        ...     SyncVectorEnv([CartPoleEnv] * 2), SingleTransform,
        ...     func=lambda o: np.full((60, 80, 3), 7, np.uint8), observation_space=image,
        ... )
        >>> envs = ResizeObservation(envs, (30, 40))
        >>> envs.observation_space
        Box(0, 255, (2, 30, 40, 3), uint8)
        >>> obs, _ = envs.reset(seed=0)
        >>> obs.shape, int(obs.max())
        ((2, 30, 40, 3), 7)
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv, shape: tuple[int, ...]) -> None:
        super().__init__(env, transform_observation.ResizeObservation, shape=shape)


class ReshapeObservation(VectorizeTransformObservation[ActType, ArrayType]):
    """Reshape each Box observation to ``shape`` (the batch gains the leading ``num_envs`` axis).

    Args:
        env: The vector environment to wrap; its single observation space must be a Box.
        shape: The new single-observation shape, with the same number of elements.

    Raises:
        TypeError: The space is not a Box or ``shape`` is not a tuple of ints.
        ValueError: The element counts differ.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = ReshapeObservation(SyncVectorEnv([CartPoleEnv] * 3), shape=(2, 2))
        >>> envs.single_observation_space.shape, envs.reset(seed=0)[0].shape
        ((2, 2), (3, 2, 2))
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv, shape: int | tuple[int, ...]) -> None:
        super().__init__(env, transform_observation.ReshapeObservation, shape=shape)


class RescaleObservation(VectorizeTransformObservation[ActType, ArrayType]):
    """Map Box observations affinely onto ``[min_obs, max_obs]``.

    Args:
        env: The vector environment to wrap; its single observation space must be a bounded Box.
        min_obs: The new lower bounds (scalar or array of the single shape).
        max_obs: The new upper bounds.

    Raises:
        TypeError: The space is not a Box or the bounds are not numbers/arrays.
        ValueError: The bounds have the wrong shape, ``min_obs > max_obs``, or infinite bounds do not line up.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = RescaleObservation(SyncVectorEnv([PendulumEnv] * 2), min_obs=0.0, max_obs=1.0)
        >>> envs.single_observation_space
        Box(0.0, 1.0, (3,), float32)
        >>> obs, _ = envs.reset(seed=0)
        >>> bool(((obs >= 0) & (obs <= 1)).all())
        True
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv, min_obs: object, max_obs: object) -> None:
        super().__init__(env, transform_observation.RescaleObservation, min_obs=min_obs, max_obs=max_obs)


class DtypeObservation(VectorizeTransformObservation[ActType, ArrayType]):
    """Cast each observation to ``dtype`` (Box, Discrete, MultiDiscrete or MultiBinary spaces).

    Args:
        env: The vector environment to wrap.
        dtype: The new dtype.

    Raises:
        TypeError: The single observation space is not array-like.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.pendulum import PendulumEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = DtypeObservation(SyncVectorEnv([PendulumEnv] * 3), dtype=np.float64)
        >>> envs.observation_space.dtype, envs.reset(seed=0)[0].dtype
        (dtype('float64'), dtype('float64'))
        >>> envs.close()
    """

    def __init__(self, env: _AnyVectorEnv, dtype: _Value) -> None:
        super().__init__(env, transform_observation.DtypeObservation, dtype=dtype)
