"""Taxi: pick a passenger up at one of four coloured stands and drop them off at another (Dietterich, 2000).

The 5x5 grid has walls (``|`` in :data:`MAP`) and four stands R, G, Y, B. A state encodes
``((taxi_row * 5 + taxi_col) * 5 + passenger_location) * 4 + destination`` (passenger location 4 = in the taxi).
Actions: 0 south, 1 north, 2 east, 3 west, 4 pickup, 5 dropoff. Each step costs -1, an illegal pickup/dropoff -10
and a correct dropoff pays +20 and terminates. ``is_rainy`` makes moves slip sideways; ``fickle_passenger`` lets
the passenger change destination once, after the first move with them aboard.
Seeded trajectories, :attr:`TaxiEnv.P`, the ``action_mask`` info and the ``ansi`` text are identical to Gymnasium
1.x's ``TaxiEnv``.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import DiscreteAction, DiscreteObs, discrete_action
from reference.envs._rendering import Canvas, TextCanvasRenderer
from reference.envs.toy_text._taxi_table import MAP, build_transition_table
from reference.envs.toy_text.utils import categorical_sample, sample_transition_index
from reference.spaces.discrete import Discrete
from reference.utils.colorize import colorize

__all__ = ["MAP", "WINDOW_SIZE", "TaxiEnv"]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Transition: TypeAlias = tuple[float, int, int, bool]

WINDOW_SIZE = (536, 456)
_GRID_ORIGIN = (48, 128)
_CELL = (88, 56)
_ACTION_NAMES = ("South", "North", "East", "West", "Pickup", "Dropoff")


class TaxiEnv(TextCanvasRenderer[int], Env[DiscreteObs, DiscreteAction]):
    """The taxi pickup-and-dropoff task.

    Args:
        render_mode: None, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
        is_rainy: Moves succeed with ``rainy_probability`` and slip to either side otherwise.
        fickle_passenger: With ``fickle_probability`` per episode, the passenger picks a new destination after
            the taxi's first move with them aboard.
        rainy_probability: The probability that a move goes where intended when ``is_rainy``.
        fickle_probability: The per-episode probability of a fickle passenger.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
        ValueError: If a probability is outside ``[0, 1]``.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}
    _render_owner = "TaxiEnv"
    _render_caption = "Taxi"

    def __init__(
        self,
        render_mode: str | None = None,
        is_rainy: bool = False,
        fickle_passenger: bool = False,
        rainy_probability: float = 0.8,
        fickle_probability: float = 0.3,
    ) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        for name, value in (("rainy_probability", rainy_probability), ("fickle_probability", fickle_probability)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"TaxiEnv {name} must be in [0, 1], got {value!r}")
        self.desc: NDArray[np.bytes_] = np.asarray(MAP, dtype="c")
        self.locs: list[tuple[int, int]] = [(0, 0), (0, 4), (4, 0), (4, 3)]
        self.locs_colors = [(255, 0, 0), (0, 255, 0), (255, 255, 0), (0, 0, 255)]
        self.rainy_probability = rainy_probability
        self.fickle_probability = fickle_probability
        self.is_rainy = is_rainy
        self.fickle_passenger = fickle_passenger
        self.max_row = self.max_col = 4

        self.P: dict[int, dict[int, list[_Transition]]] = build_transition_table(
            self.desc, self.locs, is_rainy=is_rainy, rainy_probability=rainy_probability
        )
        starts = np.zeros(500)
        for row in range(5):
            for col in range(5):
                for pass_idx in range(4):
                    for dest_idx in range(4):
                        if pass_idx != dest_idx:
                            starts[self.encode(row, col, pass_idx, dest_idx)] += 1
        self.initial_state_distrib = starts / starts.sum()

        self.action_space = Discrete(6)
        self.observation_space = Discrete(500)
        self.fickle_step = False
        self.taxi_orientation = 0
        self.s: int | None = None
        self.lastaction: int | None = None
        self._canvas = None

    @staticmethod
    def encode(taxi_row: int, taxi_col: int, pass_loc: int, dest_idx: int) -> int:
        """Pack a state's components into its index.

        Args:
            taxi_row: The taxi row, 0..4.
            taxi_col: The taxi column, 0..4.
            pass_loc: The passenger's stand 0..3, or 4 when in the taxi.
            dest_idx: The destination stand 0..3.

        Returns:
            The state index in ``[0, 500)``.
        """
        return ((taxi_row * 5 + taxi_col) * 5 + pass_loc) * 4 + dest_idx

    @staticmethod
    def decode(i: int) -> tuple[int, int, int, int]:
        """Unpack a state index.

        Args:
            i: The state index.

        Returns:
            ``(taxi_row, taxi_col, pass_loc, dest_idx)``.

        Raises:
            ValueError: If the index is outside ``[0, 500)``.
        """
        i = int(i)
        if not 0 <= i < 500:
            raise ValueError(f"TaxiEnv state must be in [0, 500), got {i!r}")
        rest, dest_idx = divmod(i, 4)
        rest, pass_loc = divmod(rest, 5)
        taxi_row, taxi_col = divmod(rest, 5)
        return taxi_row, taxi_col, pass_loc, dest_idx

    def action_mask(self, state: int) -> NDArray[np.int8]:
        """Mark the actions that change the state (moves not into a wall, legal pickups and dropoffs).

        Args:
            state: A state index.

        Returns:
            An int8 array of six 0/1 flags.
        """
        row, col, pass_loc, dest_idx = self.decode(state)
        taxi = (row, col)
        wall_row = self.desc[row + 1]
        return np.array(
            [
                row < 4,
                row > 0,
                col < 4 and wall_row[2 * col + 2] == b":",
                col > 0 and wall_row[2 * col] == b":",
                pass_loc < 4 and taxi == self.locs[pass_loc],
                pass_loc == 4 and (taxi == self.locs[dest_idx] or taxi in self.locs),
            ],
            dtype=np.int8,
        )

    def step(self, action: DiscreteAction) -> tuple[int, int, bool, bool, _Info]:
        """Drive, pick up or drop off.

        Args:
            action: 0 south, 1 north, 2 east, 3 west, 4 pickup, 5 dropoff.

        Returns:
            ``(state, reward, terminated, False, {"prob": p, "action_mask": mask})``.

        Raises:
            InvalidDiscreteAction: If the action is not in ``0..5``.
            StepBeforeReset: If the environment was never reset.
        """
        act = action if type(action) is int and 0 <= action < 6 else discrete_action("TaxiEnv", action, 6)
        if self.s is None:
            raise step_before_reset("TaxiEnv")
        transitions = self.P[self.s][act]
        p, s, r, t = transitions[sample_transition_index([tr[0] for tr in transitions], self.np_random)]
        self.lastaction = act
        if self.fickle_passenger and self.fickle_step:
            old_row, old_col, old_pass, old_dest = self.decode(self.s)
            row, col, pass_loc, _ = self.decode(s)
            if old_pass == 4 and (row, col) != (old_row, old_col):
                # The one change of mind per episode: a uniformly chosen *other* destination.
                self.fickle_step = False
                others = [i for i in range(len(self.locs)) if i != old_dest]
                s = self.encode(row, col, pass_loc, others[int(self.np_random.integers(len(others)))])
        self.s = s
        if self.render_mode == "human":
            self.render()
        return s, r, t, False, {"prob": p, "action_mask": self.action_mask(s)}

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[int, _Info]:
        """Place the taxi anywhere, the passenger at a stand and the destination at a different stand.

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: Unused.

        Returns:
            ``(state, {"prob": 1.0, "action_mask": mask})``.
        """
        super().reset(seed=seed)
        self.s = categorical_sample(self.initial_state_distrib, self.np_random)
        self.lastaction = None
        # Only fickle environments draw here, so plain Taxi consumes one uniform per reset, as Gymnasium does.
        self.fickle_step = self.fickle_passenger and self.np_random.random() < self.fickle_probability
        self.taxi_orientation = 0
        if self.render_mode == "human":
            self.render()
        return self.s, {"prob": 1.0, "action_mask": self.action_mask(self.s)}

    def _render_state(self) -> int | None:
        return self.s

    def _canvas_size(self) -> tuple[int, int]:
        return WINDOW_SIZE

    def _render_text(self, s: int) -> str:
        out = [[c.decode("utf-8") for c in line] for line in self.desc.tolist()]
        row, col, pass_idx, dest_idx = self.decode(s)
        taxi_cell = (1 + row, 2 * col + 1)
        if pass_idx < 4:
            out[taxi_cell[0]][taxi_cell[1]] = colorize(out[taxi_cell[0]][taxi_cell[1]], "yellow", highlight=True)
            pr, pc = self.locs[pass_idx]
            out[1 + pr][2 * pc + 1] = colorize(out[1 + pr][2 * pc + 1], "blue", bold=True)
        else:
            # An empty road cell under a loaded taxi shows as "_" so the highlight is visible.
            shown = out[taxi_cell[0]][taxi_cell[1]]
            out[taxi_cell[0]][taxi_cell[1]] = colorize("_" if shown == " " else shown, "green", highlight=True)
        dr, dc = self.locs[dest_idx]
        out[1 + dr][2 * dc + 1] = colorize(out[1 + dr][2 * dc + 1], "magenta")
        footer = f"  ({_ACTION_NAMES[self.lastaction]})\n" if self.lastaction is not None else "\n"
        return "\n".join("".join(line) for line in out) + "\n" + footer

    def _cell_origin(self, row: int, col: int) -> tuple[int, int]:
        return _GRID_ORIGIN[0] + col * _CELL[0], _GRID_ORIGIN[1] + row * _CELL[1]

    def _draw(self, canvas: Canvas, s: int) -> None:
        surface = canvas.surface  # imports pygame, with a helpful error if it is missing
        from pygame import draw

        row, col, pass_idx, dest_idx = self.decode(s)
        if self.lastaction is not None and self.lastaction < 4:
            self.taxi_orientation = self.lastaction
        surface.fill((250, 250, 246))
        grid_w, grid_h = 5 * _CELL[0], 5 * _CELL[1]
        draw.rect(surface, (200, 200, 195), (_GRID_ORIGIN[0], _GRID_ORIGIN[1], grid_w, grid_h))
        for index, (r, c) in enumerate(self.locs):
            x, y = self._cell_origin(r, c)
            draw.rect(surface, self.locs_colors[index], (x + 2, y + 2, _CELL[0] - 4, _CELL[1] - 4))
        for r in range(6):
            y = _GRID_ORIGIN[1] + r * _CELL[1]
            draw.line(surface, (150, 150, 150), (_GRID_ORIGIN[0], y), (_GRID_ORIGIN[0] + grid_w, y))
        for c in range(6):
            x = _GRID_ORIGIN[0] + c * _CELL[0]
            draw.line(surface, (150, 150, 150), (x, _GRID_ORIGIN[1]), (x, _GRID_ORIGIN[1] + grid_h))
        # Walls: a '|' between columns c-1 and c of grid row r sits at MAP[1 + r][2 * c].
        for r in range(5):
            for c in range(1, 5):
                if self.desc[1 + r, 2 * c] == b"|":
                    x = _GRID_ORIGIN[0] + c * _CELL[0]
                    top = _GRID_ORIGIN[1] + r * _CELL[1]
                    draw.line(surface, (40, 40, 40), (x, top), (x, top + _CELL[1]), 6)
        draw.rect(surface, (40, 40, 40), (_GRID_ORIGIN[0], _GRID_ORIGIN[1], grid_w, grid_h), 6)

        dx, dy = self._cell_origin(*self.locs[dest_idx])
        draw.rect(surface, (20, 20, 20), (dx + 6, dy + 6, _CELL[0] - 12, _CELL[1] - 12), 4)
        if pass_idx < 4:
            px, py = self._cell_origin(*self.locs[pass_idx])
            draw.circle(surface, (60, 40, 120), (px + _CELL[0] // 2, py + _CELL[1] // 3), 7)
            draw.rect(surface, (60, 40, 120), (px + _CELL[0] // 2 - 6, py + _CELL[1] // 3 + 7, 12, 16))
        tx, ty = self._cell_origin(row, col)
        vertical = self.taxi_orientation < 2
        w, h = (30, 48) if vertical else (60, 36)
        body = (tx + (_CELL[0] - w) // 2, ty + (_CELL[1] - h) // 2, w, h)
        draw.rect(surface, (250, 200, 20), body, border_radius=6)
        draw.rect(surface, (30, 30, 30), body, 2, border_radius=6)
        if pass_idx == 4:
            draw.circle(surface, (60, 40, 120), (body[0] + w // 2, body[1] + h // 2), 6)
