"""Drawing one functional CartPole or Pendulum state on a pygame surface (offscreen ``rgb_array`` frames).

The render state of both functional environments is a :class:`~reference.envs._rendering.Canvas` in
``rgb_array`` mode: an offscreen surface that needs no SDL subsystem, read back as a fresh ``uint8`` array.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from reference.envs._rendering import Canvas, RGBFrame

if TYPE_CHECKING:
    import pygame

__all__ = ["draw_cartpole", "draw_pendulum", "frame_of"]

_WHITE = (255, 255, 255)
_BLACK = (0, 0, 0)
_POLE = (202, 152, 101)
_AXLE = (129, 132, 203)
_ROD = (204, 77, 77)


def frame_of(canvas: Canvas, owner: str) -> RGBFrame:
    """Read the finished frame back from an ``rgb_array`` canvas.

    Args:
        canvas: The render state.
        owner: The functional environment's class name, for the error message.

    Returns:
        A fresh ``(height, width, 3)`` uint8 array.

    Raises:
        ValueError: If the canvas is a ``human`` window (which returns no frame).
    """
    frame = canvas.present()
    if frame is None:
        raise ValueError(f"{owner} render_state must be an 'rgb_array' Canvas from render_init, got mode {canvas.mode!r}")
    return frame


def _polygon(surface: pygame.Surface, points: list[tuple[float, float]], colour: tuple[int, int, int]) -> None:
    from pygame import gfxdraw

    gfxdraw.aapolygon(surface, points, colour)
    gfxdraw.filled_polygon(surface, points, colour)


def _disc(surface: pygame.Surface, x: float, y: float, radius: float, colour: tuple[int, int, int]) -> None:
    from pygame import gfxdraw

    gfxdraw.aacircle(surface, int(x), int(y), int(radius), colour)
    gfxdraw.filled_circle(surface, int(x), int(y), int(radius), colour)


def draw_cartpole(canvas: Canvas, x: float, theta: float, *, x_threshold: float, length: float) -> None:
    """Draw a cart at position ``x`` carrying a pole at angle ``theta`` (0 is upright, positive leans right).

    Args:
        canvas: The surface to draw on; the track from ``-x_threshold`` to ``x_threshold`` spans its width.
        x: The cart position.
        theta: The pole angle in radians.
        x_threshold: Half the visible track length.
        length: Half the pole length.
    """
    surface = canvas.surface
    from pygame import gfxdraw

    width, height = canvas.size
    scale = width / (x_threshold * 2)
    pole_len = scale * (2 * length)
    cart_w, cart_h, pole_w = 50.0, 30.0, 10.0
    track_y = height - 100  # screen rows grow downwards; the track sits 100 px above the bottom
    cart_x = x * scale + width / 2.0
    axle_y = track_y - cart_h / 4.0

    surface.fill(_WHITE)
    gfxdraw.hline(surface, 0, width, track_y, _BLACK)
    half_w, half_h = cart_w / 2, cart_h / 2
    _polygon(
        surface,
        [
            (cart_x - half_w, track_y + half_h),
            (cart_x - half_w, track_y - half_h),
            (cart_x + half_w, track_y - half_h),
            (cart_x + half_w, track_y + half_h),
        ],
        _BLACK,
    )
    along_x, along_y = math.sin(theta), -math.cos(theta)
    across_x, across_y = -along_y, along_x
    half = pole_w / 2
    base_x, base_y = cart_x - along_x * half, axle_y - along_y * half
    tip_x, tip_y = cart_x + along_x * (pole_len - half), axle_y + along_y * (pole_len - half)
    _polygon(
        surface,
        [
            (base_x - across_x * half, base_y - across_y * half),
            (tip_x - across_x * half, tip_y - across_y * half),
            (tip_x + across_x * half, tip_y + across_y * half),
            (base_x + across_x * half, base_y + across_y * half),
        ],
        _POLE,
    )
    _disc(surface, cart_x, axle_y, half, _AXLE)


def draw_pendulum(canvas: Canvas, theta: float) -> None:
    """Draw a unit-length pendulum at angle ``theta`` (0 points up) around the canvas centre.

    Args:
        canvas: The (square) surface to draw on.
        theta: The pendulum angle in radians.
    """
    surface = canvas.surface
    dim = min(canvas.size)
    scale = dim / (2.2 * 2)
    centre_x, centre_y = canvas.size[0] // 2, canvas.size[1] // 2
    rod_len, rod_w = 1.0 * scale, 0.2 * scale

    surface.fill(_WHITE)
    along_x, along_y = math.sin(theta), -math.cos(theta)
    across_x, across_y = -along_y * rod_w / 2, along_x * rod_w / 2
    tip_x, tip_y = centre_x + along_x * rod_len, centre_y + along_y * rod_len
    _polygon(
        surface,
        [
            (centre_x - across_x, centre_y - across_y),
            (tip_x - across_x, tip_y - across_y),
            (tip_x + across_x, tip_y + across_y),
            (centre_x + across_x, centre_y + across_y),
        ],
        _ROD,
    )
    _disc(surface, centre_x, centre_y, rod_w / 2, _ROD)
    _disc(surface, tip_x, tip_y, rod_w / 2, _ROD)
    _disc(surface, centre_x, centre_y, 0.05 * scale, _BLACK)
