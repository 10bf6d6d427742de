"""Vector wrappers that observe episodes without changing the data.

* :class:`RecordEpisodeStatistics` reports each finished episode's return, length and duration in ``info``.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_dict
from reference.core import ActType, ObsType
from reference.vector.vector_env import AutoresetMode, VectorEnv, VectorWrapper
from reference.wrappers._shared import is_int
from reference.wrappers.vector._utils import declared_autoreset_mode, reset_mask

__all__ = ["RecordEpisodeStatistics"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Seed: TypeAlias = "int | list[int | None] | None"
_Floats: TypeAlias = NDArray[np.float64]
_Bools: TypeAlias = NDArray[np.bool_]
_Ints: TypeAlias = NDArray[np.int64]
_Batch: TypeAlias = NDArray[Any]


class RecordEpisodeStatistics(VectorWrapper[ObsType, ActType, ObsType, ActType, _Batch]):
    """Track every sub-environment's episode return, length and wall-clock duration.

    On a step where some sub-environments' episodes end, ``info[stats_key]`` is ``{"r": returns, "l": lengths,
    "t": seconds}`` (``(num_envs,)`` arrays, zero where no episode ended) and ``info["_" + stats_key]`` is the bool
    mask of the sub-environments that ended. The last ``buffer_length`` episodes are also kept in
    :attr:`return_queue`, :attr:`length_queue` and :attr:`time_queue`, and :attr:`episode_count` counts them.

    Every autoreset mode is supported: under ``NextStep`` the reset step after an episode end is not counted, under
    ``SameStep`` every step counts (the statistics restart in the step that ends the episode), and under
    ``Disabled`` a partial ``reset(options={"reset_mask": mask})`` restarts only the masked sub-environments'
    statistics (Gymnasium 1.4 restarts all of them there, because its vector environment pops the mask before the
    wrapper sees it).

    Args:
        env: The vector environment to wrap.
        buffer_length: The capacity of the three queues; a positive int.
        stats_key: The info key of the statistics.

    Raises:
        TypeError: ``buffer_length`` is not an int or ``stats_key`` is not a string.
        ValueError: ``buffer_length`` is not positive, or the environment declares an unknown autoreset mode.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> from reference.vector import SyncVectorEnv
        >>> envs = RecordEpisodeStatistics(SyncVectorEnv([CartPoleEnv] * 3))
        >>> _ = envs.reset(seed=123)
        >>> while True:
        ...     *_, info = envs.step(np.array([1, 1, 1]))
        ...     if "episode" in info:
        ...         break
        >>> info["_episode"], info["episode"]["r"], info["episode"]["l"]
        (array([ True, False,  True]), array([9., 0., 9.]), array([9, 0, 9]))
        >>> envs.close()
    """

    episode_count: int
    episode_start_times: _Floats
    episode_returns: _Floats
    episode_lengths: _Ints
    prev_dones: _Bools
    time_queue: deque[np.float64]
    return_queue: deque[np.float64]
    length_queue: deque[np.int64]

    def __init__(
        self, env: VectorEnv[ObsType, ActType, _Batch], buffer_length: int = 100, stats_key: str = "episode"
    ) -> None:
        if not is_int(buffer_length):
            raise TypeError(f"RecordEpisodeStatistics buffer_length must be an int, got {buffer_length!r}")
        if not 1 <= buffer_length < 2**63:
            raise ValueError(f"RecordEpisodeStatistics buffer_length must be >= 1 and below 2**63, got {buffer_length!r}")
        if not isinstance(stats_key, str):
            raise TypeError(f"RecordEpisodeStatistics stats_key must be a str, got {stats_key!r}")
        super().__init__(env)
        self._stats_key = stats_key
        self._autoreset_mode = declared_autoreset_mode(type(self).__name__, env)
        n = self.num_envs
        self.episode_count = 0
        self.episode_start_times = np.zeros(n)
        self.episode_returns = np.zeros(n)
        self.episode_lengths = np.zeros(n, dtype=np.int64)
        self.prev_dones = np.zeros(n, dtype=np.bool_)
        self.time_queue = deque(maxlen=int(buffer_length))
        self.return_queue = deque(maxlen=int(buffer_length))
        self.length_queue = deque(maxlen=int(buffer_length))

    def reset(self, seed: _Seed = None, options: _Options | None = None) -> tuple[ObsType, _Info]:  # pyright: ignore[reportIncompatibleMethodOverride]
        """Reset the environment and restart the statistics of the reset sub-environments.

        Args:
            seed: Passed through (positional, as in Gymnasium).
            options: Passed through; ``options["reset_mask"]`` restricts the restart to the masked sub-envs.

        Returns:
            The wrapped environment's ``(observations, info)``.
        """
        mask = reset_mask(type(self).__name__, options, self.num_envs)
        obs, info = self.env.reset(seed=seed, options=options)
        selected = slice(None) if mask is None else mask
        self.episode_start_times[selected] = time.perf_counter()
        self.episode_returns[selected] = 0.0
        self.episode_lengths[selected] = 0
        self.prev_dones[selected] = False
        return obs, info

    def step(self, actions: ActType) -> tuple[ObsType, _Floats, _Bools, _Bools, _Info]:
        """Step the environment and add the statistics of the episodes that ended to ``info``.

        Args:
            actions: Passed through.

        Returns:
            The step result; ``info`` gains ``stats_key`` and ``"_" + stats_key`` when an episode ended.

        Raises:
            TypeError: The wrapped environment's info is not a dict (e.g. ``DictInfoToList`` is inside).
            ValueError: The info already has the statistics keys.
        """
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        if not is_dict(infos):
            raise TypeError(
                f"RecordEpisodeStatistics env info must be a dict, got {type(infos).__name__}; "
                "wrap DictInfoToList outside RecordEpisodeStatistics, not inside"
            )
        if self._autoreset_mode is AutoresetMode.SAME_STEP:
            # Ended sub-envs were reset inside their final step, so every step belongs to some episode.
            self.episode_returns += rewards
            self.episode_lengths += 1
        else:
            # The step after an episode end is the (NextStep) reset step: it starts the next episode's counters.
            restarted = self.prev_dones
            running = ~restarted
            self.episode_returns[restarted] = 0.0
            self.episode_returns[running] += rewards[running]
            self.episode_lengths[restarted] = 0
            self.episode_lengths[running] += 1
            self.episode_start_times[restarted] = time.perf_counter()

        dones = np.logical_or(terminations, truncations)
        self.prev_dones = dones.copy()
        if dones.any():
            infos = self._record(infos, dones)
        return observations, rewards, terminations, truncations, infos

    def _record(self, infos: _Info, dones: _Bools) -> _Info:
        key, mask_key = self._stats_key, f"_{self._stats_key}"
        if key in infos or mask_key in infos:
            raise ValueError(
                f"RecordEpisodeStatistics info must not already contain {key!r} or {mask_key!r}, got keys "
                f"{list(infos)}; pass another stats_key"
            )
        durations = np.round(time.perf_counter() - self.episode_start_times, 6)
        infos = {
            **infos,
            key: {
                "r": np.where(dones, self.episode_returns, 0.0),
                "l": np.where(dones, self.episode_lengths, 0),
                "t": np.where(dones, durations, 0.0),
            },
            mask_key: dones,
        }
        ended = np.flatnonzero(dones)
        self.episode_count += len(ended)
        self.time_queue.extend(durations[ended])
        self.return_queue.extend(self.episode_returns[ended])
        self.length_queue.extend(self.episode_lengths[ended])
        if self._autoreset_mode is AutoresetMode.SAME_STEP:
            self.episode_returns[dones] = 0.0
            self.episode_lengths[dones] = 0
            self.episode_start_times[dones] = time.perf_counter()
        return infos
