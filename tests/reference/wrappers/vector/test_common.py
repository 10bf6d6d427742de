"""``RecordEpisodeStatistics`` against Gymnasium 1.4 in every autoreset mode, plus a model for partial resets."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.vector import AutoresetMode, SyncVectorEnv
from reference.wrappers.vector import DictInfoToList, RecordEpisodeStatistics
from tests.reference.vector._helpers import ShortEpisodes
from tests.reference.wrappers.vector._pairs import (
    N,
    Lib,
    Vec,
    assert_sync_async_agree,
    discrete_actions,
    drive,
    make_pair,
    operations,
)

pytestmark = pytest.mark.gymnasium


def record(lib: Lib, envs: Vec) -> Vec:
    return lib.vector_wrappers.RecordEpisodeStatistics(envs, buffer_length=5)


def record_custom_key(lib: Lib, envs: Vec) -> Vec:
    return lib.vector_wrappers.RecordEpisodeStatistics(envs, stats_key="stats")


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@settings(max_examples=12, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations(discrete_actions(), 20))
def test_matches_gymnasium(mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]) -> None:
    ours, theirs = make_pair("dict", mode, record)
    # Partial resets are compared against the model below: Gymnasium restarts every sub-env's statistics there.
    drive(ours, theirs, mode, first_seed, ops, partial=False)
    assert ours.episode_count == theirs.episode_count
    assert list(ours.return_queue) == list(theirs.return_queue)
    assert list(ours.length_queue) == list(theirs.length_queue)
    assert len(ours.time_queue) == len(theirs.time_queue)


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
def test_custom_key_and_list_infos_match_gymnasium(mode: AutoresetMode) -> None:
    def build(lib: Lib, envs: Vec) -> Vec:
        return lib.vector_wrappers.DictInfoToList(record_custom_key(lib, envs))

    ours, theirs = make_pair("dict", mode, build)
    ops = [("step", np.array([i % 3, (i + 1) % 3, 2])) for i in range(12)]
    drive(ours, theirs, mode, 7, ops, partial=False)


class _Model:
    """Per-sub-env episode bookkeeping written from the autoreset definitions, independent of the wrapper."""

    def __init__(self, mode: AutoresetMode) -> None:
        self.mode = mode
        self.returns = np.zeros(N)
        self.lengths = np.zeros(N, dtype=np.int64)
        self.pending_reset = np.zeros(N, dtype=np.bool_)
        self.finished: list[tuple[float, int]] = []

    def reset(self, mask: Any) -> None:
        self.returns[mask] = 0.0
        self.lengths[mask] = 0
        self.pending_reset[mask] = False

    def step(self, rewards: Any, dones: Any) -> None:
        for i in range(N):
            if self.pending_reset[i]:
                # NextStep: this step only reset sub-env i; the new episode has no steps yet.
                self.returns[i], self.lengths[i], self.pending_reset[i] = 0.0, 0, False
                continue
            self.returns[i] += rewards[i]
            self.lengths[i] += 1
            if dones[i]:
                self.finished.append((float(self.returns[i]), int(self.lengths[i])))
                if self.mode is AutoresetMode.SAME_STEP:
                    self.returns[i], self.lengths[i] = 0.0, 0
                elif self.mode is AutoresetMode.NEXT_STEP:
                    self.pending_reset[i] = True


@pytest.mark.parametrize("mode", list(AutoresetMode), ids=lambda m: m.value)
@settings(max_examples=12, deadline=None)
@given(first_seed=st.integers(0, 2**31), ops=operations(discrete_actions(), 20))
def test_partial_resets_restart_only_the_masked_sub_envs(
    mode: AutoresetMode, first_seed: int, ops: list[tuple[str, Any]]
) -> None:
    envs = RecordEpisodeStatistics(SyncVectorEnv([ShortEpisodes] * N, autoreset_mode=mode), buffer_length=1000)
    model = _Model(mode)
    envs.reset(seed=first_seed)
    model.reset(slice(None))
    ended = np.zeros(N, dtype=np.bool_)
    for kind, arg in ops:
        if kind == "step":
            if mode is AutoresetMode.DISABLED and ended.any():
                envs.reset(options={"reset_mask": ended.copy()})
                model.reset(ended.copy())
            _, rewards, terminations, truncations, info = envs.step(arg)
            ended = terminations | truncations
            before = len(model.finished)
            model.step(rewards, ended)
            if ended.any():
                np.testing.assert_array_equal(info["_episode"], ended)
                expected = model.finished[before:]
                assert info["episode"]["l"][ended].tolist() == [length for _, length in expected]
                np.testing.assert_allclose(info["episode"]["r"][ended], [ret for ret, _ in expected], rtol=1e-12)
        elif kind == "reset":
            envs.reset(seed=arg)
            model.reset(slice(None))
            ended[:] = False
        elif arg[0].any():
            mask, seed = arg
            envs.reset(seed=seed, options={"reset_mask": mask})
            model.reset(mask)
            ended &= ~mask
    assert list(envs.length_queue) == [length for _, length in model.finished]
    np.testing.assert_allclose(list(envs.return_queue), [ret for ret, _ in model.finished], rtol=1e-12)
    assert envs.episode_count == len(model.finished)


def test_info_keys_and_dtypes() -> None:
    envs = RecordEpisodeStatistics(SyncVectorEnv([ShortEpisodes] * N))
    envs.reset(seed=3)
    for _ in range(10):
        *_, terminations, truncations, info = envs.step(np.zeros(N, dtype=np.int64))
        if (terminations | truncations).any():
            break
    else:
        pytest.fail("no sub-env ended in 10 steps")
    stats = info["episode"]
    assert stats["r"].dtype == np.float64 and stats["l"].dtype == np.int64 and stats["t"].dtype == np.float64
    assert info["_episode"].dtype == np.bool_
    # The mask handed out is not the wrapper's own state.
    info["_episode"][:] = False
    assert (envs.prev_dones == (terminations | truncations)).all()


def test_rejects_bad_arguments() -> None:
    envs = SyncVectorEnv([ShortEpisodes] * N)
    with pytest.raises(ValueError, match="RecordEpisodeStatistics buffer_length must be >= 1 and below 2\\*\\*63, got 0"):
        RecordEpisodeStatistics(envs, buffer_length=0)
    with pytest.raises(TypeError, match="RecordEpisodeStatistics buffer_length must be an int"):
        RecordEpisodeStatistics(envs, buffer_length=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RecordEpisodeStatistics stats_key must be a str"):
        RecordEpisodeStatistics(envs, stats_key=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="RecordEpisodeStatistics env must be a reference VectorEnv"):
        RecordEpisodeStatistics(ShortEpisodes())  # type: ignore[arg-type]
    envs.metadata = {**envs.metadata, "autoreset_mode": "Sometimes"}
    with pytest.raises(ValueError, match=r"RecordEpisodeStatistics env.metadata\['autoreset_mode'\] must be one of"):
        RecordEpisodeStatistics(envs)


def test_missing_mode_warns_and_assumes_next_step() -> None:
    envs = SyncVectorEnv([ShortEpisodes] * N)
    envs.metadata = {key: value for key, value in envs.metadata.items() if key != "autoreset_mode"}
    with pytest.warns(UserWarning, match="declares no metadata\\['autoreset_mode'\\]; assuming"):
        wrapped = RecordEpisodeStatistics(envs)
    assert wrapped._autoreset_mode is AutoresetMode.NEXT_STEP


def test_string_mode_is_accepted() -> None:
    envs = SyncVectorEnv([ShortEpisodes] * N, autoreset_mode=AutoresetMode.SAME_STEP)
    envs.metadata = {**envs.metadata, "autoreset_mode": "SameStep"}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert RecordEpisodeStatistics(envs)._autoreset_mode is AutoresetMode.SAME_STEP


def test_existing_stats_key_is_an_error() -> None:
    envs = RecordEpisodeStatistics(RecordEpisodeStatistics(SyncVectorEnv([ShortEpisodes] * N)))
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="RecordEpisodeStatistics info must not already contain 'episode'"):
        for _ in range(10):
            envs.step(np.zeros(N, dtype=np.int64))


def test_list_info_inside_is_a_type_error() -> None:
    envs = RecordEpisodeStatistics(DictInfoToList(SyncVectorEnv([ShortEpisodes] * N)))
    envs.reset(seed=0)
    with pytest.raises(TypeError, match="RecordEpisodeStatistics env info must be a dict, got list"):
        envs.step(np.zeros(N, dtype=np.int64))


def test_reset_options_are_not_modified() -> None:
    envs = RecordEpisodeStatistics(SyncVectorEnv([ShortEpisodes] * N, autoreset_mode=AutoresetMode.DISABLED))
    envs.reset(seed=0)
    mask = np.array([True, False, True])
    options = {"reset_mask": mask}
    envs.reset(options=options)
    assert options == {"reset_mask": mask} and options["reset_mask"] is mask


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP], ids=lambda m: m.value)
def test_async_smoke(mode: AutoresetMode) -> None:
    assert_sync_async_agree("dict", mode, record, np.array([0, 1, 2]))
