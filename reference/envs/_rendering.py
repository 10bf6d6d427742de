"""Lazy pygame rendering shared by every built-in environment.

pygame is imported only when a frame is first drawn, so constructing or stepping an environment never needs it.
Only the subsystems a mode needs are started: ``rgb_array`` draws on an offscreen :class:`pygame.Surface` and
touches no SDL subsystem at all; ``human`` starts the display subsystem alone (``pygame.display.init()``, never
``pygame.init()``, so no audio device is opened) and shows the same surface in a window paced at ``render_fps``.
Fonts are started on demand by :meth:`Canvas.font`. The :class:`CanvasRenderer` and :class:`TextCanvasRenderer`
mixins hold the ``render()``/``close()`` plumbing every built-in environment shares, so an environment only says
what its state is and how to draw it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeAlias, TypeVar

import numpy as np
from numpy.typing import NDArray

from reference import logger
from reference._framework import import_pygame, step_before_reset

if TYPE_CHECKING:
    import pygame

__all__ = [
    "Canvas",
    "CanvasRenderer",
    "RGBFrame",
    "TextCanvasRenderer",
]

RGBFrame: TypeAlias = NDArray[np.uint8]
# The type reference.core.Env gives its ``metadata``; the mixins must declare the same one to combine with Env.
_EnvMetadata: TypeAlias = dict[str, Any]
_StateT = TypeVar("_StateT")


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
        surface = self._surface
        if surface is None or (self._window_open and not self._window_alive()):
            pg = import_pygame()
            if self.mode == "human":
                pg.display.init()
                pg.display.set_caption(self.caption)
                surface = pg.display.set_mode(self.size)
                self._clock = pg.time.Clock()
                self._window_open = True
            else:
                surface = pg.Surface(self.size)
            self._surface = surface
        return surface

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
        # tobytes writes the pixels row by row, (y, x) order already: half the time of transposing surfarray's (x, y)
        # view. The bytearray makes the frame writeable and its own.
        width, height = surface.get_size()
        pixels = bytearray(pg.image.tobytes(surface, "RGB"))
        frame: RGBFrame = np.frombuffer(pixels, dtype=np.uint8).reshape(height, width, 3)
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


class _CanvasRendering(Generic[_StateT]):
    """What :class:`CanvasRenderer` and :class:`TextCanvasRenderer` share; see :class:`CanvasRenderer`."""

    render_mode: str | None
    metadata: _EnvMetadata
    _canvas: Canvas | None
    #: The environment's name in the render warning and error messages.
    _render_owner: ClassVar[str]
    #: The window title in ``human`` mode.
    _render_caption: ClassVar[str]
    #: The modes other than ``rgb_array`` that the no-render-mode warning suggests.
    _suggested_modes: ClassVar[str] = "'human'"

    def _render_state(self) -> _StateT | None:
        """Return what :meth:`_draw` needs from the current state, or None before the first reset."""
        raise NotImplementedError

    def _canvas_size(self) -> tuple[int, int]:
        """Return the frame size as ``(width, height)``, read when the canvas is first created."""
        raise NotImplementedError

    def _draw(self, canvas: Canvas, state: _StateT, /) -> None:
        """Draw one frame of ``state`` on ``canvas.surface``."""
        raise NotImplementedError

    def _mode_and_state(self) -> tuple[str, _StateT] | None:
        """Return the render mode and what to draw; None, after a warning, when there is no render mode.

        Raises:
            StepBeforeReset: If the environment was never reset.
        """
        mode = self.render_mode
        if mode is None:
            logger.warn(
                f"{self._render_owner} render() was called without a render_mode; construct it with "
                f"render_mode='rgb_array' (or {self._suggested_modes}) to render",
                stacklevel=3,  # blame the caller of render(), which called this helper
            )
            return None
        state = self._render_state()
        if state is None:
            raise step_before_reset(self._render_owner, "render")
        return mode, state

    def _present(self, mode: str, state: _StateT) -> RGBFrame | None:
        canvas = self._canvas
        if canvas is None:
            canvas = self._canvas = Canvas(
                mode=mode, size=self._canvas_size(), fps=self.metadata["render_fps"], caption=self._render_caption
            )
        self._draw(canvas, state)
        return canvas.present()

    def close(self) -> None:
        """Close the window or drop the offscreen surface; safe to call more than once."""
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None


class CanvasRenderer(_CanvasRendering[_StateT]):
    """Mixin giving a built-in environment ``render()`` and ``close()`` around one lazily created :class:`Canvas`.

    List it before :class:`~reference.core.Env` in the bases, set ``_render_owner`` and ``_render_caption``,
    implement ``_render_state``, ``_canvas_size`` and ``_draw``, and set ``self._canvas = None`` in ``__init__``.
    ``step`` and ``reset`` stay the environment's own (they call :meth:`render` in ``human`` mode).
    """

    def render(self) -> RGBFrame | None:
        """Draw the current state.

        Returns:
            A fresh ``(height, width, 3)`` uint8 frame in ``rgb_array`` mode; None in ``human`` mode (the window
            is updated instead) and, after a warning, when the environment has no render mode.

        Raises:
            StepBeforeReset: If the environment was never reset.
        """
        target = self._mode_and_state()
        return None if target is None else self._present(*target)


class TextCanvasRenderer(_CanvasRendering[_StateT]):
    """:class:`CanvasRenderer` for a grid world that also renders to text in ``ansi`` mode.

    Besides the :class:`CanvasRenderer` hooks, implement ``_render_text``.
    """

    _suggested_modes: ClassVar[str] = "'ansi', 'human'"

    def _render_text(self, state: _StateT, /) -> str:
        """Return the ``ansi`` rendering of ``state``."""
        raise NotImplementedError

    def render(self) -> RGBFrame | str | None:
        """Draw the current state, or describe it as text.

        Returns:
            A string in ``ansi`` mode; a fresh ``(height, width, 3)`` uint8 frame in ``rgb_array`` mode; None in
            ``human`` mode (the window is updated instead) and, after a warning, when the environment has no
            render mode.

        Raises:
            StepBeforeReset: If the environment was never reset.
        """
        target = self._mode_and_state()
        if target is None:
            return None
        mode, state = target
        return self._render_text(state) if mode == "ansi" else self._present(mode, state)
