"""Tests for the vector HumanRendering and RecordVideo wrappers (layouts and recordings compared with Gymnasium's)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reference.core import Env
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.spaces import Box, Discrete
from reference.vector import AutoresetMode, SyncVectorEnv
from reference.wrappers.vector import HumanRendering, RecordVideo

_MODES = [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP, AutoresetMode.DISABLED]


def _ours(num_envs: int, mode: AutoresetMode = AutoresetMode.NEXT_STEP, tiny: bool = False) -> SyncVectorEnv[Any, Any]:
    make = _tiny_env(Env, Box, Discrete) if tiny else lambda: CartPoleEnv(render_mode="rgb_array")
    return SyncVectorEnv([make] * num_envs, autoreset_mode=mode)


def _theirs(num_envs: int, mode: str = "NextStep", tiny: bool = False) -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.envs.classic_control import CartPoleEnv as GymCartPole

    make = (
        _tiny_env(gymnasium.Env, gymnasium.spaces.Box, gymnasium.spaces.Discrete)
        if tiny
        else lambda: GymCartPole(render_mode="rgb_array")
    )
    return gymnasium.vector.SyncVectorEnv([make] * num_envs, autoreset_mode=gymnasium.vector.AutoresetMode(mode))


def _tiny_env(base: type, box: type, discrete: type) -> type:
    """Episodes of 3 to 12 steps (drawn at reset) with 6x8 frames: cheap to record, same on both frameworks."""

    class Tiny(base):  # type: ignore[misc]
        metadata = {"render_modes": ["rgb_array"], "render_fps": 10}

        def __init__(self) -> None:
            self.observation_space = box(0, 20, (1,), dtype=np.float32)
            self.action_space = discrete(2)
            self.render_mode = "rgb_array"
            self.t = self.length = 0

        def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
            super().reset(seed=seed)
            self.t, self.length = 0, int(self.np_random.integers(3, 13))
            return np.zeros(1, np.float32), {}

        def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            self.t += 1
            return np.array([self.t], np.float32), 1.0, self.t >= self.length, False, {}

        def render(self) -> Any:
            return np.full((6, 8, 3), self.t, dtype=np.uint8)

    return Tiny


@pytest.mark.parametrize("num_envs", [1, 3, 4, 7])
@pytest.mark.parametrize("screen_size", [None, (400, 300), (300, 600)])
def test_human_rendering_layout_matches_gymnasium(num_envs: int, screen_size: tuple[int, int] | None) -> None:
    pytest.importorskip("cv2")  # Gymnasium's wrapper needs OpenCV
    gym_vector = pytest.importorskip("gymnasium.wrappers.vector")
    ours = HumanRendering(_ours(num_envs), screen_size=screen_size)
    theirs = gym_vector.HumanRendering(_theirs(num_envs), screen_size=screen_size)
    ours.reset(seed=0)
    theirs.reset(seed=0)
    assert (ours.num_rows, ours.num_cols, ours.scaled_subenv_size) == (
        theirs.num_rows, theirs.num_cols, theirs.scaled_subenv_size,
    )
    assert tuple(ours.screen_size or ()) == tuple(theirs.screen_size)
    ours.step(np.ones(num_envs, dtype=np.int64))
    ours.close()
    theirs.close()


def test_human_rendering_validates() -> None:
    with pytest.raises(ValueError, match="render_mode must be one of"):
        HumanRendering(SyncVectorEnv([CartPoleEnv] * 2))
    with pytest.raises(ValueError, match="screen_size must be None or"):
        HumanRendering(_ours(2), screen_size=(0, 10))
    envs = HumanRendering(_ours(2))
    assert envs.render_mode == "human" and "human" in envs.metadata["render_modes"]
    envs.close()


def _drive(envs: Any, mode: AutoresetMode, steps: int, seed: int = 123) -> None:
    envs.reset(seed=seed)
    envs.action_space.seed(seed)
    for _ in range(steps):
        _, _, terminations, truncations, _ = envs.step(envs.action_space.sample())
        ended = np.logical_or(terminations, truncations)
        if mode == AutoresetMode.DISABLED and np.any(ended):
            envs.reset(options={"reset_mask": ended})
    envs.close()


@pytest.mark.parametrize("mode", _MODES, ids=lambda m: m.value)
@pytest.mark.parametrize(
    "triggers",
    [
        {"episode_trigger": lambda e: e in (1, 4), "step_trigger": lambda s: s in (0, 30)},
        {"episode_trigger": None, "step_trigger": None},
        {"step_trigger": lambda s: s % 40 == 0, "video_length": 15},
        {"episode_trigger": lambda e: e % 3 == 0, "video_length": 4},
    ],
    ids=["both", "default", "steps", "episodes"],
)
def test_record_video_records_what_gymnasium_records(
    tmp_path: Path, mode: AutoresetMode, triggers: dict[str, Any]
) -> None:
    pytest.importorskip("moviepy")  # Gymnasium's wrapper needs MoviePy
    gym_vector = pytest.importorskip("gymnasium.wrappers.vector")
    ours = RecordVideo(_ours(4, mode, tiny=True), str(tmp_path / "ours"), video_format="png", **triggers)
    theirs = gym_vector.RecordVideo(_theirs(4, mode.value, tiny=True), str(tmp_path / "theirs"), **triggers)
    _drive(ours, mode, 120)
    _drive(theirs, mode, 120)
    ours_names = sorted(os.listdir(tmp_path / "ours"))
    assert ours_names == sorted(name.removesuffix(".mp4") for name in os.listdir(tmp_path / "theirs"))
    for name in ours_names:
        meta = json.loads((tmp_path / "ours" / name / "video.json").read_text())
        assert meta["fps"] == 10
        if "video_length" in triggers:
            assert meta["frames"] == triggers["video_length"]


def test_record_video_tiles_frames(tmp_path: Path) -> None:
    pygame = pytest.importorskip("pygame")
    envs = RecordVideo(_ours(3), str(tmp_path), step_trigger=lambda s: s == 0, video_length=1, video_format="png")
    envs.reset(seed=0)
    envs.step(np.zeros(3, dtype=np.int64))
    frames: Any = envs.env.render()
    expected = np.concatenate(frames, axis=1)  # three 600x400 frames tile as one row
    envs.close()
    surface = pygame.image.load(str(tmp_path / "rl-video-step-0" / "frame_000000.png"))
    np.testing.assert_array_equal(np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2)), expected)
    assert (envs.frame_rows, envs.frame_cols) == (1, 3)


def test_record_first_only_and_validation(tmp_path: Path) -> None:
    envs = RecordVideo(
        _ours(2), str(tmp_path / "first"), step_trigger=lambda s: s == 0, video_length=2, record_first_only=True,
        video_format="png",
    )
    _drive(envs, AutoresetMode.NEXT_STEP, 4)
    assert (envs.frame_rows, envs.frame_cols) == (1, 1)
    with pytest.raises(ValueError, match="must produce image arrays"):
        RecordVideo(SyncVectorEnv([CartPoleEnv] * 2), str(tmp_path / "x"))
    with pytest.raises(ValueError, match="video_format must be one of"):
        RecordVideo(_ours(2), str(tmp_path / "y"), video_format="gif")
