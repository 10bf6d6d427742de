"""Wrapper chains and generic user code, written as users write them: checked by mypy and pyright, never executed.

Each function is one shape of issue 27 that a checker used to reject:

* a chain of wrappers: an ``ObservationWrapper`` subclass turning ``uint8`` frames into ``float32`` ones, with
  ``RecordEpisodeStatistics`` and ``TimeLimit`` around it, each layer assigned to ``gymspec.Wrapper`` with its outer
  and inner types. Gymnasium's wrapper classes type their ``env`` with the *outer* types (``Wrapper.env:
  Env[WrapperObsType, WrapperActType]``), so ``gymspec.Wrapper.env`` does not hold an inner observation type to them;
* a ``gymnasium.ObservationWrapper`` subclass as ``gymspec.Env``: Gymnasium types its ``observation_space`` as
  ``Space[ObsType] | Space[WrapperObsType]``, which ``gymspec.Env`` accepts since it no longer solves the
  observation type from the space;
* a generic ``collect(env: Env[ObsT, ActT], policy: Callable[[ObsT], ActT], ...)`` given ``FrozenLakeEnv`` and an
  ``int -> int`` policy: ``ObsT`` is solved from ``reset``/``step`` alone (``int``), not joined with the
  ``Discrete`` space's ``np.int64``;
* consumer code as Gymnasium's docs write it, ``done = False`` ... ``done = terminated or truncated``: the flags are
  ``bool``.

Gymnasium's wrappers cannot be put *around* a reference wrapper: their ``__init__`` takes a ``gymnasium.Env`` (and
raises ``TypeError`` at run time for anything else), so the mixed chains below put the reference layer outside.
``negative/cases.py`` holds the mismatched shapes these must not let through.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import gymnasium
import numpy as np
from gymnasium.envs.toy_text.frozen_lake import FrozenLakeEnv as GymFrozenLake
from gymnasium.wrappers import RecordEpisodeStatistics as GymRecordEpisodeStatistics
from gymnasium.wrappers import TimeLimit as GymTimeLimit
from numpy.typing import NDArray

import gymspec
import reference
from reference.envs.toy_text.frozen_lake import FrozenLakeEnv
from reference.spaces import Box, Discrete
from reference.wrappers import RecordEpisodeStatistics, TimeLimit

ObsT = TypeVar("ObsT")
ActT = TypeVar("ActT")
U8 = NDArray[np.uint8]
F32 = NDArray[np.float32]


def collect(env: gymspec.Env[ObsT, ActT], policy: Callable[[ObsT], ActT], steps: int) -> list[ObsT]:
    """A user's generic rollout: the policy's types must fit the env's."""
    obs, _ = env.reset(seed=0)
    seen = [obs]
    for _ in range(steps):
        obs, _, terminated, truncated, _ = env.step(policy(obs))
        seen.append(obs)
        if terminated or truncated:
            obs, _ = env.reset()
    return seen


def count_steps(env: gymspec.Env[gymspec.Value, int]) -> int:
    """Gymnasium's docs' loop, verbatim: ``done`` starts as ``False`` and takes ``terminated or truncated``."""
    env.reset(seed=0)
    steps = 0
    done = False
    while not done:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        done = terminated or truncated
        steps += 1
    return steps


def keep_going(terminated: bool, truncated: bool) -> bool:
    """A flag passed on to a ``bool`` parameter."""
    return not (terminated or truncated)


class Frames(reference.Env[U8, np.int64]):
    """A reference env with ``uint8`` frames and ``Discrete`` actions."""

    def __init__(self) -> None:
        self.observation_space = Box(0, 255, (4, 4), np.uint8)
        self.action_space = Discrete(2)


class ToFloat(reference.ObservationWrapper[F32, np.int64, U8]):
    """``uint8`` frames to ``float32`` in ``[0, 1]``."""

    def __init__(self, env: gymspec.Env[U8, np.int64]) -> None:
        super().__init__(env)
        self.observation_space = Box(0.0, 1.0, (4, 4), np.float32)

    def observation(self, observation: U8) -> F32:
        return (observation / 255).astype(np.float32)


class GymFrames(gymnasium.Env[U8, np.int64]):
    """The same env on Gymnasium's base class."""

    def __init__(self) -> None:
        self.observation_space = gymnasium.spaces.Box(0, 255, (4, 4), np.uint8)
        self.action_space = gymnasium.spaces.Discrete(2)


class GymToFloat(gymnasium.ObservationWrapper[F32, np.int64, U8]):
    """The same wrapper on Gymnasium's base class."""

    def __init__(self, env: gymnasium.Env[U8, np.int64]) -> None:
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, (4, 4), np.float32)

    def observation(self, observation: U8) -> F32:
        return (observation / 255).astype(np.float32)


def reference_chain() -> None:
    frames: gymspec.Wrapper[F32, np.int64, U8, np.int64] = ToFloat(Frames())
    stats: gymspec.Wrapper[F32, np.int64, F32, np.int64] = RecordEpisodeStatistics(ToFloat(Frames()))
    limited: gymspec.Wrapper[F32, np.int64, F32, np.int64] = TimeLimit(RecordEpisodeStatistics(ToFloat(Frames())), 9)
    as_env: gymspec.Env[F32, np.int64] = limited
    del frames, stats, as_env


def gymnasium_chain() -> None:
    frames: gymspec.Wrapper[F32, np.int64, U8, np.int64] = GymToFloat(GymFrames())
    stats: gymspec.Wrapper[F32, np.int64, F32, np.int64] = GymRecordEpisodeStatistics(GymToFloat(GymFrames()))
    limited: gymspec.Wrapper[F32, np.int64, F32, np.int64] = GymTimeLimit(
        GymRecordEpisodeStatistics(GymToFloat(GymFrames())), 9
    )
    del frames, stats, limited


def mixed_chains() -> None:
    # The reference's ObservationWrapper around Gymnasium's wrappers, and the reference's wrappers around
    # Gymnasium's ObservationWrapper subclass.
    outer_reference: gymspec.Wrapper[F32, np.int64, U8, np.int64] = ToFloat(
        GymTimeLimit(GymRecordEpisodeStatistics(GymFrames()), 9)
    )
    outer_stats: gymspec.Wrapper[F32, np.int64, F32, np.int64] = RecordEpisodeStatistics(GymToFloat(GymFrames()))
    outer_limit: gymspec.Wrapper[F32, np.int64, F32, np.int64] = TimeLimit(
        RecordEpisodeStatistics(GymToFloat(GymFrames())), 9
    )
    del outer_reference, outer_stats, outer_limit


def gymnasium_observation_wrapper_is_env() -> None:
    env: gymspec.Env[F32, np.int64] = GymToFloat(GymFrames())
    first: F32 = env.reset(seed=0)[0]
    del first


def generic_collect_solves_int_observations() -> None:
    def policy(obs: int) -> int:
        return obs % 4

    typed_policy: Callable[[int], int] = policy
    from_reference: list[int] = collect(FrozenLakeEnv(), typed_policy, 3)
    from_gymnasium: list[int] = collect(GymFrozenLake(), typed_policy, 3)
    del from_reference, from_gymnasium


def consumer_loops_type_the_flags_bool() -> None:
    count_steps(FrozenLakeEnv())
    count_steps(GymFrozenLake())
    count_steps(gymnasium.make("FrozenLake-v1"))
    env: gymspec.Env[int, int] = FrozenLakeEnv()
    _, _, terminated, truncated, _ = env.step(0)
    keep_going(terminated, truncated)


def action_space_is_typed_by_the_action_parameter(env: gymspec.Env[int, int]) -> int:
    """Seen through ``Env[O, A]``, ``action_space`` is a ``Space[A]``: its samples go straight into ``step``."""
    space: gymspec.Space[int] = env.action_space
    action: int = space.sample()
    env.step(action)
    return action
