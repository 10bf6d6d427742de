"""``NormalizeObservation`` and ``NormalizeReward`` against Gymnasium 1.4 (bit for bit) in the modes they support."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vector import AutoresetMode, SyncVectorEnv
from reference.wrappers.vector import NormalizeObservation, NormalizeReward
from tests.reference.vector._helpers import ShortEpisodes
from tests.reference.wrappers.vector._pairs import (
    N,
    BoxEpisodes,
    Lib,
    Vec,
    assert_same,
    assert_same_spaces,
    assert_sync_async_agree,
    box_actions,
    discrete_actions,
    drive,
    make_pair,
    operations,
)

pytestmark = pytest.mark.gymnasium


def normalize_obs(lib: Lib, envs: Vec) -> Vec:
    return lib.vector_wrappers.NormalizeObservation(envs)


def normalize_reward(lib: Lib, envs: Vec) -> Vec:
    return lib.vector_wrappers.NormalizeReward(envs, gamma=0.9)


def both_normalizers(lib: Lib, envs: Vec) -> Vec:
    return lib.vector_wrappers.NormalizeReward(lib.vector_wrappers.NormalizeObservation(envs, epsilon=1e-6))


@settings(max_examples=15, deadline=None)
@given(
    kind=st.sampled_from(["box", "boxact"]),
    first_seed=st.integers(0, 2**31),
    data=st.data(),
)
def test_normalize_observation_matches_gymnasium(kind: str, first_seed: int, data: st.DataObject) -> None:
    actions = discrete_actions() if kind == "box" else box_actions()
    ops = data.draw(operations(actions, 20))
    ours, theirs = make_pair(kind, AutoresetMode.NEXT_STEP, both_normalizers)
    assert_same_spaces(ours, theirs)
    drive(ours, theirs, AutoresetMode.NEXT_STEP, first_seed, ops, partial=False)
    np.testing.assert_array_equal(ours.env.obs_rms.mean, theirs.env.obs_rms.mean)
    np.testing.assert_array_equal(ours.env.obs_rms.var, theirs.env.obs_rms.var)


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@settings(max_examples=12, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations(discrete_actions(), 20))
def test_normalize_reward_matches_gymnasium(mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    ours, theirs = make_pair("dict", mode, normalize_reward)
    # Partial resets are tested below: Gymnasium restarts every sub-env's return there.
    drive(ours, theirs, mode, first_seed, ops, partial=False)
    np.testing.assert_array_equal(ours.accumulated_reward, theirs.accumulated_reward)
    assert ours.return_rms.var == theirs.return_rms.var and ours.return_rms.count == theirs.return_rms.count


def test_frozen_statistics_match_gymnasium() -> None:
    ours, theirs = make_pair("box", AutoresetMode.NEXT_STEP, both_normalizers)
    ops = [("step", np.array([i % 3, 1, 2])) for i in range(6)]
    drive(ours, theirs, AutoresetMode.NEXT_STEP, 5, ops)
    for envs in (ours, theirs):
        envs.update_running_mean = False
        envs.env.update_running_mean = False
    frozen = ours.env.obs_rms.mean.copy(), ours.return_rms.var
    drive(ours, theirs, AutoresetMode.NEXT_STEP, 6, ops)
    np.testing.assert_array_equal(ours.env.obs_rms.mean, frozen[0])
    assert ours.return_rms.var == frozen[1]
    assert ours.update_running_mean is False and ours.env.update_running_mean is False


def test_normalize_observation_full_mask_matches_gymnasium() -> None:
    ours, theirs = make_pair("box", AutoresetMode.NEXT_STEP, normalize_obs)
    assert_same(ours.reset(seed=1), theirs.reset(seed=1), "reset")
    options = {"reset_mask": np.ones(N, dtype=np.bool_)}
    assert_same(ours.reset(seed=2, options=options), theirs.reset(seed=2, options=dict(options)), "full mask")


def test_normalize_reward_partial_reset_restarts_only_masked_returns() -> None:
    envs = NormalizeReward(SyncVectorEnv([ShortEpisodes] * N, autoreset_mode=AutoresetMode.DISABLED))
    envs.reset(seed=0)
    while True:
        *_, terminations, truncations, _ = envs.step(np.zeros(N, dtype=np.int64))
        ended = terminations | truncations
        if ended.any() and not ended.all():
            break
        if ended.any():
            envs.reset()
    before = envs.accumulated_reward.copy()
    envs.reset(options={"reset_mask": ended})
    np.testing.assert_array_equal(envs.accumulated_reward, np.where(ended, 0.0, before).astype(np.float32))
    # The next step of every sub-env is a real step of its episode, so all of them update the returns.
    count = envs.return_rms.count
    envs.step(np.zeros(N, dtype=np.int64))
    assert envs.return_rms.count == count + N


@pytest.mark.parametrize("mode", [AutoresetMode.SAME_STEP, AutoresetMode.DISABLED], ids=lambda m: m.value)
def test_normalize_observation_requires_next_step(mode: AutoresetMode) -> None:
    base = SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * N, autoreset_mode=mode)
    message = f"NormalizeObservation env autoreset_mode must be NEXT_STEP, got .*{mode.value}"
    with pytest.raises(ValueError, match=message):
        NormalizeObservation(base)


def test_normalize_observation_rejects_partial_resets() -> None:
    envs = NormalizeObservation(SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * N))
    envs.reset(seed=0)
    mask = np.array([True, False, True])
    with pytest.raises(ValueError, match=r"NormalizeObservation options\['reset_mask'\] must select every sub-env"):
        envs.reset(options={"reset_mask": mask})


def test_spaces_and_argument_errors() -> None:
    base = SyncVectorEnv([BoxEpisodes] * N)
    envs = NormalizeObservation(base)
    assert repr(envs.single_observation_space) == "Box(-inf, inf, (3,), float32)"
    assert repr(envs.observation_space) == "Box(-inf, inf, (3, 3), float32)"
    assert envs.single_action_space == base.single_action_space
    with pytest.raises(ValueError, match="NormalizeObservation epsilon must be > 0, got 0.0"):
        NormalizeObservation(base, epsilon=0.0)
    with pytest.raises(ValueError, match="NormalizeReward gamma must be in \\[0, 1\\], got 1.5"):
        NormalizeReward(base, gamma=1.5)
    with pytest.raises(ValueError, match="NormalizeReward epsilon must be > 0, got -1"):
        NormalizeReward(base, epsilon=-1)
    with pytest.raises(ValueError, match="NormalizeObservation env.single_observation_space must have a shape"):
        from reference.spaces import Text
        from reference.wrappers.vector import TransformObservation

        NormalizeObservation(TransformObservation(base, lambda obs: obs, single_observation_space=Text(5)))


def test_async_smoke() -> None:
    assert_sync_async_agree("boxact", AutoresetMode.NEXT_STEP, both_normalizers, np.full((N, 2), 0.5, np.float32))
