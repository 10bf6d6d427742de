"""Classic control tasks: CartPole, MountainCar (discrete and continuous), Pendulum and Acrobot."""

from __future__ import annotations

from reference.envs.classic_control.acrobot import AcrobotEnv
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.envs.classic_control.continuous_mountain_car import Continuous_MountainCarEnv
from reference.envs.classic_control.mountain_car import MountainCarEnv
from reference.envs.classic_control.pendulum import PendulumEnv

__all__ = ["AcrobotEnv", "CartPoleEnv", "Continuous_MountainCarEnv", "MountainCarEnv", "PendulumEnv"]
