"""Tabular toy-text tasks: Blackjack, FrozenLake, CliffWalking and Taxi."""

from __future__ import annotations

from reference.envs.toy_text.blackjack import BlackjackEnv
from reference.envs.toy_text.cliffwalking import CliffWalkingEnv
from reference.envs.toy_text.frozen_lake import FrozenLakeEnv
from reference.envs.toy_text.taxi import TaxiEnv

__all__ = ["BlackjackEnv", "CliffWalkingEnv", "FrozenLakeEnv", "TaxiEnv"]
