"""Where :class:`RecordVideo` recordings go: an MP4 per recording (MoviePy), or a folder of PNG frames.

``VideoWriter`` takes one recording's frames and writes them in one of two formats:

* ``"mp4"`` (Gymnasium's): ``{folder}/{name}.mp4``, encoded by MoviePy when the recording ends; frames are kept
  in memory until then, as Gymnasium does.
* ``"png"`` (no codec dependency): ``{folder}/{name}/frame_000000.png, ...`` written as they come, plus
  ``video.json`` (``{"fps": ..., "frames": ...}``) when the recording ends.
"""

from __future__ import annotations

import gc
import json
import math
import os
from typing import cast

import numpy as np
from numpy.typing import NDArray

from reference import logger
from reference._framework import import_pygame, require_bool
from reference.utils._format import describe
from reference.utils._optional import import_optional, is_installed

__all__ = ["VIDEO_FORMATS", "VideoWriter", "check_recording_args", "check_video_format", "default_video_format"]

VIDEO_FORMATS = ("mp4", "png")
_Frame = NDArray[np.uint8]


def default_video_format() -> str:
    """``"mp4"`` when MoviePy is installed (Gymnasium's output), ``"png"`` otherwise."""
    return "mp4" if is_installed("moviepy") else "png"


def check_video_format(owner: str, video_format: str | None) -> str:
    """Resolve a ``video_format`` argument (``None``: :func:`default_video_format`).

    Args:
        owner: The wrapper, for messages.
        video_format: ``"mp4"``, ``"png"`` or ``None``.

    Returns:
        The format.

    Raises:
        ValueError: If it is another value.
        DependencyNotInstalled: If ``"mp4"`` is asked for without MoviePy.
    """
    if video_format is None:
        return default_video_format()
    if not isinstance(video_format, str) or video_format not in VIDEO_FORMATS:
        raise ValueError(f"{owner} video_format must be one of {list(VIDEO_FORMATS)} or None, got {video_format!r}")
    if video_format == "mp4":
        import_optional("moviepy", f"{owner} video_format='mp4'")
    return video_format


def check_recording_args(
    owner: str,
    video_folder: object,
    name_prefix: object,
    fps: object,
    disable_logger: object,
    triggers: dict[str, object],
) -> None:
    """Check the arguments both ``RecordVideo`` wrappers take, before any folder is made or trigger called.

    Args:
        owner: The wrapper, for messages.
        video_folder: A path (str or ``os.PathLike``).
        name_prefix: The file name prefix (str).
        fps: ``None`` or a positive number.
        disable_logger: A bool.
        triggers: The trigger arguments by name (``None`` or callables).

    Raises:
        TypeError: If an argument has the wrong type.
        ValueError: If ``fps`` is not positive, or a name holds a NUL character (no file system allows one).
    """
    if not isinstance(video_folder, (str, os.PathLike)):
        raise TypeError(f"{owner} video_folder must be a str or os.PathLike, got {describe(video_folder)}")
    if not isinstance(name_prefix, str):
        raise TypeError(f"{owner} name_prefix must be a str, got {describe(name_prefix)}")
    for param, name in (("video_folder", str(cast(object, video_folder))), ("name_prefix", name_prefix)):
        if "\x00" in name:
            raise ValueError(f"{owner} {param} must not contain a NUL character, got {name!r}")
    if fps is not None:
        if isinstance(fps, bool) or not isinstance(fps, (int, float, np.integer, np.floating)):
            raise TypeError(f"{owner} fps must be a number or None, got {describe(fps)}")
        try:
            rate = float(cast(float, fps))
        except OverflowError:  # an int beyond float64
            rate = math.inf
        if not (rate > 0 and math.isfinite(rate)):
            raise ValueError(f"{owner} fps must be positive and finite, got {fps!r}")
    require_bool(owner, disable_logger=disable_logger)
    for param, trigger in triggers.items():
        if trigger is not None and not callable(trigger):
            raise TypeError(f"{owner} {param} must be a callable or None, got {describe(trigger)}")


class VideoWriter:
    """One recording: collects frames with :meth:`add`, then writes the video with :meth:`finish`.

    Args:
        folder: The recordings folder (exists).
        name: This recording's name (the file or folder name without extension).
        fps: Frames per second.
        video_format: ``"mp4"`` or ``"png"``.
        disable_logger: Silence MoviePy's progress bar.
    """

    def __init__(self, folder: str, name: str, fps: float, video_format: str, disable_logger: bool) -> None:
        self.name = name
        self.frames = 0
        self._folder = folder
        self._fps = fps
        self._format = video_format
        self._disable_logger = disable_logger
        self._pending: list[_Frame] = []
        if video_format == "png":
            os.makedirs(os.path.join(folder, name), exist_ok=True)

    def add(self, frame: _Frame) -> None:
        """Append a ``(height, width, 3)`` frame.

        Args:
            frame: The frame.
        """
        if self._format == "mp4":
            self._pending.append(frame)
        else:
            pygame = import_pygame()
            pixels = np.ascontiguousarray(np.transpose(frame, (1, 0, 2)), dtype=np.uint8)
            path = os.path.join(self._folder, self.name, f"frame_{self.frames:06d}.png")
            pygame.image.save(pygame.surfarray.make_surface(pixels), path)
        self.frames += 1

    def finish(self, collect_garbage: bool) -> None:
        """Write the video (warn and write nothing if it has no frame).

        Args:
            collect_garbage: Run ``gc.collect()`` afterwards (the wrapper's ``gc_trigger``), to free a long
                recording's frames at once.
        """
        if self.frames == 0:
            logger.warn("Ignored saving a video as there were zero frames to save.")
        elif self._format == "mp4":
            clip_module = import_optional("moviepy.video.io.ImageSequenceClip", "RecordVideo")
            clip = clip_module.ImageSequenceClip(self._pending, fps=self._fps)
            path = os.path.join(self._folder, f"{self.name}.mp4")
            clip.write_videofile(path, logger=None if self._disable_logger else "bar")
            self._pending = []
        else:
            with open(os.path.join(self._folder, self.name, "video.json"), "w") as file:
                json.dump({"fps": self._fps, "frames": self.frames}, file)
        if collect_garbage:
            gc.collect()
