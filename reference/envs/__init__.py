"""The built-in environments, registered under Gymnasium's ids with Gymnasium's spec values.

Importing this package registers every classic-control and toy-text environment; the classes themselves are
imported only when an id is made. Spec values (``max_episode_steps``, ``reward_threshold``, ``kwargs``) match
Gymnasium 1.4's, so ``make("CartPole-v1")`` here and in Gymnasium build equivalent environments.
"""

from __future__ import annotations

from reference.envs.functional import register_functional_envs
from reference.registration import make, pprint_registry, register, registry, spec

__all__ = ["make", "pprint_registry", "register", "registry", "spec"]

_CLASSIC = "reference.envs.classic_control"
_TOY = "reference.envs.toy_text"

# --- classic control ----------------------------------------------------------------------------------------------

register(
    id="CartPole-v0",
    entry_point=f"{_CLASSIC}.cartpole:CartPoleEnv",
    # Like Gymnasium's: one batched NumPy step for all sub-envs.
    vector_entry_point=f"{_CLASSIC}.cartpole:CartPoleVectorEnv",
    max_episode_steps=200,
    reward_threshold=195.0,
)
register(
    id="CartPole-v1",
    entry_point=f"{_CLASSIC}.cartpole:CartPoleEnv",
    # Like Gymnasium's: one batched NumPy step for all sub-envs.
    vector_entry_point=f"{_CLASSIC}.cartpole:CartPoleVectorEnv",
    max_episode_steps=500,
    reward_threshold=475.0,
)
register(
    id="MountainCar-v0",
    entry_point=f"{_CLASSIC}.mountain_car:MountainCarEnv",
    max_episode_steps=200,
    reward_threshold=-110.0,
)
register(
    id="MountainCarContinuous-v0",
    entry_point=f"{_CLASSIC}.continuous_mountain_car:Continuous_MountainCarEnv",
    max_episode_steps=999,
    reward_threshold=90.0,
)
register(
    id="Pendulum-v1",
    entry_point=f"{_CLASSIC}.pendulum:PendulumEnv",
    max_episode_steps=200,
)
register(
    id="Acrobot-v1",
    entry_point=f"{_CLASSIC}.acrobot:AcrobotEnv",
    reward_threshold=-100.0,
    max_episode_steps=500,
)

# --- toy text -----------------------------------------------------------------------------------------------------

register(
    id="Blackjack-v1",
    entry_point=f"{_TOY}.blackjack:BlackjackEnv",
    kwargs={"sab": True, "natural": False},
)
register(
    id="FrozenLake-v1",
    entry_point=f"{_TOY}.frozen_lake:FrozenLakeEnv",
    kwargs={"map_name": "4x4"},
    max_episode_steps=100,
    reward_threshold=0.70,  # the optimal policy scores about 0.74
)
register(
    id="FrozenLake8x8-v1",
    entry_point=f"{_TOY}.frozen_lake:FrozenLakeEnv",
    kwargs={"map_name": "8x8"},
    max_episode_steps=200,
    reward_threshold=0.85,  # the optimal policy scores about 0.91
)
register(
    id="CliffWalking-v1",
    entry_point=f"{_TOY}.cliffwalking:CliffWalkingEnv",
)
register(
    id="CliffWalkingSlippery-v1",
    entry_point=f"{_TOY}.cliffwalking:CliffWalkingEnv",
    kwargs={"is_slippery": True},
)
register(
    id="Taxi-v4",
    entry_point=f"{_TOY}.taxi:TaxiEnv",
    reward_threshold=8,  # the optimal policy scores about 8.46
    max_episode_steps=200,
)

# --- functional (phys2d) ------------------------------------------------------------------------------------------

register_functional_envs()
