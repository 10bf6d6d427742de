"""FrozenLakeEnv: differential against Gymnasium (maps, slipperiness, success rates, rewards), map generation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gymspec.errors import InvalidAction, ResetNeeded
from reference.envs.toy_text.frozen_lake import MAPS, FrozenLakeEnv, generate_random_map, is_valid
from tests.reference.envs._differential import discrete_actions, run_lockstep

gym_frozen_lake = pytest.importorskip("gymnasium.envs.toy_text.frozen_lake")
pytestmark = pytest.mark.gymnasium

seeds = st.integers(0, 2**32 - 1)
configs = st.fixed_dictionaries(
    {
        "map_name": st.sampled_from(["4x4", "8x8"]),
        "is_slippery": st.booleans(),
        "success_rate": st.sampled_from([1.0 / 3.0, 0.1, 0.5, 0.8, 1.0, 0.0]),
        "reward_schedule": st.sampled_from([(1, 0, 0), (10, -10, -1), (1.0, -0.5, -0.01)]),
    }
)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, config=configs, actions=discrete_actions(4))
def test_matches_gymnasium(seed: int, config: dict[str, object], actions: list[int]) -> None:
    ours = FrozenLakeEnv(**config)  # type: ignore[arg-type]
    theirs = gym_frozen_lake.FrozenLakeEnv(**config)
    assert ours.P == theirs.P
    assert ours.reward_range == theirs.reward_range
    run_lockstep(ours, theirs, seed, actions)


@settings(max_examples=15, deadline=None)
@given(
    seed=seeds,
    map_seed=seeds,
    size=st.integers(2, 9),
    p=st.floats(0.5, 1.0),
    actions=discrete_actions(4, max_size=120),
)
def test_random_maps_and_rollouts_match_gymnasium(
    seed: int, map_seed: int, size: int, p: float, actions: list[int]
) -> None:
    desc = generate_random_map(size=size, p=p, seed=map_seed)
    assert desc == gym_frozen_lake.generate_random_map(size=size, p=p, seed=map_seed)
    assert is_valid([list(row) for row in desc], size)
    run_lockstep(FrozenLakeEnv(desc=desc), gym_frozen_lake.FrozenLakeEnv(desc=desc), seed, actions)


@settings(max_examples=10, deadline=None)
@given(seed=seeds, actions=discrete_actions(4, max_size=100))
def test_several_start_tiles_match_gymnasium(seed: int, actions: list[int]) -> None:
    desc = ["SFFS", "FHFF", "SFFH", "HFSG"]
    ours, theirs = FrozenLakeEnv(desc=desc), gym_frozen_lake.FrozenLakeEnv(desc=desc)
    assert ours.initial_state_distrib.tolist() == theirs.initial_state_distrib.tolist()
    run_lockstep(ours, theirs, seed, actions)


def test_ansi_matches_gymnasium_along_a_rollout() -> None:
    ours = FrozenLakeEnv(render_mode="ansi", map_name="8x8")
    theirs = gym_frozen_lake.FrozenLakeEnv(render_mode="ansi", map_name="8x8")
    ours.reset(seed=4)
    theirs.reset(seed=4)
    assert ours.render() == theirs.render()
    for action in [2, 2, 1, 1, 0, 3, 2, 1]:
        _, _, terminated, _, _ = ours.step(action)
        theirs.step(action)
        assert ours.render() == theirs.render()
        if terminated:
            break


def test_constructor_validation() -> None:
    with pytest.raises(ValueError, match="map_name must be one of"):
        FrozenLakeEnv(map_name="5x5")
    with pytest.raises(ValueError, match="equal-length row strings"):
        FrozenLakeEnv(desc=["SF", "FFG"])
    with pytest.raises(ValueError, match="rectangle"):
        FrozenLakeEnv(desc=["SX", "FG"])
    with pytest.raises(ValueError, match="start tile"):
        FrozenLakeEnv(desc=["FF", "FG"])
    with pytest.raises(ValueError, match="reward_schedule"):
        FrozenLakeEnv(reward_schedule=(1, 0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="size"):
        generate_random_map(size=1)
    with pytest.raises(ValueError, match="p must be > 0"):
        generate_random_map(p=0.0)


def test_random_map_when_no_map_is_given() -> None:
    env = FrozenLakeEnv(map_name=None)
    assert env.desc.shape == (8, 8)
    assert env.desc[0, 0] == b"S" and env.desc[-1, -1] == b"G"
    assert MAPS["4x4"][0] == "SFFF"


def test_step_checks() -> None:
    env = FrozenLakeEnv()
    with pytest.raises(ResetNeeded):
        env.step(0)
    env.reset(seed=0)
    with pytest.raises(InvalidAction):
        env.step(4)
