"""Our ``SyncVectorEnv`` (and ``AsyncVectorEnv``) against Gymnasium 1.4.0's ``SyncVectorEnv``.

The same dynamics run on both sides (:class:`ShortEpisodesLogic` mixed into each library's ``Env``; CartPole from
each library), so observations, rewards, flags, info masks and ``final_obs``/``final_info`` must be identical in
all three autoreset modes. Operations Gymnasium handles differently on purpose are avoided here and tested
elsewhere: stepping an ended sub-env under ``Disabled`` (Gymnasium asserts) and infos whose types differ between
sub-envs (we promote instead of truncating).
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
from gymnasium.envs.classic_control.cartpole import CartPoleEnv as GymCartPole  # noqa: E402
from gymnasium.vector import SyncVectorEnv as GymSyncVectorEnv  # noqa: E402

from reference.envs.classic_control.cartpole import CartPoleEnv  # noqa: E402
from reference.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv  # noqa: E402
from tests.reference._equality import assert_identical  # noqa: E402
from tests.reference.vector._helpers import ShortEpisodes, ShortEpisodesLogic  # noqa: E402

pytestmark = pytest.mark.gymnasium
N = 4
Vec: TypeAlias = Any


class GymShortEpisodes(ShortEpisodesLogic, gymnasium.Env[Any, Any]):
    """:class:`ShortEpisodesLogic` on ``gymnasium.Env`` with Gymnasium spaces."""

    spaces = gymnasium.spaces
    metadata = {"render_modes": [], "render_fps": 4}


def run(ours: Vec, theirs: Vec, mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    assert_identical(ours.reset(seed=first_seed), theirs.reset(seed=first_seed), "first reset")
    ended = np.zeros(ours.num_envs, dtype=np.bool_)
    for number, (kind, arg) in enumerate(ops):
        context = f"{mode} op {number} {kind}"
        if kind == "step":
            if mode is AutoresetMode.DISABLED and ended.any():
                # Gymnasium asserts here; reset the ended sub-envs the documented way first.
                options = {"reset_mask": ended.copy()}
                assert_identical(ours.reset(options=options), theirs.reset(options=dict(options)), context)
            result = ours.step(arg)
            assert_identical(result, theirs.step(arg), context)
            ended = np.logical_or(result[2], result[3])
        elif kind == "reset":
            assert_identical(ours.reset(seed=arg), theirs.reset(seed=arg), context)
            ended[:] = False
        else:
            mask, seed = arg
            if mask.any():
                options = {"reset_mask": mask, "tag": 1}
                assert_identical(
                    ours.reset(seed=seed, options=options), theirs.reset(seed=seed, options=dict(options)), context
                )
                ended &= ~mask


actions = st.lists(st.integers(0, 2), min_size=N, max_size=N).map(lambda a: np.array(a, dtype=np.int64))
masks = st.lists(st.booleans(), min_size=N, max_size=N).map(lambda m: np.array(m, dtype=np.bool_))
seeds = st.one_of(st.none(), st.integers(0, 2**31))
operations = st.lists(
    st.one_of(
        st.tuples(st.just("step"), actions),
        st.tuples(st.just("step"), actions),
        st.tuples(st.just("reset"), seeds),
        st.tuples(st.just("partial"), st.tuples(masks, seeds)),
    ),
    min_size=1,
    max_size=20,
)


@pytest.mark.parametrize("mode", list(AutoresetMode))
@settings(max_examples=30, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations)
def test_sync_matches_gymnasium(mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    ours = SyncVectorEnv([ShortEpisodes] * N, autoreset_mode=mode)
    theirs = GymSyncVectorEnv([GymShortEpisodes] * N, autoreset_mode=gymnasium.vector.AutoresetMode(mode.value))
    run(ours, theirs, mode, first_seed, ops)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_async_matches_gymnasium(mode: AutoresetMode) -> None:
    rng = np.random.default_rng(7)
    ops: list[tuple[str, Any]] = [("step", rng.integers(0, 3, N)) for _ in range(40)]
    ops[10] = ("reset", None)
    ops[20] = ("partial", (np.array([True, False, True, False]), 5))
    theirs = GymSyncVectorEnv([GymShortEpisodes] * N, autoreset_mode=gymnasium.vector.AutoresetMode(mode.value))
    with AsyncVectorEnv([ShortEpisodes] * N, autoreset_mode=mode, num_workers=2) as ours:
        run(ours, theirs, mode, 11, ops)


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_cartpole_matches_gymnasium(mode: AutoresetMode) -> None:
    ours = SyncVectorEnv([CartPoleEnv] * N, autoreset_mode=mode)
    theirs = GymSyncVectorEnv([GymCartPole] * N, autoreset_mode=gymnasium.vector.AutoresetMode(mode.value))
    rng = np.random.default_rng(0)
    run(ours, theirs, mode, 3, [("step", rng.integers(0, 2, N)) for _ in range(300)])


def test_metadata_and_spaces_match_gymnasium() -> None:
    ours = SyncVectorEnv([CartPoleEnv] * 3)
    theirs = GymSyncVectorEnv([GymCartPole] * 3)
    assert repr(ours) == repr(theirs)
    assert str(ours.action_space) == str(theirs.action_space)
    assert str(ours.observation_space) == str(theirs.observation_space)
    assert ours.metadata["autoreset_mode"].value == theirs.metadata["autoreset_mode"].value
    assert {k: v for k, v in ours.metadata.items() if k != "autoreset_mode"} == {
        k: v for k, v in theirs.metadata.items() if k != "autoreset_mode"
    }
