"""Tests for reference.wrappers.rendering (SDL's dummy video driver: no window opens)."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reference.core import Env
from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.error import DependencyNotInstalled
from reference.spaces import Box, Discrete
from reference.wrappers import (
    AddWhiteNoise,
    HumanRendering,
    ObstructView,
    RecordVideo,
    RenderCollection,
    TimeLimit,
)
from reference.utils.save_video import capped_cubic_video_schedule
from tests.reference.wrappers._envs import BoxEnv, DiscreteEnv

_ZERO = np.zeros(2, np.float32)


@pytest.mark.parametrize(("pop_frames", "reset_clean"), [(True, True), (False, True), (True, False), (False, False)])
def test_render_collection(pop_frames: bool, reset_clean: bool) -> None:
    env = RenderCollection(BoxEnv(render_mode="rgb_array"), pop_frames=pop_frames, reset_clean=reset_clean)
    assert env.render_mode == "rgb_array_list"
    assert env.metadata["render_modes"] == ["rgb_array", "rgb_array_list"]
    assert BoxEnv.metadata["render_modes"] == ["rgb_array"]  # the inner metadata is copied, not mutated
    env.reset()
    env.step(_ZERO)
    frames: list[Any] = env.render()
    assert [int(f[0, 0, 0]) for f in frames] == [0, 1]
    assert len(env.render()) == (0 if pop_frames else 2)
    env.step(_ZERO)
    env.reset()
    expected = 1 if reset_clean else (2 if pop_frames else 4)
    assert len(env.render()) == expected


def test_render_collection_validates() -> None:
    with pytest.raises(ValueError, match="render_mode must not be None"):
        RenderCollection(BoxEnv())
    with pytest.raises(ValueError, match="must not end with '_list'"):
        RenderCollection(RenderCollection(BoxEnv(render_mode="rgb_array")))


def test_human_rendering_draws_on_reset_and_step() -> None:
    env = HumanRendering(BoxEnv(render_mode="rgb_array"))
    assert env.render_mode == "human" and "human" in env.metadata["render_modes"]
    assert "human" not in BoxEnv.metadata["render_modes"]
    env.reset()
    assert env.screen_size == (8, 6)
    assert env.step(_ZERO)[2] is False
    assert HumanRendering.render(env) is None  # type: ignore[func-returns-value]
    env.close()
    assert env.window is None
    collected = HumanRendering(RenderCollection(BoxEnv(render_mode="rgb_array")))
    collected.reset()
    collected.close()


def test_human_rendering_does_not_start_the_mixer() -> None:
    pygame = pytest.importorskip("pygame")
    env = HumanRendering(BoxEnv(render_mode="rgb_array"))
    env.reset()
    assert pygame.display.get_init()
    assert not pygame.mixer.get_init()
    env.close()


def test_human_rendering_validates() -> None:
    with pytest.raises(ValueError, match="render_mode must be one of"):
        HumanRendering(BoxEnv())
    env = BoxEnv(render_mode="rgb_array")
    env.metadata = {"render_modes": ["rgb_array"]}
    with pytest.raises(ValueError, match="must specify 'render_fps'"):
        HumanRendering(env)


def _recorded(folder: Path) -> dict[str, list[str]]:
    return {name: sorted(os.listdir(folder / name)) for name in sorted(os.listdir(folder))}


def test_record_video_episode_trigger(tmp_path: Path) -> None:
    env = RecordVideo(
        BoxEnv(length=3, render_mode="rgb_array"), str(tmp_path), episode_trigger=lambda ep: ep % 2 == 0,
        video_format="png",
    )
    for _ in range(3):
        env.reset()
        for _ in range(3):
            env.step(_ZERO)
    env.close()
    recorded = _recorded(tmp_path)
    assert list(recorded) == ["rl-video-episode-0", "rl-video-episode-2"]
    assert recorded["rl-video-episode-0"] == [f"frame_00000{i}.png" for i in range(4)] + ["video.json"]
    meta = json.loads((tmp_path / "rl-video-episode-0" / "video.json").read_text())
    assert meta == {"fps": 30, "frames": 4}


def test_record_video_step_trigger_and_length(tmp_path: Path) -> None:
    env = RecordVideo(
        BoxEnv(length=100, render_mode="rgb_array"), str(tmp_path), step_trigger=lambda s: s == 2, video_length=3,
        name_prefix="clip", fps=5, video_format="png",
    )
    env.reset()
    for _ in range(10):
        env.step(_ZERO)
    assert not env.recording
    env.close()
    assert _recorded(tmp_path) == {"clip-step-2": ["frame_000000.png", "frame_000001.png", "frame_000002.png",
                                                   "video.json"]}


def test_record_video_frames_hold_the_rendered_pixels(tmp_path: Path) -> None:
    pygame = pytest.importorskip("pygame")
    env = RecordVideo(
        TimeLimit(CartPoleEnv(render_mode="rgb_array"), 2), str(tmp_path), episode_trigger=lambda e: True,
        video_format="png",
    )
    env.reset(seed=0)
    expected = env.env.render()
    env.close()
    surface = pygame.image.load(str(tmp_path / "rl-video-episode-0" / "frame_000000.png"))
    np.testing.assert_array_equal(np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2)), expected)


def test_record_video_validates(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must produce image arrays"):
        RecordVideo(BoxEnv(), str(tmp_path))
    with pytest.raises(ValueError, match="video_length must be a non-negative int"):
        RecordVideo(BoxEnv(render_mode="rgb_array"), str(tmp_path), video_length=-1)


def test_capped_cubic_video_schedule() -> None:
    assert [e for e in range(1001) if capped_cubic_video_schedule(e)] == [n**3 for n in range(10)] + [1000]


@pytest.mark.parametrize(
    "make_wrapper",
    [
        lambda env: AddWhiteNoise(env, probability_of_noise_per_pixel=0.5),
        lambda env: AddWhiteNoise(env, probability_of_noise_per_pixel=0.5, is_noise_grayscale=True),
        lambda env: ObstructView(env, obstructed_pixels_ratio=0.3, obstruction_width=2),
    ],
)
def test_noise_wrappers_are_seeded(make_wrapper: Any) -> None:
    frames = []
    for _ in range(2):
        env = make_wrapper(BoxEnv(render_mode="rgb_array"))
        env.reset(seed=4)
        frames.append(env.render())
    assert frames[0].shape == (6, 8, 3) and frames[0].dtype == np.uint8
    np.testing.assert_array_equal(frames[0], frames[1])


def test_noise_wrappers_validate() -> None:
    with pytest.raises(ValueError, match="must be in \\[0, 1\\)"):
        AddWhiteNoise(DiscreteEnv(), probability_of_noise_per_pixel=1.0)
    with pytest.raises(ValueError, match="obstruction_width must be >= 1"):
        ObstructView(DiscreteEnv(), obstructed_pixels_ratio=0.1, obstruction_width=0)


@pytest.mark.parametrize(
    "triggers",
    [
        {"episode_trigger": lambda e: e in (0, 2, 3), "step_trigger": lambda s: s in (5, 30)},
        {"step_trigger": lambda s: s % 9 == 0, "video_length": 4},
        {},
    ],
    ids=["both", "steps", "default"],
)
def test_record_video_records_what_gymnasium_records(tmp_path: Path, triggers: dict[str, Any]) -> None:
    """The same recordings, and ``recording`` flips on the same calls, as Gymnasium's (which needs MoviePy)."""
    pytest.importorskip("moviepy")
    gymnasium = pytest.importorskip("gymnasium")
    from tests.reference.wrappers.vector.test_rendering import _tiny_env

    ours = RecordVideo(_tiny_env(Env, Box, Discrete)(), str(tmp_path / "ours"), video_format="png", **triggers)
    theirs = gymnasium.wrappers.RecordVideo(
        _tiny_env(gymnasium.Env, gymnasium.spaces.Box, gymnasium.spaces.Discrete)(),
        str(tmp_path / "theirs"),
        **triggers,
    )
    flags: list[tuple[bool, bool]] = []
    for env in (ours, theirs):
        env.reset(seed=5)
    for _ in range(60):
        ended = [env.step(0)[2] for env in (ours, theirs)]
        flags.append((ours.recording, theirs.recording))
        if ended[0]:
            ours.reset()
            theirs.reset()
    ours.close()
    theirs.close()
    assert all(a == b for a, b in flags)
    names = sorted(os.listdir(tmp_path / "ours"))
    assert names == sorted(name.removesuffix(".mp4") for name in os.listdir(tmp_path / "theirs"))
    if "video_length" in triggers:
        for name in names:
            assert json.loads((tmp_path / "ours" / name / "video.json").read_text())["frames"] == 4


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is None, reason="moviepy is not installed")
def test_record_video_writes_mp4_files_with_moviepy(tmp_path: Path) -> None:
    env = RecordVideo(BoxEnv(length=3, render_mode="rgb_array"), str(tmp_path), episode_trigger=lambda ep: True)
    assert env.video_format == "mp4"
    env.reset()
    for _ in range(3):
        env.step(_ZERO)
    env.close()
    assert sorted(os.listdir(tmp_path)) == ["rl-video-episode-0.mp4"]


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is not None, reason="moviepy is installed")
def test_record_video_without_moviepy_writes_png_or_explains(tmp_path: Path) -> None:
    assert RecordVideo(BoxEnv(render_mode="rgb_array"), str(tmp_path / "a")).video_format == "png"
    with pytest.raises(DependencyNotInstalled, match=r"gymspec\[other\]"):
        RecordVideo(BoxEnv(render_mode="rgb_array"), str(tmp_path / "b"), video_format="mp4")
