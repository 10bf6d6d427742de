"""BlackjackEnv: differential against Gymnasium under every rule variant."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.toy_text.blackjack import BlackjackEnv, cmp, is_natural, score, sum_hand
from tests.reference.envs._differential import discrete_actions, run_lockstep

gym_blackjack = pytest.importorskip("gymnasium.envs.toy_text.blackjack")
pytestmark = pytest.mark.gymnasium


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), natural=st.booleans(), sab=st.booleans(), actions=discrete_actions(2))
def test_matches_gymnasium(seed: int, natural: bool, sab: bool, actions: list[int]) -> None:
    ours = BlackjackEnv(natural=natural, sab=sab)
    theirs = gym_blackjack.BlackjackEnv(natural=natural, sab=sab)
    endings = run_lockstep(ours, theirs, seed, actions)
    assert endings >= 1  # hands are short: 50+ actions always finish several
    assert ours.dealer_top_card_value_str == theirs.dealer_top_card_value_str
    assert ours.dealer_top_card_suit == theirs.dealer_top_card_suit


def test_hand_helpers() -> None:
    assert sum_hand([1, 5]) == 16 and sum_hand([1, 5, 10]) == 16
    assert score([10, 10, 5]) == 0
    assert is_natural([10, 1]) and not is_natural([1, 1, 9])
    assert (cmp(2, 1), cmp(1, 1), cmp(1, 2)) == (1.0, 0.0, -1.0)


def test_step_checks() -> None:
    env = BlackjackEnv()
    with pytest.raises(ResetNeeded):
        env.step(1)
    env.reset(seed=0)
    with pytest.raises(InvalidAction):
        env.step(2)
    obs, _ = env.reset(seed=0)
    assert obs in env.observation_space
