"""A target whose ``rgb_array`` frames are drawn through a window (as pyglet-based envs draw them, e.g. rware): on a
machine with no display every render in that mode raises the windowing layer's error. That is no verdict on the env
(it may well draw under a display) and no pass either: the items that render are errors naming the display and the
remedy (:mod:`tests.meta.test_headless`)."""

from __future__ import annotations

from typing import Any

from tests.meta.broken._base import Walk

__all__ = ["RgbArrayThroughAWindow"]


class NoSuchDisplayException(Exception):
    """Stands for pyglet's: raised when no display server answers."""


class RgbArrayThroughAWindow(Walk):
    """``Walk`` declaring ``["rgb_array"]`` whose render opens a window first (none here: it raises)."""

    metadata: dict[Any, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            raise NoSuchDisplayException('Cannot connect to "None"')
        return None
