"""The :class:`RecordVideo` wrapper: episodes saved as numbered PNG frames (re-exported by ``rendering``)."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import numpy as np

from reference import logger
from reference.core import ActType, Env, ObsType, RenderFrame, Wrapper
from reference._framework import import_pygame
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import AfterCallWrapper

__all__ = ["RecordVideo", "capped_cubic_video_schedule"]


def capped_cubic_video_schedule(episode_id: int) -> bool:
    """Record episodes 0, 1, 8, 27, ..., 729 (perfect cubes below 1000), then every 1000th.

    Args:
        episode_id: The episode number, from 0.

    Returns:
        Whether to record that episode.
    """
    if episode_id < 1000:
        return int(round(episode_id ** (1.0 / 3))) ** 3 == episode_id
    return episode_id % 1000 == 0


class RecordVideo(AfterCallWrapper[ObsType, ActType], RecordConstructorArgs):
    """Record chosen episodes (or step ranges) as numbered PNG frames, without a video-codec dependency.

    Same constructor as Gymnasium's ``RecordVideo``; the output format differs: each recording is a directory
    ``{video_folder}/{name}/`` holding ``frame_000000.png``, ``frame_000001.png``, ... and ``video.json``
    (``{"fps": ..., "frames": ...}``), where ``name`` is ``{name_prefix}-episode-{i}`` or
    ``{name_prefix}-step-{i}``. Turn it into a video with e.g.
    ``ffmpeg -framerate FPS -i frame_%06d.png video.mp4``. The triggers are consulted after each inner ``reset``
    (episode) and ``step``; while recording, a frame is captured after each.

    Args:
        env: The environment to wrap; its render mode must produce arrays (``rgb_array`` or ``rgb_array_list``).
        video_folder: Where recordings go (created if needed).
        episode_trigger: ``episode_id -> bool``: start recording at this episode's reset. Defaults to
            :func:`capped_cubic_video_schedule` when neither trigger is given.
        step_trigger: ``step_id -> bool``: start recording at this step.
        video_length: Frames per recording; ``0`` records whole episodes.
        name_prefix: Prefix of the recording names.
        fps: Frames per second written to ``video.json``; defaults to ``metadata["render_fps"]`` or 30.
        disable_logger: Accepted for compatibility; nothing is logged per frame.
        gc_trigger: Accepted for compatibility; frames are written as they come, so nothing accumulates.

    Raises:
        ValueError: If the render mode cannot produce frames or ``video_length`` is negative.

    Example:
        >>> import os, tempfile
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> folder = tempfile.mkdtemp()
        >>> env = RecordVideo(CartPoleEnv(render_mode="rgb_array"), folder, episode_trigger=lambda ep: True)
        >>> _ = env.reset(seed=0)
        >>> _ = env.step(0)
        >>> env.close()
        >>> sorted(os.listdir(os.path.join(folder, "rl-video-episode-0")))
        ['frame_000000.png', 'frame_000001.png', 'video.json']
    """

    def __init__(
        self,
        env: Env[ObsType, ActType],
        video_folder: str,
        episode_trigger: Callable[[int], bool] | None = None,
        step_trigger: Callable[[int], bool] | None = None,
        video_length: int = 0,
        name_prefix: str = "rl-video",
        fps: int | None = None,
        disable_logger: bool = True,
        gc_trigger: Callable[[int], bool] | None = lambda episode: True,
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
        )
        Wrapper.__init__(self, env)
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
        self.video_folder = os.path.abspath(video_folder)
        if os.path.isdir(self.video_folder) and os.listdir(self.video_folder):
            logger.warn(
                f"Overwriting existing videos at {self.video_folder} folder (try specifying a different "
                "`video_folder` for the `RecordVideo` wrapper if this is not desired)"
            )
        os.makedirs(self.video_folder, exist_ok=True)
        self.frames_per_sec: float = fps if fps is not None else env.metadata.get("render_fps", 30)
        self.name_prefix = name_prefix
        self.video_length: float = video_length if video_length != 0 else float("inf")
        self.recording = False
        self._video_name: str | None = None
        self._frame_count = 0
        self.step_id = -1
        self.episode_id = -1
        # Frames taken from an inner *_list render while capturing, handed back by the next render() call.
        self.render_history: list[RenderFrame] = []

    def _frame_path(self, index: int) -> str:
        return os.path.join(self.video_folder, str(self._video_name), f"frame_{index:06d}.png")

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
        pygame = import_pygame()
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(np.transpose(frame, (1, 0, 2)), dtype=np.uint8))
        pygame.image.save(surface, self._frame_path(self._frame_count))
        self._frame_count += 1
        if self._frame_count >= self.video_length:
            self.stop_recording()

    def _after_reset(self) -> None:
        self.episode_id += 1
        if self.recording and self.video_length == float("inf"):
            self.stop_recording()  # a whole-episode recording ends with its episode
        if self.episode_trigger is not None and self.episode_trigger(self.episode_id):
            self.start_recording(f"{self.name_prefix}-episode-{self.episode_id}")
        if self.recording:
            self._capture_frame()

    def _after_step(self) -> None:
        self.step_id += 1
        if self.step_trigger is not None and self.step_trigger(self.step_id):
            self.start_recording(f"{self.name_prefix}-step-{self.step_id}")
        if self.recording:
            self._capture_frame()

    def render(self) -> RenderFrame | list[RenderFrame] | None:
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
            video_name: The recording's directory name inside ``video_folder``.
        """
        if self.recording:
            self.stop_recording()
        os.makedirs(os.path.join(self.video_folder, video_name), exist_ok=True)
        self.recording = True
        self._video_name = video_name
        self._frame_count = 0

    def stop_recording(self) -> None:
        """Finish the current recording: write its ``video.json``. Does nothing when not recording."""
        if not self.recording:
            return
        if self._frame_count == 0:
            logger.warn("Ignored saving a video as there were zero frames to save.")
        else:
            with open(os.path.join(self.video_folder, str(self._video_name), "video.json"), "w") as file:
                json.dump({"fps": self.frames_per_sec, "frames": self._frame_count}, file)
        self.recording = False
        self._video_name = None
        self._frame_count = 0

    def close(self) -> None:
        """Finish any recording, then close the inner environment."""
        self.stop_recording()
        self.env.close()
