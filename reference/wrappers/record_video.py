"""The :class:`RecordVideo` wrapper: chosen episodes or step ranges saved as videos (re-exported by ``rendering``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import cast

import numpy as np

import gymspec
from gymspec import RenderResult
from reference import logger
from reference.core import ActType, ObsType, RenderFrame, Wrapper
from reference.utils.record_constructor import RecordConstructorArgs
from reference.utils.save_video import capped_cubic_video_schedule
from reference.wrappers._shared import AfterCallWrapper
from reference.wrappers._video import VideoWriter, check_recording_args, check_video_format

__all__ = ["RecordVideo"]


class RecordVideo(AfterCallWrapper[ObsType, ActType], RecordConstructorArgs):
    """Record chosen episodes (or step ranges) as videos, as Gymnasium's ``RecordVideo`` does.

    The triggers are consulted after each inner ``reset`` (episode) and ``step``; while recording, a frame is
    captured after each. A recording ends with its episode (``video_length=0``), once it holds
    ``video_length`` frames (it stops at the next call, so :attr:`recording` stays ``True`` until then, as in
    Gymnasium), when another one starts, or at :meth:`close`.

    Output (``video_format``): ``"mp4"`` writes ``{video_folder}/{name}.mp4`` with MoviePy, exactly as Gymnasium
    does; ``"png"`` needs no codec and writes ``{video_folder}/{name}/frame_000000.png, ...`` plus ``video.json``
    (``{"fps": ..., "frames": ...}``; ``ffmpeg -framerate FPS -i frame_%06d.png video.mp4`` makes the MP4). The
    default is ``"mp4"`` when MoviePy is installed and ``"png"`` otherwise. ``name`` is
    ``{name_prefix}-episode-{i}`` or ``{name_prefix}-step-{i}``.

    Args:
        env: The environment to wrap; its render mode must produce arrays (``rgb_array`` or ``rgb_array_list``).
        video_folder: Where recordings go (created if needed).
        episode_trigger: ``episode_id -> bool``: start recording at this episode's reset. Defaults to
            :func:`~reference.utils.save_video.capped_cubic_video_schedule` when neither trigger is given.
        step_trigger: ``step_id -> bool``: start recording at this step.
        video_length: Frames per recording; ``0`` records whole episodes.
        name_prefix: Prefix of the recording names.
        fps: Frames per second of the video; defaults to ``metadata["render_fps"]`` or 30.
        disable_logger: Silence MoviePy's progress bar.
        gc_trigger: ``episode_id -> bool``: run ``gc.collect()`` after a recording saved in this episode.
        video_format: ``"mp4"``, ``"png"`` or ``None`` (the default described above).

    Raises:
        ValueError: If the render mode cannot produce frames, ``video_length`` is negative or ``video_format``
            is unknown.
        DependencyNotInstalled: If ``video_format="mp4"`` and MoviePy is not installed.

    Example:
        >>> import os, tempfile
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> folder = tempfile.mkdtemp()
        >>> env = RecordVideo(
        ...     CartPoleEnv(render_mode="rgb_array"), folder, episode_trigger=lambda ep: True, video_format="png"
        ... )
        >>> _ = env.reset(seed=0)
        >>> _ = env.step(0)
        >>> env.close()
        >>> sorted(os.listdir(os.path.join(folder, "rl-video-episode-0")))
        ['frame_000000.png', 'frame_000001.png', 'video.json']
    """

    def __init__(
        self,
        env: gymspec.Env[ObsType, ActType],
        video_folder: str,
        episode_trigger: Callable[[int], bool] | None = None,
        step_trigger: Callable[[int], bool] | None = None,
        video_length: int = 0,
        name_prefix: str = "rl-video",
        fps: int | None = None,
        disable_logger: bool = True,
        gc_trigger: Callable[[int], bool] | None = lambda episode: True,
        *,
        video_format: str | None = None,
    ) -> None:
        RecordConstructorArgs.__init__(
            self,
            video_folder=video_folder,
            episode_trigger=episode_trigger,
            step_trigger=step_trigger,
            video_length=video_length,
            name_prefix=name_prefix,
            fps=fps,
            disable_logger=disable_logger,
            gc_trigger=gc_trigger,
            video_format=video_format,
        )
        Wrapper.__init__(self, env)
        check_recording_args(
            "RecordVideo",
            video_folder,
            name_prefix,
            fps,
            disable_logger,
            {"episode_trigger": episode_trigger, "step_trigger": step_trigger, "gc_trigger": gc_trigger},
        )
        if env.render_mode in (None, "human", "ansi", "ansi_list"):
            raise ValueError(
                f"RecordVideo env.render_mode must produce image arrays (e.g. 'rgb_array'), got {env.render_mode!r}"
            )
        if isinstance(video_length, bool) or not isinstance(video_length, int) or video_length < 0:
            raise ValueError(f"RecordVideo video_length must be a non-negative int (0: whole episodes), got {video_length!r}")
        if episode_trigger is None and step_trigger is None:
            episode_trigger = capped_cubic_video_schedule
        self.episode_trigger = episode_trigger
        self.step_trigger = step_trigger
        self.disable_logger = disable_logger
        self.gc_trigger = gc_trigger
        self.video_format = check_video_format("RecordVideo", video_format)
        self.video_folder = os.path.abspath(video_folder)
        if os.path.isdir(self.video_folder) and os.listdir(self.video_folder):
            logger.warn(
                f"Overwriting existing videos at {self.video_folder} folder (try specifying a different "
                "`video_folder` for the `RecordVideo` wrapper if this is not desired)"
            )
        os.makedirs(self.video_folder, exist_ok=True)
        inner_metadata = cast(gymspec.HasMetadata, env).metadata
        self.frames_per_sec: float = fps if fps is not None else inner_metadata.get("render_fps", 30)
        self.name_prefix = name_prefix
        self.video_length: float = video_length if video_length != 0 else float("inf")
        self._writer: VideoWriter | None = None
        self.step_id = -1
        self.episode_id = -1
        # Frames taken from an inner *_list render while capturing, handed back by the next render() call.
        self.render_history: list[RenderFrame] = []

    @property
    def recording(self) -> bool:
        """Whether a recording is in progress."""
        return self._writer is not None

    def _capture_frame(self) -> None:
        frame = self.env.render()
        if isinstance(frame, list):
            if not frame:
                logger.warn("Trying to capture render frame but 'env.render()' has just been called. The frame cannot be captured.")
                return
            self.render_history += frame
            frame = frame[-1]
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3:
            self.stop_recording()
            logger.warn(
                f"Recording stopped: RecordVideo frames must be (height, width, 3) arrays, got {type(frame).__name__}"
            )
            return
        if self._writer is not None:
            self._writer.add(frame)

    def _full(self) -> bool:
        return self._writer is not None and self._writer.frames >= self.video_length

    def _after_reset(self) -> None:
        self.episode_id += 1
        if self.video_length == float("inf") or self._full():
            self.stop_recording()  # a whole-episode recording ends with its episode
        if self.episode_trigger is not None and self.episode_trigger(self.episode_id):
            self.start_recording(f"{self.name_prefix}-episode-{self.episode_id}")
        if self.recording:
            self._capture_frame()

    def _after_step(self) -> None:
        self.step_id += 1
        if self._full():
            self.stop_recording()
        if self.step_trigger is not None and self.step_trigger(self.step_id):
            self.start_recording(f"{self.name_prefix}-step-{self.step_id}")
        if self.recording:
            self._capture_frame()

    def render(self) -> RenderResult:
        """Render the inner environment, prepending frames a ``*_list`` render handed to the recorder.

        Returns:
            The inner frame(s).
        """
        frames = self.env.render()
        if self.render_history and isinstance(frames, list):
            frames = self.render_history + frames
            self.render_history = []
        return frames

    def start_recording(self, video_name: str) -> None:
        """Start a new recording (finishing the current one first).

        Args:
            video_name: The recording's name (file or folder name in ``video_folder``).
        """
        self.stop_recording()
        self._writer = VideoWriter(
            self.video_folder, video_name, self.frames_per_sec, self.video_format, self.disable_logger
        )

    def stop_recording(self) -> None:
        """Finish the current recording and write it. Does nothing when not recording."""
        if self._writer is None:
            return
        writer, self._writer = self._writer, None
        writer.finish(collect_garbage=self.gc_trigger is not None and self.gc_trigger(self.episode_id))

    def close(self) -> None:
        """Finish any recording, then close the inner environment."""
        self.stop_recording()
        self.env.close()
