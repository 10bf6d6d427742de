"""The example env passes the conformance suite, and its own behaviour is what its docstring promises."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from examples.random_walk import RandomWalkEnv
from gymspec.errors import ResetNeeded
from tests.meta._run import run_suite

TARGET = "examples.random_walk:RandomWalkEnv"


def test_suite_passes_on_the_example(tmp_path: Path) -> None:
    run = run_suite(["--env", TARGET, "--conformance-profile", "quick"], tmp_path / "report.json")
    outcomes = run.outcomes(TARGET)
    assert outcomes, run.output[-3000:]
    bad = {rule: outcome for rule, outcome in outcomes.items() if outcome in ("failed", "error", "warned")}
    assert not bad, run.output[-3000:]
    assert run.returncode == 0


def test_episode_ends_at_either_end_with_the_right_reward() -> None:
    env = RandomWalkEnv(size=5, slip=0.0)
    obs, _ = env.reset(seed=0)
    reward, terminated = 0.0, False
    while not terminated:
        obs, r, terminated, _, _ = env.step(1)
        reward = float(r)
    assert obs == 4 and reward == 1.0


@pytest.mark.parametrize(("kwargs", "message"), [({"size": 2}, "size must be"), ({"slip": 1.5}, "slip must be"),
                                                 ({"render_mode": "human"}, "render_mode must be")])
def test_bad_arguments_are_rejected(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RandomWalkEnv(**kwargs)  # type: ignore[arg-type]


def test_step_before_reset_and_rendering() -> None:
    with pytest.raises(ResetNeeded):
        RandomWalkEnv().step(0)
    env = RandomWalkEnv(render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == (16, 7 * 16, 3)
