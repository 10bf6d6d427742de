"""Observation wrappers that keep state across steps.

* :class:`TimeAwareObservation` adds the step count (optionally normalised) to the observation.
* :class:`FrameStackObservation` returns the last ``stack_size`` observations stacked (:mod:`.frame_stack`).
* :class:`NormalizeObservation` standardises observations with running mean and variance.
* :class:`DelayObservation` returns the observation from ``delay`` steps ago.
* :class:`MaxAndSkipObservation` repeats the action ``skip`` times and returns the max of the last two frames.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any, SupportsFloat, TypeAlias, cast

import numpy as np

import gymspec
from reference._framework import require_bool
from reference.core import ActType, ObservationWrapper, ObsType, Wrapper
from reference.spaces.box import Box
from reference.spaces.space import Space
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import StatisticsToggle, is_int, require_real
from reference.wrappers.common import TimeLimit
from reference.wrappers.frame_stack import FrameStackObservation  # re-exported where Gymnasium has it
from reference.wrappers.utils import BoundError, RunningMeanStd, create_zero_array, space_kind

__all__ = [
    "DelayObservation",
    "FrameStackObservation",
    "MaxAndSkipObservation",
    "NormalizeObservation",
    "TimeAwareObservation",
]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Array: TypeAlias = "np.ndarray[Any, Any]"
_Value: TypeAlias = Any


class DelayObservation(ObservationWrapper[ObsType, ActType, ObsType], RecordConstructorArgs):
    """Return the observation from ``delay`` calls ago (a "zero" observation until then).

    Args:
        env: The environment to wrap.
        delay: The number of steps of delay; a non-negative int.

    Raises:
        TypeError: If ``delay`` is not an int.
        ValueError: If ``delay`` is negative.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = DelayObservation(CartPoleEnv(), delay=1)
        >>> env.reset(seed=0)[0].tolist()
        [0.0, 0.0, 0.0, 0.0]
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], delay: int) -> None:
        if not is_int(delay):
            raise TypeError(f"DelayObservation delay must be an int, got {delay!r}")
        if delay < 0:
            raise ValueError(f"DelayObservation delay must be >= 0, got {delay!r}")
        RecordConstructorArgs.__init__(self, delay=delay)
        ObservationWrapper.__init__(self, env)
        self.delay = int(delay)
        self.observation_queue: deque[ObsType] = deque()

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment and forget the queued observations.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The reset result with the (delayed) observation.
        """
        self.observation_queue.clear()
        return super().reset(seed=seed, options=options)

    def observation(self, observation: ObsType) -> ObsType:
        """Queue the observation and return the one from ``delay`` calls ago.

        Args:
            observation: The inner observation.

        Returns:
            The delayed observation, or the space's zero element while the queue fills.
        """
        self.observation_queue.append(observation)
        if len(self.observation_queue) > self.delay:
            return self.observation_queue.popleft()
        zero: ObsType = create_zero_array(self.observation_space)
        return zero


def _find_max_episode_steps(env: gymspec.Env[Any, Any]) -> int:
    spec = cast(gymspec.HasSpec, env).spec
    if spec is not None and spec.max_episode_steps is not None:
        return int(spec.max_episode_steps)
    layer: object = env
    while isinstance(layer, Wrapper):
        if isinstance(layer, TimeLimit):
            return layer.max_episode_steps
        layer = layer.env  # pyright: ignore[reportUnknownVariableType, reportUnknownMemberType]
    raise ValueError(
        "TimeAwareObservation env must be wrapped by a TimeLimit or have a spec with max_episode_steps, got neither"
    )


class TimeAwareObservation(ObservationWrapper[_Value, ActType, ObsType], RecordConstructorArgs):
    """Add the number of steps since ``reset`` to the observation.

    A Dict observation gains ``dict_time_key``; a Tuple observation gains a last element; any other observation
    becomes ``{"obs": obs, "time": t}``. With ``flatten`` (the default) the result is flattened to a 1-D array.
    ``t`` is an int32 array ``[steps]``, or a float32 array ``[steps / max_episode_steps]`` with ``normalize_time``.

    Args:
        env: The environment to wrap; it needs a ``TimeLimit`` (or a spec with ``max_episode_steps``).
        flatten: Flatten the augmented observation.
        normalize_time: Report time as a fraction of ``max_episode_steps``.
        dict_time_key: The key for the time in Dict observations.

    Raises:
        ValueError: If no step limit is known or ``dict_time_key`` is already a key.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.wrappers import TimeLimit
        >>> env = TimeAwareObservation(TimeLimit(CartPoleEnv(), 10), normalize_time=True)
        >>> _ = env.reset(seed=0)
        >>> round(float(env.step(0)[0][-1]), 6)
        0.1
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        flatten: bool = True,
        normalize_time: bool = False,
        *,
        dict_time_key: str = "time",
    ) -> None:
        require_bool("TimeAwareObservation", flatten=flatten, normalize_time=normalize_time)
        from reference.spaces import Dict, Tuple
        from reference.spaces.utils import flatten as flatten_obs
        from reference.spaces.utils import flatten_space

        RecordConstructorArgs.__init__(self, flatten=flatten, normalize_time=normalize_time, dict_time_key=dict_time_key)
        ObservationWrapper.__init__(self, env)
        self.flatten = flatten
        self.normalize_time = normalize_time
        self.max_timesteps = _find_max_episode_steps(env)
        self.timesteps = 0

        time_space: Box[Any]
        self._time_preprocess_func: Callable[[int], _Array]
        self._obs_postprocess_func: Callable[[Any], Any]
        if normalize_time:
            self._time_preprocess_func = lambda t: np.array([t / self.max_timesteps], dtype=np.float32)
            time_space = Box(0.0, 1.0)
        else:
            self._time_preprocess_func = lambda t: np.array([t], dtype=np.int32)
            time_space = Box(0, self.max_timesteps, dtype=np.int32)

        inner = cast("Space[ObsType]", env.observation_space)  # Dict and Tuple reject a foreign space
        kind = space_kind(inner)
        augmented: Space[Any]
        self._append_data_func: Callable[[Any, _Array], Any]
        if kind == "Dict":
            children = dict(getattr(inner, "spaces"))
            if dict_time_key in children:
                raise ValueError(
                    f"TimeAwareObservation dict_time_key must not already be an observation key, got {dict_time_key!r}"
                )
            augmented = Dict({dict_time_key: time_space, **children}, sort_keys=getattr(inner, "sort_keys", True))
            self._append_data_func = lambda obs, t: {dict_time_key: t, **obs}
        elif kind == "Tuple":
            augmented = Tuple((*getattr(inner, "spaces"), time_space))
            self._append_data_func = lambda obs, t: (*obs, t)
        else:
            augmented = Dict(obs=inner, time=time_space)
            self._append_data_func = lambda obs, t: {"obs": obs, "time": t}

        if flatten:
            self.observation_space = flatten_space(augmented)
            self._obs_postprocess_func = lambda obs: flatten_obs(augmented, obs)
        else:
            self.observation_space = augmented
            self._obs_postprocess_func = lambda obs: obs

    def observation(self, observation: ObsType) -> _Value:
        """Add the current step count to an observation.

        Args:
            observation: The inner observation.

        Returns:
            The augmented (and possibly flattened) observation.
        """
        return self._obs_postprocess_func(self._append_data_func(observation, self._time_preprocess_func(self.timesteps)))

    def step(self, action: ActType) -> tuple[_Value, SupportsFloat, bool, bool, _Info]:
        """Count the step, then step the inner environment.

        Args:
            action: Passed through.

        Returns:
            The step result with the time-augmented observation.
        """
        self.timesteps += 1
        return super().step(action)

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Value, _Info]:
        """Reset the inner environment and the step count.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The reset result with time 0.
        """
        self.timesteps = 0
        return super().reset(seed=seed, options=options)


class NormalizeObservation(ObservationWrapper[_Array, ActType, ObsType], RecordConstructorArgs, StatisticsToggle):
    """Standardise observations with a running mean and variance (updated on every observation by default).

    The space becomes an unbounded float32 Box of the same shape. Set :attr:`update_running_mean` to ``False`` to
    freeze the statistics (e.g. for evaluation).

    Args:
        env: The environment to wrap; its observation space must have a shape.
        epsilon: Added to the variance before the square root; positive.

    Raises:
        InvalidBound: If ``epsilon`` is not positive (also a ``ValueError``).
        ValueError: If the observation space has no shape.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = NormalizeObservation(CartPoleEnv())
        >>> obs, _ = env.reset(seed=0)
        >>> obs.dtype, env.observation_space.shape
        (dtype('float32'), (4,))
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], epsilon: float = 1e-8) -> None:
        require_real("NormalizeObservation", "epsilon", epsilon)
        if not epsilon > 0:
            raise BoundError(f"NormalizeObservation epsilon must be > 0, got {epsilon!r}")
        RecordConstructorArgs.__init__(self, epsilon=epsilon)
        ObservationWrapper.__init__(self, env)
        shape = env.observation_space.shape
        if shape is None:
            raise ValueError(f"NormalizeObservation env.observation_space must have a shape, got {env.observation_space!r}")
        self.observation_space = Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32)
        self.obs_rms = RunningMeanStd(shape=shape, dtype=np.float32)
        self.epsilon = epsilon
        self._update_running_mean = True

    def observation(self, observation: ObsType) -> _Array:
        """Update the statistics (if enabled) and standardise the observation.

        Args:
            observation: The inner observation.

        Returns:
            ``(obs - mean) / sqrt(var + epsilon)`` as float32.
        """
        if self._update_running_mean:
            self.obs_rms.update(np.array([observation]))
        centred = np.asarray(observation) - self.obs_rms.mean
        standardised: _Array = np.asarray(centred / np.sqrt(self.obs_rms.var + self.epsilon), dtype=np.float32)
        return standardised


class MaxAndSkipObservation(Wrapper[_Array, ActType, ObsType, ActType], RecordConstructorArgs):
    """Repeat each action ``skip`` times, sum the rewards, and return the elementwise max of the last two frames.

    Stops early when the episode ends.

    Args:
        env: The environment to wrap; its observation space must have a shape.
        skip: How many inner steps per step; at least 2.

    Raises:
        TypeError: If ``skip`` is not an int.
        ValueError: If ``skip < 2`` or the observation space has no shape.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = MaxAndSkipObservation(CartPoleEnv(), skip=2)
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[1]
        2.0
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], skip: int = 4) -> None:
        RecordConstructorArgs.__init__(self, skip=skip)
        Wrapper.__init__(self, env)
        if not is_int(skip):
            raise TypeError(f"MaxAndSkipObservation skip must be an int, got {skip!r}")
        if skip < 2:
            raise ValueError(f"MaxAndSkipObservation skip must be >= 2, got {skip!r}")
        space = env.observation_space
        if space.shape is None:
            raise ValueError(f"MaxAndSkipObservation env.observation_space must have a shape, got {space!r}")
        self._skip = int(skip)
        self._obs_buffer: _Array = np.zeros((2, *space.shape), dtype=space.dtype)

    def step(self, action: ActType) -> tuple[_Array, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment up to ``skip`` times with the same action.

        Args:
            action: Repeated.

        Returns:
            ``(max of the last two observations, summed reward, terminated, truncated, last info)``.
        """
        total_reward = 0.0
        terminated: bool = False
        truncated: bool = False
        info: _Info = {}
        for i in range(self._skip):
            obs, reward, terminated, truncated, info = self.env.step(action)
            if i == self._skip - 2:
                self._obs_buffer[0] = obs
            if i == self._skip - 1:
                self._obs_buffer[1] = obs
            total_reward += float(reward)
            if terminated or truncated:
                break
        return np.max(self._obs_buffer, axis=0), total_reward, terminated, truncated, info
