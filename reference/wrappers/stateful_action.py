"""Action wrappers that keep state across steps.

* :class:`StickyAction` repeats the previous action with some probability (drawn from ``np_random``).
* :class:`RepeatAction` applies each action a fixed number of times.
"""

from __future__ import annotations

from typing import Any, SupportsFloat, TypeAlias

import gymspec
from reference._narrowing import is_tuple
from reference.core import ActionWrapper, ActType, ObsType, Wrapper
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import require_real
from reference.wrappers.utils import BoundError, ProbabilityError

__all__ = ["RepeatAction", "StickyAction"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class StickyAction(ActionWrapper[ObsType, ActType, ActType], RecordConstructorArgs):
    """With probability ``repeat_action_probability``, ignore the action and repeat the previous one.

    A repeat lasts a number of steps drawn uniformly from ``repeat_action_duration`` (an int or an inclusive
    ``(low, high)`` range). Randomness comes from the environment's ``np_random``, so seeded runs replay.

    Args:
        env: The environment to wrap.
        repeat_action_probability: The probability of starting a repeat, in ``[0, 1)``.
        repeat_action_duration: Steps per repeat: an int >= 1 or a ``(low, high)`` tuple with ``1 <= low <= high``.

    Raises:
        InvalidProbability: If the probability is outside ``[0, 1)`` (also a ``ValueError``).
        InvalidBound: If ``low > high`` (also a ``ValueError``).
        ValueError: If the duration is not an int or a pair of ints >= 1.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = StickyAction(CartPoleEnv(), repeat_action_probability=0.9)
        >>> _ = env.reset(seed=1)
        >>> env.action(1), env.action(0)
        (1, 1)
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        repeat_action_probability: float,
        repeat_action_duration: int | tuple[int, int] = 1,
    ) -> None:
        require_real("StickyAction", "repeat_action_probability", repeat_action_probability)
        if not 0 <= repeat_action_probability < 1:
            raise ProbabilityError(
                f"StickyAction repeat_action_probability must be in [0, 1), got {repeat_action_probability!r}"
            )
        duration: tuple[int, int]
        if _is_int(repeat_action_duration):
            duration = (repeat_action_duration, repeat_action_duration)  # type: ignore[assignment]
        elif (
            is_tuple(repeat_action_duration)
            and len(repeat_action_duration) == 2
            and all(_is_int(d) for d in repeat_action_duration)
        ):
            duration = repeat_action_duration
        else:
            raise ValueError(
                f"StickyAction repeat_action_duration must be an int or a (low, high) tuple of ints, got "
                f"{repeat_action_duration!r}"
            )
        if duration[0] > duration[1]:
            raise BoundError(f"StickyAction repeat_action_duration must have low <= high, got {duration!r}")
        if duration[0] < 1:
            raise ValueError(f"StickyAction repeat_action_duration must be >= 1, got {duration!r}")
        RecordConstructorArgs.__init__(
            self, repeat_action_probability=repeat_action_probability, repeat_action_duration=repeat_action_duration
        )
        ActionWrapper.__init__(self, env)
        self.repeat_action_probability = repeat_action_probability
        self.repeat_action_duration_range = duration
        self.last_action: ActType | None = None
        self.is_sticky_actions = False
        self.num_repeats = 0
        self.repeats_taken = 0

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the inner environment and forget the previous action.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        self.last_action = None
        self.is_sticky_actions = False
        self.num_repeats = 0
        self.repeats_taken = 0
        return self.env.reset(seed=seed, options=options)

    def action(self, action: ActType) -> ActType:
        """Return ``action``, or the previous action while a repeat is in progress.

        Args:
            action: The requested action.

        Returns:
            The action to execute.
        """
        # Same draw order as Gymnasium (uniform, then the duration), so seeded runs match.
        if self.is_sticky_actions or (
            self.last_action is not None and self.np_random.uniform() < self.repeat_action_probability
        ):
            if self.num_repeats == 0:
                low, high = self.repeat_action_duration_range
                self.num_repeats = int(self.np_random.integers(low, high + 1))
            action = self.last_action  # type: ignore[assignment]
            self.is_sticky_actions = True
            self.repeats_taken += 1
        if self.is_sticky_actions and self.num_repeats == self.repeats_taken:
            self.is_sticky_actions = False
            self.num_repeats = 0
            self.repeats_taken = 0
        self.last_action = action
        return action


class RepeatAction(Wrapper[ObsType, ActType, ObsType, ActType], RecordConstructorArgs):
    """Apply each action ``num_repeats`` times (stopping when the episode ends) and sum the rewards.

    Args:
        env: The environment to wrap.
        num_repeats: Inner steps per step; an int >= 1.

    Raises:
        TypeError: If ``num_repeats`` is not an int.
        ValueError: If it is below 1.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = RepeatAction(CartPoleEnv(), num_repeats=3)
        >>> _ = env.reset(seed=0)
        >>> env.step(0)[1]
        3.0
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], num_repeats: int) -> None:
        if not _is_int(num_repeats):
            raise TypeError(f"RepeatAction num_repeats must be an int, got {num_repeats!r}")
        if num_repeats < 1:
            raise ValueError(f"RepeatAction num_repeats must be >= 1, got {num_repeats!r}")
        RecordConstructorArgs.__init__(self, num_repeats=num_repeats)
        Wrapper.__init__(self, env)
        self.num_repeats = num_repeats

    def step(self, action: ActType) -> tuple[ObsType, SupportsFloat, bool, bool, _Info]:
        """Step the inner environment up to ``num_repeats`` times.

        Args:
            action: Repeated.

        Returns:
            The last step result with the summed reward.
        """
        total_reward = 0.0
        for _ in range(self.num_repeats):
            obs, reward, terminated, truncated, info = self.env.step(action)
            total_reward += float(reward)
            if terminated or truncated:
                break
        # num_repeats is validated positive, so the loop ran at least once.
        return obs, total_reward, terminated, truncated, info  # pyright: ignore[reportPossiblyUnboundVariable, reportReturnType]
