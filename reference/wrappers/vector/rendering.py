"""Vector wrappers that show or record the sub-environments' frames, tiled into one image.

* :class:`HumanRendering` shows every sub-environment's frame in one pygame window.
* :class:`RecordVideo` records chosen episodes (of sub-environment 0) or step ranges as videos of the tiled
  frames (MP4 with MoviePy, or PNG frames; see :class:`reference.wrappers.RecordVideo`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from copy import deepcopy
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference import logger
from reference._framework import import_pygame, require_bool
from reference._narrowing import is_array, is_list, is_sequence, is_tuple
from reference.core import ActType, ObsType
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs
from reference.utils.save_video import capped_cubic_video_schedule
from reference.vector.vector_env import AutoresetMode, VectorEnv, VectorWrapper
from reference.wrappers._image import resize_image
from reference.wrappers._shared import is_int
from reference.wrappers._video import VideoWriter, check_recording_args, check_video_format
from reference.wrappers.vector._utils import declared_autoreset_mode

__all__ = ["HumanRendering", "RecordVideo"]

_Batch: TypeAlias = NDArray[Any]
_Frame: TypeAlias = NDArray[np.uint8]
_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Seed: TypeAlias = "int | list[int | None] | None"
_Surface: TypeAlias = Any  # pygame.Surface; pygame ships no type information
_CloseOption: TypeAlias = Any
_IMAGE_MODES = ("rgb_array", "rgb_array_list", "depth_array", "depth_array_list")


def _sub_frames(owner: str, frames: object, num_envs: int) -> list[_Frame]:
    """One ``(H, W, 3)`` uint8 frame per sub-environment from what a vector ``render()`` returned."""
    if not is_sequence(frames) or len(frames) != num_envs:
        raise ValueError(f"{owner} env.render() must return one frame per sub-environment ({num_envs}), got {frames!r}")
    result: list[_Frame] = []
    for item in frames:
        frame: object = item[-1] if is_list(item) else item  # an *_list mode: the newest frame
        if not is_array(frame):
            raise TypeError(f"{owner} env.render() frames must be numpy arrays, got {type(frame).__name__}")
        if frame.ndim == 2:  # depth frames are shown as greyscale
            frame = np.repeat(frame[..., None], 3, axis=2)
        result.append(np.asarray(frame, dtype=np.uint8))
    return result


class HumanRendering(VectorWrapper[ObsType, ActType, ObsType, ActType, _Batch], RecordConstructorArgs):
    """Show every sub-environment's frame, tiled in a grid, in one pygame window after each ``reset``/``step``.

    The grid is as square as the window allows; each frame is scaled (area interpolation) to fit its cell.

    Args:
        env: The vector environment; its render mode must produce image arrays.
        screen_size: The window size ``(width, height)``; ``None`` uses one sub-environment frame's size.

    Raises:
        ValueError: If the render mode cannot produce frames or ``render_fps`` is missing.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleVectorEnv
        >>> envs = HumanRendering(CartPoleVectorEnv(num_envs=4, render_mode="rgb_array"), screen_size=(600, 400))
        >>> envs.render_mode
        'human'
        >>> _ = envs.reset(seed=0)  # draws the four carts in a 2 x 2 grid
        >>> envs.num_rows, envs.num_cols, envs.scaled_subenv_size
        (2, 2, (300, 200))
        >>> envs.close()
    """

    ACCEPTED_RENDER_MODES = list(_IMAGE_MODES)

    def __init__(self, env: VectorEnv[ObsType, ActType, _Batch], screen_size: tuple[int, int] | None = None) -> None:
        VectorWrapper.__init__(self, env)
        RecordConstructorArgs.__init__(self, screen_size=screen_size)
        if env.render_mode not in self.ACCEPTED_RENDER_MODES:
            raise ValueError(
                f"HumanRendering env.render_mode must be one of {self.ACCEPTED_RENDER_MODES}, got {env.render_mode!r}"
            )
        if "render_fps" not in env.metadata:
            raise ValueError(f"HumanRendering env.metadata must specify 'render_fps', got keys {sorted(env.metadata)}")
        if screen_size is not None and not (
            isinstance(screen_size, tuple) and len(screen_size) == 2 and all(is_int(s) and s > 0 for s in screen_size)
        ):
            raise ValueError(f"HumanRendering screen_size must be None or (width, height) > 0, got {screen_size!r}")
        self.screen_size = screen_size
        self.num_rows: int | None = None
        self.num_cols: int | None = None
        self.scaled_subenv_size: tuple[int, int] | None = None
        self.window: _Surface = None
        self.clock: _Surface = None
        if "human" not in env.metadata.get("render_modes", []):
            metadata = deepcopy(dict(env.metadata))
            metadata["render_modes"] = [*metadata.get("render_modes", []), "human"]
            self.metadata = metadata

    @property
    def render_mode(self) -> str | None:
        """Always ``"human"``."""
        return "human"

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        raise AttributeError("HumanRendering.render_mode is always 'human' and cannot be set")

    def reset(self, *, seed: _Seed = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset the sub-environments and show their frames.

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        result = self.env.reset(seed=seed, options=options)
        self._render_frame()
        return result

    def step(self, actions: ActType) -> tuple[ObsType, _Batch, _Batch, _Batch, _Info]:
        """Step the sub-environments and show their frames.

        Args:
            actions: Passed through.

        Returns:
            The inner step result.
        """
        result = self.env.step(actions)
        self._render_frame()
        return result

    def render(self) -> None:
        """Do nothing: frames are drawn by ``reset`` and ``step``."""
        return None

    def _layout(self, frame_width: int, frame_height: int) -> tuple[int, int]:
        """Choose the grid (growing the dimension that keeps cells largest) and the scaled cell size."""
        screen_width, screen_height = self.screen_size or (frame_width, frame_height)
        width_ratio, height_ratio = frame_width / screen_width, frame_height / screen_height
        rows, cols = 1, 1
        while rows * cols < self.num_envs:
            row_ratio, col_ratio = rows * height_ratio, cols * width_ratio
            if row_ratio == col_ratio:
                rows, cols = rows + 1, cols + 1
            elif row_ratio > col_ratio:
                cols += 1
            else:
                rows += 1
        scale = min(screen_width / (cols * frame_width), screen_height / (rows * frame_height))
        self.num_rows, self.num_cols = rows, cols
        return int(frame_width * scale), int(frame_height * scale)

    def _render_frame(self) -> None:
        frames = _sub_frames("HumanRendering", self.env.render(), self.num_envs)
        frame_height, frame_width = frames[0].shape[:2]
        if self.screen_size is None:
            self.screen_size = (frame_width, frame_height)
        if self.scaled_subenv_size is None:
            self.scaled_subenv_size = self._layout(frame_width, frame_height)
        cell_width, cell_height = self.scaled_subenv_size
        screen_width, screen_height = self.screen_size
        canvas = np.zeros((screen_height, screen_width, 3), dtype=np.uint8)
        for index, frame in enumerate(frames):
            row, col = divmod(index, int(self.num_cols or 1))
            top, left = row * cell_height, col * cell_width
            canvas[top : top + cell_height, left : left + cell_width] = resize_image(frame, (cell_height, cell_width))
        pygame = import_pygame()
        if self.window is None:
            pygame.display.init()
            self.window = pygame.display.set_mode(self.screen_size)
        if self.clock is None:
            self.clock = pygame.time.Clock()
        self.window.blit(pygame.surfarray.make_surface(np.transpose(canvas, (1, 0, 2))), (0, 0))
        pygame.event.pump()
        self.clock.tick(self.metadata["render_fps"])
        pygame.display.flip()

    def close(self, **kwargs: _CloseOption) -> None:
        """Close the window (if one was opened) and the vector environment.

        Args:
            **kwargs: Passed to the inner ``close``.
        """
        if self.window is not None:
            import_pygame().display.quit()
            self.window = self.clock = None
        self.env.close(**kwargs)


class RecordVideo(VectorWrapper[ObsType, ActType, ObsType, ActType, _Batch], RecordConstructorArgs):
    """Record episodes (counted on sub-environment 0) or step ranges as videos of all sub-environments' frames.

    Each video frame tiles the sub-environments' frames in the grid whose aspect ratio is closest to
    ``video_aspect_ratio``. Episodes are counted on sub-environment 0 under every autoreset mode; under
    ``SameStep`` autoreset an episode's last frame is not recorded (the sub-environment has already reset).
    Otherwise as :class:`reference.wrappers.RecordVideo` (triggers, ``video_length``, output formats).

    Args:
        env: The vector environment; its render mode must produce image arrays.
        video_folder: Where recordings go (created if needed).
        video_aspect_ratio: The ``(width, height)`` ratio the tiled frame should approach.
        record_first_only: Record sub-environment 0 only.
        episode_trigger: ``episode_id -> bool``; defaults to the capped cubic schedule when neither trigger is given.
        step_trigger: ``step_id -> bool``.
        video_length: Frames per recording; ``0`` records whole episodes.
        name_prefix: Prefix of the recording names.
        fps: Frames per second; defaults to ``metadata["render_fps"]`` or 30.
        disable_logger: Silence MoviePy's progress bar.
        gc_trigger: ``episode_id -> bool``: run ``gc.collect()`` after a recording saved in this episode.
        video_format: ``"mp4"``, ``"png"`` or ``None`` (MP4 when MoviePy is installed, else PNG).

    Raises:
        ValueError: If the render mode cannot produce frames, ``video_length`` is negative or ``video_format``
            is unknown.
        DependencyNotInstalled: If ``video_format="mp4"`` and MoviePy is not installed.

    Example:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from reference.envs.classic_control.cartpole import CartPoleVectorEnv
        >>> folder = tempfile.mkdtemp()
        >>> envs = CartPoleVectorEnv(num_envs=4, render_mode="rgb_array")
        >>> envs = RecordVideo(envs, folder, step_trigger=lambda step: step == 0, video_length=3, video_format="png")
        >>> _ = envs.reset(seed=0)
        >>> for _ in range(5):
        ...     _ = envs.step(np.ones(4, dtype=np.int64))
        >>> envs.close()
        >>> sorted(os.listdir(os.path.join(folder, "rl-video-step-0")))
        ['frame_000000.png', 'frame_000001.png', 'frame_000002.png', 'video.json']
        >>> envs.frame_rows, envs.frame_cols  # four 600 x 400 frames tile closest to 1:1 as 2 x 2
        (2, 2)
    """

    def __init__(
        self,
        env: VectorEnv[ObsType, ActType, _Batch],
        video_folder: str,
        video_aspect_ratio: tuple[int, int] = (1, 1),
        record_first_only: bool = False,
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
        VectorWrapper.__init__(self, env)
        RecordConstructorArgs.__init__(
            self, video_folder=video_folder, episode_trigger=episode_trigger, step_trigger=step_trigger,
            video_length=video_length, name_prefix=name_prefix, disable_logger=disable_logger,
        )
        check_recording_args(
            "RecordVideo",
            video_folder,
            name_prefix,
            fps,
            disable_logger,
            {"episode_trigger": episode_trigger, "step_trigger": step_trigger, "gc_trigger": gc_trigger},
        )
        if not (
            is_tuple(video_aspect_ratio)
            and len(video_aspect_ratio) == 2
            and all(is_int(side) and side > 0 for side in video_aspect_ratio)
        ):
            raise TypeError(
                f"RecordVideo video_aspect_ratio must be a (rows, columns) tuple of positive ints, "
                f"got {describe(video_aspect_ratio)}"
            )
        require_bool("RecordVideo", record_first_only=record_first_only)
        if env.render_mode in (None, "human", "ansi", "ansi_list"):
            raise ValueError(
                f"RecordVideo env.render_mode must produce image arrays (e.g. 'rgb_array'), got {env.render_mode!r}"
            )
        if not is_int(video_length) or video_length < 0:
            raise ValueError(
                f"RecordVideo video_length must be a non-negative int (0: whole episodes), got {video_length!r}"
            )
        self.video_format = check_video_format("RecordVideo", video_format)
        self.autoreset_mode = declared_autoreset_mode("RecordVideo", env)
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            logger.warn(
                "Vector environment's autoreset mode is same-step (https://farama.org/Vector-Autoreset-Mode). "
                "Recorded episodes will not contain the last frame of the episode."
            )
        self.episode_trigger = (
            capped_cubic_video_schedule if episode_trigger is None and step_trigger is None else episode_trigger
        )
        self.step_trigger = step_trigger
        self.disable_logger = disable_logger
        self.gc_trigger = gc_trigger
        self.record_first_only = record_first_only
        self.video_aspect_ratio = video_aspect_ratio
        self.frame_rows = self.frame_cols = -1
        self.video_folder = os.path.abspath(video_folder)
        if os.path.isdir(self.video_folder) and os.listdir(self.video_folder):
            logger.warn(
                f"Overwriting existing videos at {self.video_folder} folder (try specifying a different "
                "`video_folder` for the `RecordVideo` wrapper if this is not desired)"
            )
        os.makedirs(self.video_folder, exist_ok=True)
        self.frames_per_sec: float = fps if fps is not None else self.metadata.get("render_fps", 30)
        self.name_prefix = name_prefix
        self.video_length: float = video_length if video_length != 0 else float("inf")
        self._writer: VideoWriter | None = None
        self.has_autoreset = False
        self.step_id = -1
        self.episode_id = -1

    @property
    def recording(self) -> bool:
        """Whether a recording is in progress."""
        return self._writer is not None

    def _grid(self, count: int, height: int, width: int) -> None:
        """Choose the rows x columns (a divisor pair of ``count``) closest to the target aspect ratio."""
        target = self.video_aspect_ratio[0] / self.video_aspect_ratio[1]
        best, best_diff = (1, count), np.inf
        for rows in range(1, int(count**0.5) + 1):
            if count % rows == 0:
                cols = count // rows
                diff = abs((cols * width) / (rows * height) - target)
                if diff < best_diff:
                    best, best_diff = (rows, cols), diff
        self.frame_rows, self.frame_cols = best

    def _capture_frame(self) -> None:
        if self._writer is None:
            return
        frames = _sub_frames("RecordVideo", self.env.render(), self.num_envs)
        if self.record_first_only:
            frames = frames[:1]
        height, width, channels = frames[0].shape
        if self.frame_rows == -1:
            self._grid(len(frames), height, width)
        tiled = np.zeros((self.frame_rows * height, self.frame_cols * width, channels), dtype=frames[0].dtype)
        for index, frame in enumerate(frames):
            row, col = divmod(index, self.frame_cols)
            tiled[row * height : (row + 1) * height, col * width : (col + 1) * width] = frame
        self._writer.add(tiled)

    def _full(self) -> bool:
        return self._writer is not None and self._writer.frames >= self.video_length

    def _new_episode(self) -> None:
        self.episode_id += 1
        if self.video_length == float("inf"):
            self.stop_recording()
        if self.episode_trigger is not None and self.episode_trigger(self.episode_id):
            self.start_recording(f"{self.name_prefix}-episode-{self.episode_id}")

    def reset(self, *, seed: _Seed = None, options: _Options | None = None) -> tuple[ObsType, _Info]:
        """Reset; a reset that includes sub-environment 0 starts a new episode (and maybe a recording).

        Args:
            seed: Passed through.
            options: Passed through.

        Returns:
            The inner reset result.
        """
        mask = None if options is None else options.get("reset_mask")
        if self._full():
            self.stop_recording()
        if mask is None or bool(np.asarray(mask)[0]):
            self._new_episode()
        result = self.env.reset(seed=seed, options=options)
        self._capture_frame()
        self.has_autoreset = False
        return result

    def step(self, actions: ActType) -> tuple[ObsType, _Batch, _Batch, _Batch, _Info]:
        """Step; record the frame when recording, and follow sub-environment 0's episodes.

        Args:
            actions: Passed through.

        Returns:
            The inner step result.
        """
        obs, rewards, terminations, truncations, info = self.env.step(actions)
        self.step_id += 1
        if self._full():
            self.stop_recording()
        ended = bool(terminations[0] or truncations[0])
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            if self.has_autoreset:
                self._new_episode()
            self.has_autoreset = ended
        elif self.autoreset_mode == AutoresetMode.SAME_STEP and ended:
            self._new_episode()
        if self.step_trigger is not None and self.step_trigger(self.step_id):
            self.start_recording(f"{self.name_prefix}-step-{self.step_id}")
        self._capture_frame()
        return obs, rewards, terminations, truncations, info

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

    def close(self, **kwargs: _CloseOption) -> None:
        """Finish any recording, then close the vector environment.

        Args:
            **kwargs: Passed to the inner ``close``.
        """
        self.stop_recording()
        self.env.close(**kwargs)
