"""PendulumEnv: differential against Gymnasium (gravity, reset options, out-of-range torques)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.classic_control.pendulum import PendulumEnv
from tests.reference.envs._differential import box_actions, run_lockstep

gym_pendulum = pytest.importorskip("gymnasium.envs.classic_control.pendulum")
pytestmark = pytest.mark.gymnasium


@settings(max_examples=50, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    actions=box_actions(-2.0, 2.0, margin=1.0),
    g=st.sampled_from([10.0, 9.81, 3]),
    options=st.one_of(st.none(), st.fixed_dictionaries({"x_init": st.floats(0, 4), "y_init": st.floats(0, 2)})),
)
def test_matches_gymnasium(seed: int, actions: list[np.ndarray], g: float, options: dict[str, float] | None) -> None:
    run_lockstep(PendulumEnv(g=g), gym_pendulum.PendulumEnv(g=g), seed, actions, options=options)


def test_matches_gymnasium_with_float64_torques() -> None:
    actions = [np.array([v], dtype=np.float64) for v in np.linspace(-3, 3, 50)]
    run_lockstep(PendulumEnv(), gym_pendulum.PendulumEnv(), 5, actions)


def test_bad_actions_and_options() -> None:
    env = PendulumEnv()
    with pytest.raises(ResetNeeded):
        env.step(np.zeros(1, dtype=np.float32))
    env.reset(seed=0)
    with pytest.raises(InvalidAction):
        env.step(np.float32(1.0))  # pyright: ignore[reportArgumentType] - the wrong type under test
    with pytest.raises(ValueError, match="x_init"):
        env.reset(options={"x_init": "wide"})
