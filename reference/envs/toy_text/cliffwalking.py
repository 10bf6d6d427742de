"""CliffWalking: cross a 4x12 grid from the bottom-left to the bottom-right without stepping off the cliff.

Observations are the flat index ``row * 12 + col``; actions are 0 up, 1 right, 2 down, 3 left. Every step costs
-1; stepping onto the cliff (the bottom row between start and goal) costs -100 and sends the agent back to the
start without ending the episode. Reaching the goal terminates. ``is_slippery`` makes every move go sideways with
probability 1/3 each way (Sutton & Barto, Example 6.6).
Seeded trajectories, :attr:`CliffWalkingEnv.P` and the ``ansi`` text are identical to Gymnasium 1.x's
``CliffWalkingEnv``.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import DiscreteAction, DiscreteObs, discrete_action
from reference.envs._rendering import Canvas, TextCanvasRenderer
from reference.envs.toy_text.utils import categorical_sample, sample_transition_index
from reference.spaces.discrete import Discrete

__all__ = ["DOWN", "LEFT", "RIGHT", "UP", "CliffWalkingEnv"]

UP = 0
RIGHT = 1
DOWN = 2
LEFT = 3
_DELTAS = {UP: (-1, 0), RIGHT: (0, 1), DOWN: (1, 0), LEFT: (0, -1)}

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Transition: TypeAlias = tuple[float, int, int, bool]


class CliffWalkingEnv(TextCanvasRenderer[int], Env[DiscreteObs, DiscreteAction]):
    """The cliff-walking grid world.

    Args:
        render_mode: None, ``"human"``, ``"rgb_array"`` or ``"ansi"``.
        is_slippery: Whether each move slips to either perpendicular direction with probability 1/3.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
    """

    metadata = {"render_modes": ["human", "rgb_array", "ansi"], "render_fps": 4}
    _render_owner = "CliffWalkingEnv"
    _render_caption = "CliffWalking"

    def __init__(self, render_mode: str | None = None, is_slippery: bool = False) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        self.shape = (4, 12)
        self.start_state_index = 3 * 12 + 0
        self.nS = 48
        self.nA = 4
        self.is_slippery = is_slippery
        self._cliff: NDArray[np.bool_] = np.zeros(self.shape, dtype=bool)
        self._cliff[3, 1:-1] = True

        self.P: dict[int, dict[int, list[_Transition]]] = {
            s: {a: self._outcomes(divmod(s, 12), a) for a in range(self.nA)} for s in range(self.nS)
        }
        self.initial_state_distrib = np.zeros(self.nS)
        self.initial_state_distrib[self.start_state_index] = 1.0

        self.observation_space = Discrete(self.nS)
        self.action_space = Discrete(self.nA)
        self.cell_size = (64, 64)
        self.window_size = (self.shape[1] * self.cell_size[1], self.shape[0] * self.cell_size[0])
        self._canvas = None
        self.s: int | None = None
        self.lastaction: int | None = None

    def _outcomes(self, position: tuple[int, int], move: int) -> list[_Transition]:
        moves = [(move - 1) % 4, move, (move + 1) % 4] if self.is_slippery else [move]
        probability = 1 / len(moves)
        outcomes: list[_Transition] = []
        for m in moves:
            d_row, d_col = _DELTAS[m]
            row = min(max(position[0] + d_row, 0), self.shape[0] - 1)
            col = min(max(position[1] + d_col, 0), self.shape[1] - 1)
            if self._cliff[row, col]:
                outcomes.append((probability, self.start_state_index, -100, False))
            else:
                at_goal = (row, col) == (self.shape[0] - 1, self.shape[1] - 1)
                outcomes.append((probability, row * self.shape[1] + col, -1, at_goal))
        return outcomes

    def step(self, action: DiscreteAction) -> tuple[int, int, bool, bool, _Info]:
        """Move (possibly slipping).

        Args:
            action: 0 up, 1 right, 2 down, 3 left.

        Returns:
            ``(state, reward, terminated, False, {"prob": p})``.

        Raises:
            InvalidDiscreteAction: If the action is not in ``{0, 1, 2, 3}``.
            StepBeforeReset: If the environment was never reset.
        """
        act = action if type(action) is int and 0 <= action < 4 else discrete_action("CliffWalkingEnv", action, 4)
        if self.s is None:
            raise step_before_reset("CliffWalkingEnv")
        transitions = self.P[self.s][act]
        p, s, r, t = transitions[sample_transition_index([tr[0] for tr in transitions], self.np_random)]
        self.s = s
        self.lastaction = act
        if self.render_mode == "human":
            self.render()
        return s, r, t, False, {"prob": p}

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[int, _Info]:
        """Put the agent on the start tile (this still consumes one uniform draw, as in Gymnasium).

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: Unused.

        Returns:
            ``(36, {"prob": 1})``.
        """
        super().reset(seed=seed)
        self.s = categorical_sample(self.initial_state_distrib, self.np_random)
        self.lastaction = None
        if self.render_mode == "human":
            self.render()
        return self.s, {"prob": 1}

    def _render_state(self) -> int | None:
        return self.s

    def _canvas_size(self) -> tuple[int, int]:
        return self.window_size

    def _render_text(self, agent: int) -> str:
        rows, cols = self.shape
        lines: list[str] = []
        for r in range(rows):
            cells: list[str] = []
            for c in range(cols):
                if r * cols + c == agent:
                    cells.append("x")
                elif (r, c) == (rows - 1, cols - 1):
                    cells.append("T")
                elif self._cliff[r, c]:
                    cells.append("C")
                else:
                    cells.append("o")
            lines.append("  ".join(cells) + "\n")
        return "".join(lines) + "\n"

    def _draw(self, canvas: Canvas, agent: int) -> None:
        surface = canvas.surface  # imports pygame, with a helpful error if it is missing
        from pygame import draw

        cw, ch = self.cell_size
        rows, cols = self.shape
        surface.fill((255, 255, 255))
        for r in range(rows):
            for c in range(cols):
                rect = (c * cw, r * ch, cw, ch)
                if self._cliff[r, c]:
                    draw.rect(surface, (90, 70, 60), rect)
                    draw.line(surface, (60, 45, 40), (c * cw, r * ch + ch // 3), ((c + 1) * cw, r * ch + ch // 3), 3)
                else:
                    draw.rect(surface, (150, 200, 110), rect)
                draw.rect(surface, (110, 150, 80), rect, 1)
        sx, sy = (self.start_state_index % cols) * cw, (self.start_state_index // cols) * ch
        draw.rect(surface, (255, 255, 255), (sx + 8, sy + 8, cw - 16, ch - 16), 3)
        gx, gy = (cols - 1) * cw, (rows - 1) * ch
        draw.line(surface, (60, 60, 60), (gx + cw // 3, gy + 10), (gx + cw // 3, gy + ch - 10), 3)
        pennant = [(gx + cw // 3, gy + 10), (gx + cw * 3 // 4, gy + 20), (gx + cw // 3, gy + 30)]
        draw.polygon(surface, (220, 50, 50), pennant)
        ar, ac = divmod(agent, cols)
        centre = (ac * cw + cw // 2, ar * ch + ch // 2)
        draw.circle(surface, (240, 160, 40), centre, min(cw, ch) // 4)
        draw.circle(surface, (90, 60, 20), centre, min(cw, ch) // 4, 2)
