"""Save rendered frames as MP4 videos (needs MoviePy: ``pip install "gymspec[other]"``).

:func:`save_video` cuts a list of frames (e.g. from ``render_mode="rgb_array_list"``) into videos chosen by an
episode or step trigger; :func:`capped_cubic_video_schedule` is the default episode trigger, also used by
:class:`~reference.wrappers.RecordVideo`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from reference import logger
from reference.utils._optional import import_optional

__all__ = ["capped_cubic_video_schedule", "save_video"]

_ClipKwarg: TypeAlias = Any


def capped_cubic_video_schedule(episode_id: int) -> bool:
    """Record episodes 0, 1, 8, 27, ..., 729 (perfect cubes below 1000), then every 1000th.

    Args:
        episode_id: The episode number, from 0.

    Returns:
        Whether to record that episode.

    Example:
        >>> [e for e in range(30) if capped_cubic_video_schedule(e)]
        [0, 1, 8, 27]
    """
    if episode_id < 1000:
        return int(round(episode_id ** (1.0 / 3))) ** 3 == episode_id
    return episode_id % 1000 == 0


def save_video(
    frames: Sequence[Any],
    video_folder: str,
    episode_trigger: Callable[[int], bool] | None = None,
    step_trigger: Callable[[int], bool] | None = None,
    video_length: int | None = None,
    name_prefix: str = "rl-video",
    episode_index: int = 0,
    step_starting_index: int = 0,
    save_logger: str | None = None,
    **kwargs: _ClipKwarg,
) -> None:
    """Write videos of one episode's frames: the episode (if its trigger fires) and clips from triggered steps.

    The episode video is ``{video_folder}/{name_prefix}-episode-{episode_index}.mp4``; each step whose trigger
    fires starts a clip ``{name_prefix}-step-{step}.mp4`` (``frames[0]`` is the reset frame, so step ``i`` of the
    episode is ``frames[i + 1]``).

    Args:
        frames: The episode's frames, ``(height, width, 3)`` uint8 arrays.
        video_folder: Where the videos go (created if needed).
        episode_trigger: ``episode -> bool``; defaults to :func:`capped_cubic_video_schedule` when neither
            trigger is given.
        step_trigger: ``step -> bool`` (global step numbers, from ``step_starting_index``).
        video_length: Frames per video; ``None`` for the rest of the episode.
        name_prefix: The file name prefix.
        episode_index: This episode's number.
        step_starting_index: The global number of the episode's first step.
        save_logger: MoviePy's logger (``"bar"`` shows progress; ``None`` is silent).
        **kwargs: Passed to MoviePy's ``ImageSequenceClip`` (``fps`` or ``durations`` is required).

    Raises:
        DependencyNotInstalled: If MoviePy is not installed.
    """
    clip_module = import_optional("moviepy.video.io.ImageSequenceClip", "save_video")
    if not isinstance(frames, list):
        logger.error(f"Expected a list of frames, got a {type(frames)} instead.")
    if episode_trigger is None and step_trigger is None:
        episode_trigger = capped_cubic_video_schedule
    folder = os.path.abspath(video_folder)
    os.makedirs(folder, exist_ok=True)

    def write(clip_frames: Sequence[Any], name: str) -> None:
        clip = clip_module.ImageSequenceClip(list(clip_frames), **kwargs)
        clip.write_videofile(os.path.join(folder, f"{name_prefix}-{name}.mp4"), logger=save_logger)

    if episode_trigger is not None and episode_trigger(episode_index):
        write(frames[:video_length], f"episode-{episode_index}")
    if step_trigger is not None:
        for step_index, frame_index in enumerate(range(1, len(frames)), start=step_starting_index):
            if step_trigger(step_index):
                end = None if video_length is None else frame_index + video_length
                write(frames[frame_index:end], f"step-{step_index}")
