"""Rendering shared by the two mountain-car environments: the hill profile, the car and the goal flag."""

from __future__ import annotations

import math

from reference.envs._rendering import Canvas, CanvasRenderer

__all__ = ["HillRenderer", "draw_hill_scene", "hill_height"]


def hill_height(position: float) -> float:
    """Height of the hill (in world units) at a horizontal position.

    Args:
        position: The horizontal position.

    Returns:
        ``0.45 * sin(3 * position) + 0.55``.
    """
    return math.sin(3 * position) * 0.45 + 0.55


def draw_hill_scene(
    canvas: Canvas, *, position: float, min_position: float, max_position: float, goal_position: float
) -> None:
    """Draw one mountain-car frame on the canvas surface.

    Args:
        canvas: The canvas to draw on.
        position: The car position.
        min_position: The left edge of the world.
        max_position: The right edge of the world.
        goal_position: Where the flag stands.
    """
    surface = canvas.surface  # imports pygame, with a helpful error if it is missing
    from pygame import draw, gfxdraw

    width, height = canvas.size
    scale = width / (max_position - min_position)

    def to_screen(x: float, y: float) -> tuple[float, float]:
        return (x - min_position) * scale, height - y * scale

    surface.fill((255, 255, 255))
    steps = 100
    profile = [
        to_screen(x, hill_height(x))
        for x in (min_position + (max_position - min_position) * i / (steps - 1) for i in range(steps))
    ]
    draw.aalines(surface, (0, 0, 0), False, profile)

    # The car body sits on the slope, tilted by the slope angle's proxy cos(3x) as in the classic renderer.
    car_w, car_h, clearance = 40.0, 20.0, 10.0
    tilt = math.cos(3 * position)
    cos_t, sin_t = math.cos(tilt), math.sin(tilt)
    base_x, base_y = (position - min_position) * scale, clearance + hill_height(position) * scale

    def placed(dx: float, dy: float) -> tuple[float, float]:
        return base_x + dx * cos_t - dy * sin_t, height - (base_y + dx * sin_t + dy * cos_t)

    body = [placed(-car_w / 2, 0), placed(-car_w / 2, car_h), placed(car_w / 2, car_h), placed(car_w / 2, 0)]
    gfxdraw.aapolygon(surface, body, (0, 0, 0))
    gfxdraw.filled_polygon(surface, body, (0, 0, 0))
    for dx in (car_w / 4, -car_w / 4):
        wx, wy = placed(dx, 0)
        gfxdraw.aacircle(surface, int(wx), int(wy), int(car_h / 2.5), (128, 128, 128))
        gfxdraw.filled_circle(surface, int(wx), int(wy), int(car_h / 2.5), (128, 128, 128))

    flag_x = int((goal_position - min_position) * scale)
    pole_bottom = height - int(hill_height(goal_position) * scale)
    pole_top = pole_bottom - 50
    gfxdraw.vline(surface, flag_x, pole_top, pole_bottom, (0, 0, 0))
    pennant = [(flag_x, pole_top), (flag_x, pole_top + 10), (flag_x + 25, pole_top + 5)]
    gfxdraw.aapolygon(surface, pennant, (204, 204, 0))
    gfxdraw.filled_polygon(surface, pennant, (204, 204, 0))


class HillRenderer(CanvasRenderer[float]):
    """:class:`~reference.envs._rendering.CanvasRenderer` hooks both mountain cars share.

    The environment implements ``_render_state`` (the car position, or None before reset) and has the attributes
    below; the frame is ``screen_width`` by ``screen_height`` pixels.
    """

    screen_width: int
    screen_height: int
    min_position: float
    max_position: float
    goal_position: float

    def _canvas_size(self) -> tuple[int, int]:
        return self.screen_width, self.screen_height

    def _draw(self, canvas: Canvas, state: float) -> None:
        draw_hill_scene(
            canvas,
            position=state,
            min_position=self.min_position,
            max_position=self.max_position,
            goal_position=self.goal_position,
        )
