"""FrozenLake: walk from the start ``S`` to the goal ``G`` across a frozen lake without falling into a hole ``H``.

The map is a grid of ``S`` (start), ``F`` (frozen), ``H`` (hole) and ``G`` (goal) tiles; observations are the
flat tile index ``row * ncol + col`` and actions are 0 left, 1 down, 2 right, 3 up. On slippery ice the intended
move succeeds with ``success_rate`` and each perpendicular move happens with half of the remainder. Reaching
``G`` or ``H`` terminates the episode; rewards come from ``reward_schedule`` (goal, hole, frozen).
Seeded trajectories, the transition table :attr:`FrozenLakeEnv.P` and the ``ansi`` text are identical to
Gymnasium 1.x's ``FrozenLakeEnv``.
"""

from __future__ import annotations

from collections import deque
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import DiscreteAction, DiscreteObs, discrete_action
from reference.envs._rendering import Canvas, TextCanvasRenderer
from reference.envs.toy_text.utils import categorical_sample, sample_transition_index
from reference.spaces.discrete import Discrete
from reference.utils import seeding
from reference.utils.colorize import colorize

__all__ = ["DOWN", "LEFT", "MAPS", "RIGHT", "UP", "FrozenLakeEnv", "generate_random_map", "is_valid"]

LEFT = 0
DOWN = 1
RIGHT = 2
UP = 3

MAPS: dict[str, list[str]] = {
    "4x4": ["SFFF", "FHFH", "FFFH", "HFFG"],
    "8x8": [
        "SFFFFFFF",
        "FFFFFFFF",
        "FFFHFFFF",
        "FFFFFHFF",
        "FFFHFFFF",
        "FHHFFFHF",
        "FHFFHFHF",
        "FFFHFFFG",
    ],
}

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Reward: TypeAlias = float  # an entry of the user's reward_schedule, returned unchanged (ints by default)
#: ``(probability, next_state, reward, terminated)``
Transition: TypeAlias = "tuple[float, int, _Reward, bool]"
_ACTION_NAMES = ("Left", "Down", "Right", "Up")
_TILES = "SFHG"


def is_valid(board: list[list[str]] | NDArray[np.str_], max_size: int) -> bool:
    """Tell whether a goal tile can be reached from the top-left tile without crossing a hole.

    Args:
        board: A square grid of tile letters.
        max_size: The grid side length.

    Returns:
        Whether some ``G`` is reachable from ``(0, 0)`` through non-``H`` tiles.
    """
    seen = {(0, 0)}
    queue = deque([(0, 0)])
    while queue:
        r, c = queue.popleft()
        for nr, nc in ((r + 1, c), (r, c + 1), (r - 1, c), (r, c - 1)):
            if not (0 <= nr < max_size and 0 <= nc < max_size) or (nr, nc) in seen:
                continue
            tile = board[nr][nc]
            if tile == "G":
                return True
            if tile != "H":
                seen.add((nr, nc))
                queue.append((nr, nc))
    return False


def generate_random_map(size: int = 8, p: float = 0.8, seed: int | None = None) -> list[str]:
    """Draw a random square map whose goal is reachable from its start.

    Each tile is frozen with probability ``p`` (a hole otherwise); the top-left tile is ``S`` and the bottom-right
    ``G``. Maps are redrawn until valid. The same seed gives the same map as Gymnasium's function.

    Args:
        size: The side length of the map (at least 2).
        p: The probability of a frozen tile; values above 1 are treated as 1.
        seed: Seeds the generator; None draws fresh entropy.

    Returns:
        The map as a list of row strings.

    Raises:
        ValueError: If ``size < 2`` or ``p <= 0`` (no valid map could ever be drawn).
    """
    if not isinstance(size, (int, np.integer)) or size < 2:
        raise ValueError(f"generate_random_map size must be an int >= 2, got {size!r}")
    if not p > 0:
        raise ValueError(f"generate_random_map p must be > 0 (the probability of a frozen tile), got {p!r}")
    rng, _ = seeding.np_random(seed)
    p = min(1, p)
    while True:
        board = rng.choice(["F", "H"], (size, size), p=[p, 1 - p])
        board[0][0] = "S"
        board[-1][-1] = "G"
        if is_valid(board, int(size)):
            return ["".join(row) for row in board]


class FrozenLakeEnv(TextCanvasRenderer[int], Env[DiscreteObs, DiscreteAction]):
    """The frozen-lake grid world.

    Args:
        render_mode: None, ``"human"``, ``"ansi"`` or ``"rgb_array"``.
        desc: The map as row strings (or a 2-D array of one-character strings); overrides ``map_name``.
        map_name: ``"4x4"`` or ``"8x8"``; None together with ``desc=None`` draws an unseeded random 8x8 map.
        is_slippery: Whether moves can slip sideways.
        success_rate: On slippery ice, the probability that the intended move happens.
        reward_schedule: Rewards for stepping onto the goal, a hole and any other tile.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
        ValueError: If the map is not a rectangle of ``S/F/H/G`` tiles with at least one ``S``, ``map_name`` is
            unknown, or ``reward_schedule`` does not have three entries.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}
    _render_owner = "FrozenLakeEnv"
    _render_caption = "Frozen Lake"

    def __init__(
        self,
        render_mode: str | None = None,
        desc: list[str] | None = None,
        map_name: str | None = "4x4",
        is_slippery: bool = True,
        success_rate: float = 1.0 / 3.0,
        reward_schedule: tuple[_Reward, _Reward, _Reward] = (1, 0, 0),
    ) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        if desc is None and map_name is None:
            desc = generate_random_map()
        elif desc is None:
            if map_name not in MAPS:
                raise ValueError(f"FrozenLakeEnv map_name must be one of {sorted(MAPS)} or None, got {map_name!r}")
            desc = MAPS[map_name]
        if len(reward_schedule) != 3:
            raise ValueError(
                f"FrozenLakeEnv reward_schedule must be (goal, hole, frozen) rewards, got {reward_schedule!r}"
            )
        grid = self._parse_desc(desc)
        self.desc: NDArray[np.bytes_] = grid
        self.nrow, self.ncol = nrow, ncol = grid.shape
        self.reward_range = (min(reward_schedule), max(reward_schedule))
        self.success_rate = success_rate
        self.reward_schedule = tuple(reward_schedule)

        self.initial_state_distrib = np.array(grid == b"S").astype("float64").ravel()
        self.initial_state_distrib /= self.initial_state_distrib.sum()
        self.P: dict[int, dict[int, list[Transition]]] = self._transition_table(
            grid, is_slippery, success_rate, tuple(reward_schedule)
        )

        self.observation_space = Discrete(nrow * ncol)
        self.action_space = Discrete(4)
        self.window_size = (min(64 * ncol, 512), min(64 * nrow, 512))
        self.cell_size = (self.window_size[0] // ncol, self.window_size[1] // nrow)
        self._canvas = None
        self.s: int | None = None
        self.lastaction: int | None = None

    @staticmethod
    def _parse_desc(desc: Any) -> NDArray[np.bytes_]:
        try:
            grid = np.asarray(desc, dtype="c")
        except (TypeError, ValueError) as exc:
            raise ValueError(f"FrozenLakeEnv desc must be a list of equal-length row strings, got {desc!r}") from exc
        letters: set[bytes] = set(grid.ravel().tolist()) if grid.size else set()
        if grid.ndim != 2 or grid.size == 0 or not letters <= {t.encode() for t in _TILES}:
            raise ValueError(
                f"FrozenLakeEnv desc must be a non-empty rectangle of 'S', 'F', 'H', 'G' tiles, got {desc!r}"
            )
        if b"S" not in letters:
            raise ValueError(f"FrozenLakeEnv desc must contain at least one start tile 'S', got {desc!r}")
        return grid

    @staticmethod
    def _transition_table(
        grid: NDArray[np.bytes_], is_slippery: bool, success_rate: float, rewards: tuple[_Reward, ...]
    ) -> dict[int, dict[int, list[Transition]]]:
        nrow, ncol = grid.shape
        fail_rate = (1.0 - success_rate) / 2.0
        letters = grid.tolist()

        def outcome(row: int, col: int, action: int) -> tuple[int, _Reward, bool]:
            if action == LEFT:
                col = max(col - 1, 0)
            elif action == DOWN:
                row = min(row + 1, nrow - 1)
            elif action == RIGHT:
                col = min(col + 1, ncol - 1)
            else:
                row = max(row - 1, 0)
            letter = letters[row][col]
            # rewards are (goal, hole, frozen); the start tile counts as frozen.
            reward = rewards[0] if letter == b"G" else rewards[1] if letter == b"H" else rewards[2]
            return row * ncol + col, reward, letter in (b"G", b"H")

        table: dict[int, dict[int, list[Transition]]] = {}
        for row in range(nrow):
            for col in range(ncol):
                s = row * ncol + col
                table[s] = {}
                for a in range(4):
                    if letters[row][col] in (b"G", b"H"):
                        table[s][a] = [(1.0, s, 0, True)]  # absorbing
                    elif is_slippery:
                        table[s][a] = [
                            (success_rate if b == a else fail_rate, *outcome(row, col, b))
                            for b in ((a - 1) % 4, a, (a + 1) % 4)
                        ]
                    else:
                        table[s][a] = [(1.0, *outcome(row, col, a))]
        return table

    def step(self, action: DiscreteAction) -> tuple[int, _Reward, bool, bool, _Info]:
        """Move (possibly slipping) and report the tile reached.

        Args:
            action: 0 left, 1 down, 2 right, 3 up.

        Returns:
            ``(state, reward, terminated, False, {"prob": p})`` where ``p`` is the probability of the transition.

        Raises:
            InvalidDiscreteAction: If the action is not in ``{0, 1, 2, 3}``.
            StepBeforeReset: If the environment was never reset.
        """
        act = action if type(action) is int and 0 <= action < 4 else discrete_action("FrozenLakeEnv", action, 4)
        if self.s is None:
            raise step_before_reset("FrozenLakeEnv")
        transitions = self.P[self.s][act]
        index = sample_transition_index([t[0] for t in transitions], self.np_random)
        p, s, r, t = transitions[index]
        self.s = int(s)
        self.lastaction = act
        if self.render_mode == "human":
            self.render()
        return self.s, r, t, False, {"prob": p}

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[int, _Info]:
        """Put the agent on a start tile (uniformly among them).

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: Unused.

        Returns:
            ``(state, {"prob": 1})``.
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

    def _render_text(self, s: int) -> str:
        rows = [[c.decode("utf-8") for c in line] for line in self.desc.tolist()]
        row, col = divmod(s, self.ncol)
        rows[row][col] = colorize(rows[row][col], "red", highlight=True)
        header = f"  ({_ACTION_NAMES[self.lastaction]})\n" if self.lastaction is not None else "\n"
        return header + "\n".join("".join(line) for line in rows) + "\n"

    def _draw(self, canvas: Canvas, s: int) -> None:
        surface = canvas.surface  # imports pygame, with a helpful error if it is missing
        from pygame import draw

        cw, ch = self.cell_size
        surface.fill((255, 255, 255))
        for r, line in enumerate(self.desc.tolist()):
            for c, tile in enumerate(line):
                rect = (c * cw, r * ch, cw, ch)
                draw.rect(surface, (214, 234, 248), rect)
                cx, cy = c * cw + cw // 2, r * ch + ch // 2
                if tile == b"H":
                    draw.ellipse(surface, (31, 58, 96), (c * cw + cw // 8, r * ch + ch // 5, cw * 3 // 4, ch * 3 // 5))
                elif tile == b"G":
                    pole_x = cx - cw // 8
                    draw.line(surface, (60, 60, 60), (pole_x, r * ch + ch // 5), (pole_x, r * ch + ch * 4 // 5), 3)
                    draw.polygon(
                        surface,
                        (220, 50, 50),
                        [(pole_x, r * ch + ch // 5), (pole_x + cw // 3, r * ch + ch // 3), (pole_x, r * ch + ch // 2)],
                    )
                elif tile == b"S":
                    draw.rect(surface, (120, 200, 120), (c * cw + cw // 4, r * ch + ch // 4, cw // 2, ch // 2), 3)
                draw.rect(surface, (180, 200, 230), rect, 1)
        row, col = divmod(s, self.ncol)
        if self.desc[row, col] != b"H":
            cx, cy = col * cw + cw // 2, row * ch + ch // 2
            radius = max(2, min(cw, ch) // 4)
            draw.circle(surface, (240, 160, 40), (cx, cy), radius)
            draw.circle(surface, (90, 60, 20), (cx, cy), radius, 2)
