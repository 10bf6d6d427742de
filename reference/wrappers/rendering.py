"""Wrappers that consume or change rendering.

* :class:`RenderCollection` turns a mode ``X`` into ``X_list``: ``render`` returns every frame since the last call.
* :class:`HumanRendering` shows an ``rgb_array`` environment in a pygame window (``render_mode="human"``).
* :class:`RecordVideo` saves episodes as MP4 videos (MoviePy) or numbered PNG frames (:mod:`.record_video`).
* :class:`AddWhiteNoise` and :class:`ObstructView` corrupt rendered frames (:mod:`.frame_noise`).
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any, TypeAlias, cast

import numpy as np

import gymspec
from reference._framework import import_pygame, require_bool
from reference.core import ActType, ObsType, RenderFrame, Wrapper
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._shared import AfterCallWrapper

# Defined in their own modules, re-exported here where Gymnasium has them.
from reference.wrappers.frame_noise import AddWhiteNoise, ObstructView
from reference.wrappers.record_video import RecordVideo

__all__ = ["AddWhiteNoise", "HumanRendering", "ObstructView", "RecordVideo", "RenderCollection"]

_Surface: TypeAlias = Any  # pygame.Surface; pygame ships no type information


class RenderCollection(AfterCallWrapper[ObsType, ActType], RecordConstructorArgs):
    """Collect a frame after every ``reset`` and ``step``; ``render`` returns the collected list.

    ``render_mode`` becomes ``"<inner mode>_list"`` and is added to ``metadata["render_modes"]``.

    Args:
        env: The environment to wrap; its ``render_mode`` must be set and must not already end in ``_list``.
        pop_frames: Empty the list each time ``render`` returns it.
        reset_clean: Empty the list on ``reset``.

    Raises:
        ValueError: If the inner render mode is ``None`` or already a ``_list`` mode.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = RenderCollection(CartPoleEnv(render_mode="rgb_array"))
        >>> env.render_mode
        'rgb_array_list'
        >>> _ = env.reset(seed=0)
        >>> _ = env.step(0)
        >>> frames = env.render()
        >>> len(frames), frames[0].shape, len(env.render())
        (2, (400, 600, 3), 0)
    """

    def __init__(self, env: gymspec.Env[ObsType, ActType], pop_frames: bool = True, reset_clean: bool = True) -> None:
        require_bool("RenderCollection", pop_frames=pop_frames, reset_clean=reset_clean)
        RecordConstructorArgs.__init__(self, pop_frames=pop_frames, reset_clean=reset_clean)
        Wrapper.__init__(self, env)
        inner_mode = env.render_mode
        if inner_mode is None:
            raise ValueError("RenderCollection env.render_mode must not be None, got None; make the env with a render_mode")
        if inner_mode.endswith("_list"):
            raise ValueError(f"RenderCollection env.render_mode must not end with '_list', got {inner_mode!r}")
        self.frame_list: list[RenderFrame] = []
        self.pop_frames = pop_frames
        self.reset_clean = reset_clean
        metadata = deepcopy(dict(cast(gymspec.HasMetadata, env).metadata))
        modes = list(metadata.get("render_modes", []))
        if f"{inner_mode}_list" not in modes:
            modes.append(f"{inner_mode}_list")
        metadata["render_modes"] = modes
        self.metadata = metadata

    @property
    def render_mode(self) -> str | None:
        """``"<inner mode>_list"``."""
        return f"{self.env.render_mode}_list"

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        raise AttributeError("RenderCollection.render_mode is derived from the inner environment and cannot be set")

    def _after_step(self) -> None:
        frame = self.env.render()
        # The inner mode is not a list mode, so render() returns a single frame (or None for "human").
        self.frame_list.append(frame)  # type: ignore[arg-type]

    def _after_reset(self) -> None:
        if self.reset_clean:
            self.frame_list = []
        self._after_step()

    def render(self) -> list[RenderFrame]:
        """Return the collected frames (and start a new list if ``pop_frames``).

        Returns:
            The frames, oldest first.
        """
        frames = self.frame_list
        if self.pop_frames:
            self.frame_list = []
        return frames


class HumanRendering(AfterCallWrapper[ObsType, ActType], RecordConstructorArgs):
    """Show the frames of an ``rgb_array`` (or ``depth_array``) environment in a pygame window.

    After every ``reset`` and ``step`` the newest frame is drawn, paced at ``metadata["render_fps"]``.
    ``render_mode`` becomes ``"human"`` and ``render`` returns ``None``. Only pygame's display subsystem is
    started (``pygame.display.init()``), never ``pygame.init()``.

    Args:
        env: The environment to wrap.

    Raises:
        ValueError: If the inner render mode cannot produce frames or ``render_fps`` is missing.

    Example:
        >>> from reference.envs.classic_control.cartpole import CartPoleEnv
        >>> env = HumanRendering(CartPoleEnv(render_mode="rgb_array"))
        >>> env.render_mode, "human" in env.metadata["render_modes"]
        ('human', True)
        >>> env.close()
    """

    ACCEPTED_RENDER_MODES = ["rgb_array", "rgb_array_list", "depth_array", "depth_array_list"]

    def __init__(self, env: gymspec.Env[ObsType, ActType]) -> None:
        RecordConstructorArgs.__init__(self)
        Wrapper.__init__(self, env)
        if env.render_mode not in self.ACCEPTED_RENDER_MODES:
            raise ValueError(
                f"HumanRendering env.render_mode must be one of {self.ACCEPTED_RENDER_MODES}, got {env.render_mode!r}"
            )
        inner_metadata = cast(gymspec.HasMetadata, env).metadata
        if "render_fps" not in inner_metadata:
            raise ValueError(
                "HumanRendering env.metadata must specify 'render_fps', got keys " f"{sorted(inner_metadata)}"
            )
        self.screen_size: tuple[int, int] | None = None
        self.window: _Surface = None
        self.clock: _Surface = None
        if "human" not in inner_metadata.get("render_modes", []):
            metadata = deepcopy(dict(inner_metadata))
            metadata["render_modes"] = [*metadata.get("render_modes", []), "human"]
            self.metadata = metadata

    @property
    def render_mode(self) -> str | None:
        """Always ``"human"``."""
        return "human"

    @render_mode.setter
    def render_mode(self, value: str | None) -> None:
        raise AttributeError("HumanRendering.render_mode is always 'human' and cannot be set")

    def render(self) -> None:
        """Do nothing: frames are drawn by ``reset`` and ``step``.

        Returns:
            ``None``.
        """
        return None

    def _after_reset(self) -> None:
        self._render_frame()

    def _after_step(self) -> None:
        self._render_frame()

    def _render_frame(self) -> None:
        frame = self.env.render()
        if isinstance(frame, list):
            if not frame:
                return
            frame = frame[-1]
        if not isinstance(frame, np.ndarray):
            raise TypeError(f"HumanRendering env.render() must return a numpy array, got {type(frame).__name__}")
        if frame.ndim == 2:  # depth frames are shown as greyscale
            frame = np.repeat(frame[..., None], 3, axis=2)
        size = (int(frame.shape[1]), int(frame.shape[0]))
        if self.screen_size is None:
            self.screen_size = size
        if self.screen_size != size:
            raise ValueError(
                f"HumanRendering frame size must stay {self.screen_size} (width, height), got {size}"
            )
        pygame = import_pygame()
        if self.window is None:
            pygame.display.init()
            self.window = pygame.display.set_mode(self.screen_size)
        if self.clock is None:
            self.clock = pygame.time.Clock()
        surface = pygame.surfarray.make_surface(np.transpose(frame, axes=(1, 0, 2)))
        self.window.blit(surface, (0, 0))
        pygame.event.pump()
        self.clock.tick(self.metadata["render_fps"])
        pygame.display.flip()

    def close(self) -> None:
        """Close the window (if one was opened) and the inner environment."""
        if self.window is not None:
            import_pygame().display.quit()
            self.window = None
            self.clock = None
        self.env.close()
