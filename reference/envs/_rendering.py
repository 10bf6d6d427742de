"""Lazy pygame rendering shared by every built-in environment.

pygame is imported only when a frame is first drawn, so constructing or stepping an environment never needs it.
Only the subsystems a mode needs are started: ``rgb_array`` draws on an offscreen :class:`pygame.Surface` and
touches no SDL subsystem at all; ``human`` starts the display subsystem alone (``pygame.display.init()``, never
``pygame.init()``, so no audio device is opened) and shows the same surface in a window paced at ``render_fps``.
Fonts are started on demand by :meth:`Canvas.font`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from gymspec.errors import UnsupportedMode
from reference.error import DependencyNotInstalled

if TYPE_CHECKING:
    import pygame

__all__ = [
    "Canvas",
    "RGBFrame",
    "UnsupportedRenderMode",
    "import_pygame",
    "validate_render_mode",
]

RGBFrame: TypeAlias = NDArray[np.uint8]
_Metadata: TypeAlias = Mapping[str, Any]


class UnsupportedRenderMode(UnsupportedMode, ValueError):
    """A built-in environment was constructed with a ``render_mode`` it does not declare.

    It is both the specification's :class:`~gymspec.errors.UnsupportedMode` and a :class:`ValueError`, so callers
    written against either convention catch it.
    """


def validate_render_mode(owner: str, render_mode: str | None, metadata: _Metadata) -> str | None:
    """Check a constructor's ``render_mode`` against the class metadata.

    Args:
        owner: The environment class name, used in the error message.
        render_mode: The requested mode, or None for no rendering.
        metadata: The class metadata holding ``"render_modes"``.

    Returns:
        The validated mode.

    Raises:
        UnsupportedRenderMode: If the mode is not None and not declared.
    """
    modes = tuple(metadata.get("render_modes", ()))
    if render_mode is None or render_mode in modes:
        return render_mode
    raise UnsupportedRenderMode(
        f"{owner} render_mode must be None or one of {list(modes)}, got {render_mode!r}; "
        "rendering collections such as 'rgb_array_list' are added by make(), not by the environment"
    )


def import_pygame() -> ModuleType:
    """Import pygame, explaining how to install it when it is missing.

    Returns:
        The pygame module.

    Raises:
        DependencyNotInstalled: If pygame cannot be imported.
    """
    # pygame prints a banner to stdout on import unless told not to; an environment's stdout is not ours to use.
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame as module
    except ImportError as exc:
        raise DependencyNotInstalled(
            "pygame is needed for the 'human' and 'rgb_array' render modes, got ImportError; "
            "install it with `pip install pygame`"
        ) from exc
    return module


class Canvas:
    """One environment's drawing surface, shown in a window or read back as an RGB array.

    Args:
        mode: ``"human"`` or ``"rgb_array"``.
        size: The surface size as ``(width, height)`` in pixels.
        fps: The frame rate a ``human`` window is paced at.
        caption: The window title in ``human`` mode.

    Raises:
        ValueError: If the mode is not a pygame mode, or the size is not positive.
    """

    def __init__(self, *, mode: str, size: tuple[int, int], fps: float, caption: str) -> None:
        if mode not in ("human", "rgb_array"):
            raise ValueError(f"Canvas mode must be 'human' or 'rgb_array', got {mode!r}")
        if size[0] <= 0 or size[1] <= 0:
            raise ValueError(f"Canvas size must be positive (width, height), got {size!r}")
        self.mode = mode
        self.size = (int(size[0]), int(size[1]))
        self.fps = fps
        self.caption = caption
        self._surface: pygame.Surface | None = None
        self._clock: pygame.time.Clock | None = None
        self._fonts: dict[int, pygame.font.Font] = {}
        self._window_open = False

    @property
    def surface(self) -> pygame.Surface:
        """The surface to draw the next frame on, created (and its window opened) on first access."""
        if self._surface is None or (self._window_open and not self._window_alive()):
            pg = import_pygame()
            if self.mode == "human":
                pg.display.init()
                pg.display.set_caption(self.caption)
                self._surface = pg.display.set_mode(self.size)
                self._clock = pg.time.Clock()
                self._window_open = True
            else:
                self._surface = pg.Surface(self.size)
        return self._surface

    def _window_alive(self) -> bool:
        # pygame has a single display: another environment's close() (or set_mode) may have replaced ours.
        pg = import_pygame()
        return bool(pg.display.get_init()) and pg.display.get_surface() is self._surface

    def font(self, size: int) -> pygame.font.Font:
        """Return pygame's default font at ``size`` points, starting the font subsystem if needed.

        Args:
            size: The font size in points.

        Returns:
            A cached font object.
        """
        cached = self._fonts.get(size)
        if cached is None:
            pg = import_pygame()
            if not pg.font.get_init():
                pg.font.init()
            cached = pg.font.Font(None, size)
            self._fonts[size] = cached
        return cached

    def present(self) -> RGBFrame | None:
        """Finish the current frame.

        Returns:
            A fresh C-contiguous ``(height, width, 3)`` uint8 array in ``rgb_array`` mode; None in ``human`` mode,
            where the window is updated, its events are pumped (so the OS does not mark it unresponsive), and the
            call sleeps to hold ``fps``.
        """
        surface = self.surface
        pg = import_pygame()
        if self.mode == "human":
            pg.event.pump()
            pg.display.flip()
            if self._clock is not None and self.fps > 0:
                self._clock.tick(self.fps)
            return None
        view = pg.surfarray.pixels3d(surface)
        try:
            # pixels3d is indexed (x, y); the copy both transposes to (y, x) and releases the surface lock.
            frame: RGBFrame = np.array(view.transpose(1, 0, 2), dtype=np.uint8, order="C")
        finally:
            del view
        return frame

    def close(self) -> None:
        """Release the surface and close the window, if any; safe to call repeatedly."""
        self._surface = None
        self._clock = None
        self._fonts.clear()
        if self._window_open:
            self._window_open = False
            pg = import_pygame()
            pg.display.quit()

