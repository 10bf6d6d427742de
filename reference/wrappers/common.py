"""The wrappers ``make`` applies, plus auto-reset and episode statistics.

* :class:`TimeLimit` truncates episodes after a number of steps.
* :class:`OrderEnforcing` raises :class:`~reference.error.ResetNeeded` for ``step``/``render`` before ``reset``.
* :class:`PassiveEnvChecker` checks every ``reset``, ``step`` and ``render`` result against the API (defined in
  :mod:`reference.wrappers._passive_env_checker`, re-exported here where Gymnasium has it).
* :class:`Autoreset` resets on the step after an episode ends (next-step semantics).
* :class:`RecordEpisodeStatistics` adds episode return, length and time to the final step's ``info``.

``TimeLimit``, ``OrderEnforcing`` and ``PassiveEnvChecker`` sit on every ``make`` hot path, so their ``step``
methods avoid repacking the result tuple when they do not change it.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING, Any, SupportsFloat, TypeAlias

import gymspec
from gymspec import RenderResult
from reference._framework import require_bool
from reference import error
from reference.core import ActType, ObsType, Wrapper
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import is_int
from reference.wrappers._passive_env_checker import PassiveEnvChecker
from reference.wrappers.utils import derived_spec, read_only_spec

if TYPE_CHECKING:
    from reference.registration import EnvSpec

__all__ = ["Autoreset", "OrderEnforcing", "PassiveEnvChecker", "RecordEpisodeStatistics", "TimeLimit"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]


class TimeLimit(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Truncate the episode once ``max_episode_steps`` steps have been taken since the last ``reset``.

    ``truncated`` becomes ``True`` on step ``max_episode_steps`` (and stays ``True`` on any later step);
    ``terminated`` is passed through unchanged. The spec records the limit as ``max_episode_steps``.

    Args:
        env: The environment to wrap.
        max_episode_steps: The step on which to truncate; a positive int.

    Raises:
        TypeError: If ``max_episode_steps`` is not an int.
        ValueError: If ``max_episode_steps`` is not positive or exceeds ``2**63 - 1``.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = TimeLimit(CartPoleEnv(), max_episode_steps=2)
        >>> env
        <TimeLimit<CartPoleEnv instance>>
        >>> _ = env.reset(seed=0)
        >>> [env.step(0)[3] for _ in range(3)]
        [False, True, True]
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], max_episode_steps: int) -> None:
        if not is_int(max_episode_steps):
            raise TypeError(f"TimeLimit max_episode_steps must be an int, got {max_episode_steps!r}")
        if not 0 < max_episode_steps < 2**63:
            # The limit is recorded in the spec, whose step counts are int64 wherever they are stored.
            raise ValueError(f"TimeLimit max_episode_steps must be positive and at most 2**63 - 1, got {max_episode_steps!r}")
        RecordConstructorArgs.__init__(self, max_episode_steps=max_episode_steps)
        Wrapper.__init__(self, env)
        self._max_episode_steps = int(max_episode_steps)
        self._elapsed_steps: int | None = None

    @property
    def max_episode_steps(self) -> int:
        """The step on which episodes are truncated."""
        return self._max_episode_steps

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment and truncate once the limit is reached.

        Args:
            action: Passed through.

        Returns:
            The inner step result, with ``truncated=True`` from step ``max_episode_steps`` on.

        Raises:
            ResetNeeded: If the wrapper was never reset.
        """
        result = self.env.step(action)
        try:
            elapsed = self._elapsed_steps + 1  # type: ignore[operator]
        except TypeError:
            raise error.ResetNeeded("TimeLimit step() called before reset(); call reset() first") from None
        self._elapsed_steps = elapsed
        if elapsed >= self._max_episode_steps:
            obs, reward, terminated, _, info = result
            return obs, reward, terminated, True, info
        return result

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment and the step counter.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        self._elapsed_steps = 0
        return self.env.reset(seed=seed, options=options)

    @property
    def spec(self) -> EnvSpec | None:
        """The inner spec with ``max_episode_steps`` set to this wrapper's limit."""
        return derived_spec(self, max_episode_steps=self._max_episode_steps)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        raise read_only_spec(self)


class OrderEnforcing(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Raise :class:`~reference.error.ResetNeeded` when ``step`` (or ``render``) is called before ``reset``.

    Args:
        env: The environment to wrap.
        disable_render_order_enforcing: Allow ``render`` before the first ``reset``.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = OrderEnforcing(CartPoleEnv())
        >>> env.step(0)
        Traceback (most recent call last):
            ...
        gymspec.errors.ResetNeeded: Cannot call env.step() before calling env.reset()
        >>> _ = env.reset()
        >>> env.has_reset
        True
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], disable_render_order_enforcing: bool = False) -> None:
        require_bool("OrderEnforcing", disable_render_order_enforcing=disable_render_order_enforcing)
        RecordConstructorArgs.__init__(self, disable_render_order_enforcing=disable_render_order_enforcing)
        Wrapper.__init__(self, env)
        self._has_reset = False
        self._disable_render_order_enforcing = bool(disable_render_order_enforcing)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment, once it has been reset.

        Args:
            action: Passed through.

        Returns:
            The inner step result.

        Raises:
            ResetNeeded: If ``reset`` was never called.
        """
        if not self._has_reset:
            raise error.ResetNeeded("Cannot call env.step() before calling env.reset()")
        return self.env.step(action)

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment and allow ``step``/``render`` from now on.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        self._has_reset = True
        if type(self).step is OrderEnforcing.step:
            # Once reset, step can never raise again, so the inner bound method is stored on the instance and
            # shadows OrderEnforcing.step: the layer then costs nothing per step on make's hot path. It is
            # re-bound on every reset (so a replaced ``env`` is picked up there) and never set for subclasses
            # that override step. setattr, not __dict__: touching __dict__ turns the instance's attribute storage
            # into a real dict, which makes every later attribute read on it about twice as slow (CPython 3.11).
            setattr(self, "step", self.env.step)  # noqa: B010
        return self.env.reset(seed=seed, options=options)

    def render(self) -> RenderResult:
        """Render the inner environment, once it has been reset (unless render order enforcing is disabled).

        Returns:
            The inner frame(s).

        Raises:
            ResetNeeded: If ``reset`` was never called and render order enforcing is on.
        """
        if not self._has_reset and not self._disable_render_order_enforcing:
            raise error.ResetNeeded(
                "Cannot call `env.render()` before calling `env.reset()`, if this is an intended action, "
                "set `disable_render_order_enforcing=True` on the OrderEnforcer wrapper."
            )
        return self.env.render()

    @property
    def has_reset(self) -> bool:
        """Whether ``reset`` has been called."""
        return self._has_reset

    @property
    def spec(self) -> EnvSpec | None:
        """The inner spec with ``order_enforce=True``."""
        return derived_spec(self, order_enforce=True)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        raise read_only_spec(self)


class Autoreset(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Reset automatically on the ``step`` call after an episode terminated or truncated (next-step autoreset).

    That ``step`` ignores its action and returns ``(reset_obs, 0.0, False, False, reset_info)``.

    Args:
        env: The environment to wrap.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = Autoreset(TimeLimit(CartPoleEnv(), max_episode_steps=2))
        >>> _ = env.reset(seed=0)
        >>> [env.step(0)[1:4] for _ in range(3)]
        [(1.0, False, False), (1.0, False, True), (0.0, False, False)]
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)
        self.autoreset = False

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        self.autoreset = False
        return self.env.reset(seed=seed, options=options)

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment, or reset it if the previous step ended the episode.

        Args:
            action: Passed through (ignored on the resetting step).

        Returns:
            The step result, or ``(obs, 0.0, False, False, info)`` from the reset.
        """
        if self.autoreset:
            obs, info = self.env.reset()
            reward: SupportsFloat = 0.0
            terminated: bool = False
            truncated: bool = False
        else:
            obs, reward, terminated, truncated, info = self.env.step(action)
        self.autoreset = bool(terminated or truncated)
        return obs, reward, terminated, truncated, info


class RecordEpisodeStatistics(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Track each episode's return, length and wall time; add them to the final step's ``info``.

    On the step that ends an episode, ``info[stats_key] = {"r": return, "l": length, "t": seconds}``. The last
    ``buffer_length`` values are kept in :attr:`return_queue`, :attr:`length_queue` and :attr:`time_queue`.

    Args:
        env: The environment to wrap.
        buffer_length: How many finished episodes the queues keep; a positive int.
        stats_key: The ``info`` key for the statistics.

    Raises:
        ValueError: If ``buffer_length`` is not a positive int or ``stats_key`` is not a str.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = RecordEpisodeStatistics(TimeLimit(CartPoleEnv(), max_episode_steps=3))
        >>> _ = env.reset(seed=0)
        >>> for _ in range(3):
        ...     _, _, terminated, truncated, info = env.step(0)
        >>> info["episode"]["r"], info["episode"]["l"], list(env.length_queue)
        (3.0, 3, [3])
    """

    def __init__(
        self, env: gymspec.Env[ObsType, ActType], buffer_length: int = 100, stats_key: str = "episode"
    ) -> None:
        if not is_int(buffer_length) or not 1 <= buffer_length < 2**63:
            raise ValueError(
                f"RecordEpisodeStatistics buffer_length must be a positive int below 2**63, got {buffer_length!r}"
            )
        if not isinstance(stats_key, str):
            raise ValueError(f"RecordEpisodeStatistics stats_key must be a str, got {stats_key!r}")
        RecordConstructorArgs.__init__(self, buffer_length=buffer_length, stats_key=stats_key)
        Wrapper.__init__(self, env)
        self._stats_key = stats_key
        self.episode_count = 0
        self.episode_start_time: float = -1
        self.episode_returns: float = 0.0
        self.episode_lengths: int = 0
        self.time_queue: deque[float] = deque(maxlen=int(buffer_length))
        self.return_queue: deque[float] = deque(maxlen=int(buffer_length))
        self.length_queue: deque[int] = deque(maxlen=int(buffer_length))

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment and record the statistics when the episode ends.

        Args:
            action: Passed through.

        Returns:
            The inner step result; at the end of an episode ``info`` gains the statistics.

        Raises:
            ValueError: If the inner ``info`` already has ``stats_key`` at the end of an episode.
        """
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.episode_returns += float(reward)
        self.episode_lengths += 1
        if terminated or truncated:
            if self._stats_key in info:
                raise ValueError(
                    f"RecordEpisodeStatistics stats_key must not already be in the step info, got {self._stats_key!r} "
                    f"in info keys {list(info)}; pass a different stats_key"
                )
            episode_time = round(time.perf_counter() - self.episode_start_time, 6)
            info[self._stats_key] = {"r": self.episode_returns, "l": self.episode_lengths, "t": episode_time}
            self.time_queue.append(episode_time)
            self.return_queue.append(self.episode_returns)
            self.length_queue.append(self.episode_lengths)
            self.episode_count += 1
            self.episode_start_time = time.perf_counter()
        return obs, reward, terminated, truncated, info

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment and the running episode statistics.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        obs, info = self.env.reset(seed=seed, options=options)
        self.episode_start_time = time.perf_counter()
        self.episode_returns = 0.0
        self.episode_lengths = 0
        return obs, info
