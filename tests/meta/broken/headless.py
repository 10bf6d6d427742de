"""Targets that need a display this machine may lack: one whose ``rgb_array`` frames are drawn through a window (as
pyglet-based envs draw them, e.g. rware), one that opens a window when it is made (MiniWorld without
``PYGLET_HEADLESS``). On a machine with no display they raise the windowing layer's error. That is no verdict on the
env (it may well work under a display) and no pass either: the items (or the construction check) are errors naming
the display and the remedy (:mod:`tests.meta.test_headless`)."""

from __future__ import annotations

from typing import Any

from tests.meta.broken._base import Walk

__all__ = ["OpensAWindowWhenMade", "RgbArrayThroughAWindow"]


class NoSuchDisplayException(Exception):
    """Stands for pyglet's: raised when no display server answers."""


class RgbArrayThroughAWindow(Walk):
    """``Walk`` declaring ``["rgb_array"]`` whose render opens a window first (none here: it raises)."""

    metadata: dict[Any, Any] = {"render_modes": ["rgb_array"], "render_fps": 30}

    def render(self) -> Any:
        if self.render_mode == "rgb_array":
            raise NoSuchDisplayException('Cannot connect to "None"')
        return None


class OpensAWindowWhenMade(Walk):
    """``Walk`` whose constructor opens a window (none here: it raises)."""

    def __init__(self, render_mode: str | None = None) -> None:
        raise NoSuchDisplayException('Cannot connect to "None"')
