"""Tests for reference.utils.save_video (the writing needs MoviePy; without it, DependencyNotInstalled)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from reference.error import DependencyNotInstalled
from reference.utils.save_video import capped_cubic_video_schedule, save_video


def test_capped_cubic_schedule() -> None:
    assert [e for e in range(1001) if capped_cubic_video_schedule(e)] == [n**3 for n in range(10)] + [1000]
    assert capped_cubic_video_schedule(5000) and not capped_cubic_video_schedule(5001)


def _frames(n: int) -> list[np.ndarray[Any, Any]]:
    return [np.full((16, 16, 3), 10 * i, dtype=np.uint8) for i in range(n)]


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is None, reason="moviepy is not installed")
def test_save_video_writes_the_triggered_episode_and_step_clips(tmp_path: Path) -> None:
    save_video(
        _frames(6), str(tmp_path), episode_trigger=lambda e: e == 2, step_trigger=lambda s: s in (11, 13),
        video_length=2, episode_index=2, step_starting_index=10, fps=4,
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rl-video-episode-2.mp4", "rl-video-step-11.mp4", "rl-video-step-13.mp4",
    ]


@pytest.mark.skipif(importlib.util.find_spec("moviepy") is not None, reason="moviepy is installed")
def test_save_video_without_moviepy_says_how_to_install_it(tmp_path: Path) -> None:
    with pytest.raises(DependencyNotInstalled, match=r'gymspec\[other\]'):
        save_video(_frames(2), str(tmp_path), fps=4)
