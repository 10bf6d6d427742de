"""CliffWalkingEnv: differential against Gymnasium (plain and slippery), transition table and ansi text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.toy_text.cliffwalking import CliffWalkingEnv
from tests.reference.envs._differential import discrete_actions, policy_actions, run_lockstep

gym_cliff = pytest.importorskip("gymnasium.envs.toy_text.cliffwalking")
pytestmark = pytest.mark.gymnasium

seeds = st.integers(0, 2**32 - 1)


def _safe_path(obs: int) -> int:
    """Right along the two top rows, then down the last column (slips never reach the cliff).

    Slippery episodes end within about 240 steps (the worst of 300 seeds), plain ones in 14.
    """
    row, col = divmod(obs, 12)
    if col == 11:
        return 2
    if row >= 2:
        return 0
    return 1


@settings(max_examples=40, deadline=None)
@given(seed=seeds, slippery=st.booleans(), actions=discrete_actions(4))
def test_matches_gymnasium(seed: int, slippery: bool, actions: list[int]) -> None:
    ours, theirs = CliffWalkingEnv(is_slippery=slippery), gym_cliff.CliffWalkingEnv(is_slippery=slippery)
    assert ours.P == theirs.P
    run_lockstep(ours, theirs, seed, actions)


@settings(max_examples=8, deadline=None)
@given(seed=seeds, slippery=st.booleans())
def test_goal_reaching_episodes_match_gymnasium(seed: int, slippery: bool) -> None:
    actions = policy_actions(CliffWalkingEnv(is_slippery=slippery), seed, _safe_path, 400)
    endings = run_lockstep(
        CliffWalkingEnv(is_slippery=slippery), gym_cliff.CliffWalkingEnv(is_slippery=slippery), seed, actions
    )
    assert endings >= 1


def test_ansi_matches_gymnasium() -> None:
    ours, theirs = CliffWalkingEnv(render_mode="ansi"), gym_cliff.CliffWalkingEnv(render_mode="ansi")
    ours.reset(seed=0)
    theirs.reset(seed=0)
    for action in [None, 0, 1, 1, 2, 2, 1]:
        if action is not None:
            ours.step(action)
            theirs.step(action)
        assert ours.render() == theirs.render()


def test_step_checks() -> None:
    env = CliffWalkingEnv()
    with pytest.raises(ResetNeeded):
        env.step(0)
    assert env.reset(seed=1) == (36, {"prob": 1})
    with pytest.raises(InvalidAction):
        env.step(-1)
