"""Vector observation wrappers that keep state across steps.

* :class:`NormalizeObservation` standardises observations with a running mean and variance over all sub-envs.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import ActType
from reference.spaces import Box
from reference.utils.record_constructor import RecordConstructorArgs
from reference.vector.utils import batch_space
from reference.vector.vector_env import ArrayType, AutoresetMode, VectorEnv, VectorObservationWrapper
from reference.wrappers._shared import StatisticsToggle, require_real
from reference.wrappers.utils import BoundError, RunningMeanStd
from reference.wrappers.vector._utils import declared_autoreset_mode, reset_mask

__all__ = ["NormalizeObservation"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Seed: TypeAlias = "int | list[int | None] | None"
_Array: TypeAlias = NDArray[Any]


class NormalizeObservation(
    VectorObservationWrapper[_Array, ActType, _Array, ArrayType], RecordConstructorArgs, StatisticsToggle
):
    """Standardise observations with a running mean and variance, updated with every batch by default.

    The statistics are shared by all sub-environments and updated from each whole batch (``reset`` and ``step``,
    including the reset observations of a ``NextStep`` autoreset step). The spaces become unbounded float32 Boxes
    of the same shapes. Set :attr:`update_running_mean` to ``False`` to freeze the statistics (e.g. for
    evaluation).

    Only ``NextStep`` autoreset is supported, as in Gymnasium: ``SameStep`` final observations would escape the
    normalisation, and ``Disabled`` needs partial resets, which would feed the untouched sub-envs' observations to
    the statistics again. For the same reason a partial ``reset`` is rejected.

    Args:
        env: The vector environment to wrap; its single observation space must have a shape.
        epsilon: Added to the variance before the square root; positive.

    Raises:
        InvalidBound: ``epsilon`` is not positive (also a ``ValueError``).
        ValueError: The environment's autoreset mode is not ``NextStep``, or its observation space has no shape.

    Example:
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = NormalizeObservation(SyncVectorEnv([CartPoleEnv] * 3))
        >>> envs.single_observation_space
        Box(-inf, inf, (4,), float32)
        >>> _ = envs.reset(seed=123)
        >>> for _ in range(100):
        ...     obs, *_ = envs.step(np.array([0, 1, 1]))
        >>> obs.dtype, bool(abs(obs.mean()) < 1.5)
        (dtype('float32'), True)
        >>> envs.close()
    """

    obs_rms: RunningMeanStd
    epsilon: float

    def __init__(self, env: VectorEnv[_Array, ActType, ArrayType], epsilon: float = 1e-8) -> None:
        require_real("NormalizeObservation", "epsilon", epsilon)
        if not epsilon > 0:
            raise BoundError(f"NormalizeObservation epsilon must be > 0, got {epsilon!r}")
        RecordConstructorArgs.__init__(self, epsilon=epsilon)
        if isinstance(env, VectorEnv) and "autoreset_mode" in env.metadata:
            mode = declared_autoreset_mode(type(self).__name__, env)
            if mode is not AutoresetMode.NEXT_STEP:
                raise ValueError(
                    f"NormalizeObservation env autoreset_mode must be NEXT_STEP, got {mode} (SameStep final "
                    "observations would not be normalised; Disabled needs partial resets, which are not supported)"
                )
        VectorObservationWrapper.__init__(self, env)
        shape = env.single_observation_space.shape
        if shape is None:
            raise ValueError(
                f"NormalizeObservation env.single_observation_space must have a shape, got "
                f"{env.single_observation_space!r}"
            )
        single = Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32)
        self.single_observation_space = single
        self.observation_space = batch_space(single, self.num_envs)
        self.obs_rms = RunningMeanStd(shape=shape, dtype=np.float32)
        self.epsilon = epsilon
        self._update_running_mean = True

    def reset(self, *, seed: _Seed = None, options: _Options | None = None) -> tuple[_Array, _Info]:
        """Reset every sub-environment and normalise the observations.

        Args:
            seed: Passed through.
            options: Passed through; a ``reset_mask`` must select every sub-environment.

        Returns:
            The normalised ``(observations, info)``.

        Raises:
            ValueError: ``options["reset_mask"]`` does not select every sub-environment.
        """
        mask = reset_mask(type(self).__name__, options, self.num_envs)
        if mask is not None and not mask.all():
            raise ValueError(
                f"NormalizeObservation options['reset_mask'] must select every sub-env (partial resets are not "
                f"supported), got {mask.tolist()!r}"
            )
        return super().reset(seed=seed, options=options)

    def observations(self, observations: _Array) -> _Array:
        """Update the statistics (if enabled) with the batch and standardise it.

        Args:
            observations: The inner batch.

        Returns:
            ``(observations - mean) / sqrt(var + epsilon)`` as float32.
        """
        if self._update_running_mean:
            self.obs_rms.update(observations)
        centred = observations - self.obs_rms.mean
        normalised: _Array = np.asarray(centred / np.sqrt(self.obs_rms.var + self.epsilon)).astype(np.float32)
        return normalised
