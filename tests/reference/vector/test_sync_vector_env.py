"""``SyncVectorEnv``: construction, seeding, the three autoreset modes, partial resets, attribute access."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest

from conformance.equality import difference
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.error import ClosedEnvironmentError, ResetNeeded
from reference.spaces import Box, Dict, Discrete, MultiDiscrete, Text, Tuple
from reference.vector import AutoresetMode, SyncVectorEnv
from tests.reference._equality import assert_identical
from tests.reference.vector._helpers import ShortEpisodes


def short(n: int = 3, **kwargs: Any) -> SyncVectorEnv[Any, Any]:
    return SyncVectorEnv([ShortEpisodes for _ in range(n)], **kwargs)


def test_spaces_metadata_and_attributes() -> None:
    envs = short(3)
    assert envs.num_envs == 3 and len(envs.envs) == 3
    assert envs.single_action_space == Discrete(3) and envs.action_space == MultiDiscrete([3, 3, 3])
    observation_space: Any = envs.observation_space
    assert observation_space["pos"] == Box(-100, 100, (3, 2))
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert "autoreset_mode" not in ShortEpisodes.metadata, "the sub-env class metadata must not be modified"
    assert envs.metadata["render_fps"] == 4 and envs.render_mode is None
    assert repr(envs) == "SyncVectorEnv(num_envs=3)"


@pytest.mark.parametrize("mode", [*AutoresetMode, "NextStep", "SameStep", "Disabled"])
def test_autoreset_mode_accepts_enum_and_string(mode: Any) -> None:
    envs = short(autoreset_mode=mode)
    assert envs.autoreset_mode is AutoresetMode(getattr(mode, "value", mode))
    assert envs.metadata["autoreset_mode"] is envs.autoreset_mode


def test_invalid_arguments() -> None:
    with pytest.raises(ValueError, match="autoreset_mode must be"):
        short(autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="at least one"):
        SyncVectorEnv([])
    with pytest.raises(ValueError, match="observation_mode must be"):
        short(observation_mode="similar")
    with pytest.raises(TypeError, match="two spaces"):
        short(observation_mode=(1, 2))


def test_mismatched_spaces_raise_and_close_what_was_built() -> None:
    closed: list[int] = []

    class Tracked(ShortEpisodes):
        def close(self) -> None:
            closed.append(1)

    def other() -> ShortEpisodes:
        env = Tracked(obs_kind="box")
        env.observation_space = Box(-1, 1, (2,), dtype=np.float32)
        return env

    with pytest.raises(RuntimeError, match="sub-env 1 observation_space must equal"):
        SyncVectorEnv([lambda: Tracked(obs_kind="box"), other])
    assert len(closed) == 2
    envs = SyncVectorEnv([lambda: Tracked(obs_kind="box"), other], observation_mode="different")
    observation_space: Any = envs.observation_space
    assert observation_space.low[1].tolist() == [-1, -1]
    with pytest.raises(TypeError, match="same type"):
        SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box"), ShortEpisodes], observation_mode="different")
    pair = (Box(0, 1, (2, 3)), Box(0, 1, (3,)))
    with pytest.raises(RuntimeError, match="share the shape and dtype"):
        SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")], observation_mode=pair)

    def other_action() -> ShortEpisodes:
        env = ShortEpisodes()
        env.action_space = Discrete(4)
        return env

    with pytest.raises(RuntimeError, match="action_space must equal"):
        SyncVectorEnv([ShortEpisodes, other_action])


def test_custom_observation_mode_pair() -> None:
    single = Box(-100, 100, (2,), dtype=np.float32)
    batched = Box(-100, 100, (2, 2), dtype=np.float32)
    envs = SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * 2, observation_mode=(batched, single))
    assert envs.observation_space is batched and envs.single_observation_space is single


def test_seeding() -> None:
    envs = short(3)
    obs, _ = envs.reset(seed=10)
    single = ShortEpisodes()
    for i in range(3):
        assert_identical(single.reset(seed=10 + i)[0]["pos"], obs["pos"][i])
    assert envs.np_random_seed == (10, 11, 12)
    assert len(envs.np_random) == 3 and envs.np_random[0] is envs.envs[0].np_random
    obs_list, _ = envs.reset(seed=[10, None, 12])
    assert_identical(obs_list["pos"][0], obs["pos"][0])
    assert_identical(obs_list["pos"][2], obs["pos"][2])
    assert difference(obs_list["pos"][1], obs["pos"][1]) is not None, "None continues the sub-env's random stream"
    obs_np, _ = envs.reset(seed=np.int64(10))  # pyright: ignore[reportArgumentType] - accepted at run time too
    assert_identical(obs_np, obs)
    with pytest.raises(ValueError, match="num_envs=3 entries"):
        envs.reset(seed=[1, 2])
    with pytest.raises(TypeError, match="seed must be"):
        envs.reset(seed="abc")  # type: ignore[arg-type]
    with pytest.raises(AttributeError, match="read-only"):
        envs.np_random = np.random.default_rng()


def test_step_outputs() -> None:
    envs = short(2, copy=True)
    envs.reset(seed=0)
    obs, rewards, terminations, truncations, infos = envs.step(np.array([0, 2]))
    assert envs.observation_space.contains(obs)
    assert rewards.dtype == np.float64 and rewards.shape == (2,)
    assert terminations.dtype == np.bool_ and truncations.dtype == np.bool_
    assert infos["t"].tolist() == [1, 1] and infos["_t"].tolist() == [True, True]
    obs2, rewards2, *_ = envs.step(np.array([1, 1]))
    assert obs2["pos"] is not obs["pos"] and not np.shares_memory(obs2["pos"], obs["pos"])
    assert rewards2 is not rewards
    with pytest.raises(ValueError, match="num_envs=2 actions"):
        envs.step(np.array([0, 1, 2]))
    envs.step([1, 1])  # any iterable of actions works


def test_copy_false_reuses_the_buffer() -> None:
    envs = SyncVectorEnv([lambda: ShortEpisodes(obs_kind="box")] * 2, copy=False)
    obs, _ = envs.reset(seed=0)
    obs2, *_ = envs.step(np.array([0, 0]))
    assert obs2 is obs


def test_next_step_autoreset() -> None:
    envs = short(1)
    envs.reset(seed=4)
    length = cast(ShortEpisodes, envs.envs[0])._length
    for _ in range(length - 1):
        envs.step(np.array([2]))
    *_, terminated, truncated, _ = envs.step(np.array([2]))
    assert terminated[0] or truncated[0]
    obs, reward, terminated, truncated, infos = envs.step(np.array([2]))
    assert reward[0] == 0.0 and not terminated[0] and not truncated[0]
    assert obs["t"][0] == 0 and infos["length"][0] == cast(ShortEpisodes, envs.envs[0])._length and "t" not in infos


def test_same_step_autoreset() -> None:
    envs = short(2, autoreset_mode=AutoresetMode.SAME_STEP)
    envs.reset(seed=4)
    for _ in range(10):
        obs, rewards, terminations, truncations, infos = envs.step(np.array([1, 1]))
        ended = terminations | truncations
        if ended.any():
            break
    else:
        pytest.fail("no sub-env ended in 10 steps")
    assert infos["_final_obs"].tolist() == ended.tolist()
    assert infos["_final_info"].tolist() == ended.tolist()
    for i in np.flatnonzero(ended):
        assert envs.single_observation_space.contains(infos["final_obs"][i])
        assert obs["t"][i] == 0, "the returned observation is the new episode's first"
        assert infos["final_info"]["_t"][i]
        assert infos["_length"][i], "the reset info is merged at the top level"


def test_disabled_autoreset_and_partial_reset() -> None:
    envs = short(3, autoreset_mode=AutoresetMode.DISABLED)
    envs.reset(seed=1)
    while True:
        obs, rewards, terminations, truncations, infos = envs.step(np.array([1, 1, 1]))
        ended = terminations | truncations
        if ended.any():
            break
    with pytest.raises(ResetNeeded, match="ended sub-envs"):
        envs.step(np.array([1, 1, 1]))
    options = {"reset_mask": ended, "tag": 1}
    new_obs, infos = envs.reset(options=options)
    assert options == {"reset_mask": ended, "tag": 1}, "the caller's options must not be modified"
    for i in range(3):
        if ended[i]:
            assert new_obs["t"][i] == 0 and infos["_length"][i] and infos["options"][i] == ["tag"]
        else:
            assert_identical(new_obs["pos"][i], obs["pos"][i])
            assert not infos["_length"][i]
    envs.step(np.array([1, 1, 1]))


@pytest.mark.parametrize(
    ("mask", "error"),
    [
        ([True, False], TypeError),
        (np.array([True, False]), ValueError),
        (np.array([1, 0, 1]), TypeError),
        (np.array([False, False, False]), ValueError),
    ],
)
def test_invalid_reset_mask(mask: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match="reset_mask"):
        short(3).reset(options={"reset_mask": mask})


@pytest.mark.filterwarnings("ignore:.*without a render_mode")
def test_call_get_attr_set_attr_and_render() -> None:
    envs = SyncVectorEnv([CartPoleEnv, CartPoleEnv])
    envs.reset(seed=0)
    assert envs.get_attr("gravity") == (9.8, 9.8)
    envs.set_attr("gravity", [1.0, 2.0])
    assert envs.call("get_wrapper_attr", "gravity") == (1.0, 2.0)
    envs.set_attr("gravity", 3.0)
    assert envs.get_attr("gravity") == (3.0, 3.0)
    with pytest.raises(ValueError, match="num_envs=2 entries"):
        envs.set_attr("gravity", [1.0])
    assert all(frame is None for frame in envs.render())


def test_other_observation_spaces() -> None:
    class TextObs(ShortEpisodes):
        def __init__(self) -> None:
            super().__init__(obs_kind="box")
            self.observation_space = Tuple([Text(5, min_length=0), Discrete(3)])

        def _obs(self) -> Any:
            return ("ab"[: self._t % 3], np.int64(self._t % 3))

    envs = SyncVectorEnv([TextObs, TextObs])
    obs, _ = envs.reset(seed=0)
    assert obs[0] == ("", "") and obs[1].tolist() == [0, 0]
    assert envs.observation_space.contains(obs)


def test_use_after_close_raises() -> None:
    envs = short(2)
    envs.close()
    calls: list[Callable[[], object]] = [
        lambda: envs.reset(),
        lambda: envs.step(np.array([0, 0])),
        lambda: envs.get_attr("t"),
    ]
    for call in calls:
        with pytest.raises(ClosedEnvironmentError):
            call()


def test_close_closes_every_sub_env_even_if_one_fails() -> None:
    closed: list[int] = []

    class Failing(ShortEpisodes):
        def close(self) -> None:
            closed.append(1)
            raise OSError("cannot close")

    envs = SyncVectorEnv([Failing, Failing])
    with pytest.raises(OSError, match="cannot close"):
        envs.close()
    assert len(closed) == 2


def test_dict_observation_batch() -> None:
    envs = SyncVectorEnv([ShortEpisodes, ShortEpisodes])
    obs, _ = envs.reset(seed=2)
    assert isinstance(envs.single_observation_space, Dict) and set(obs) == {"bits", "pos", "t"}
    assert obs["bits"].dtype == np.int8 and obs["bits"].shape == (2, 3)


def test_released_without_the_cyclic_garbage_collector() -> None:
    gc.disable()
    try:
        envs = short(2)
        envs.reset(seed=0)
        ref = weakref.ref(envs)
        del envs
        assert ref() is None, "a reference cycle would keep the sub-envs alive until the next GC run"
    finally:
        gc.enable()
