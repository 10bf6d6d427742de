"""The Taxi map and its transition table ``P[state][action] -> [(probability, next_state, reward, terminated)]``.

The table (entry order included) equals Gymnasium's, because sampling walks the entries in order.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["MAP", "build_transition_table"]

MAP = [
    "+---------+",
    "|R: | : :G|",
    "| : | : : |",
    "| : : : : |",
    "| | : | : |",
    "|Y| : |B: |",
    "+---------+",
]

_Transition = tuple[float, int, int, bool]
_Table = dict[int, dict[int, list[_Transition]]]
_MAX = 4  # the last row and column index

# For each move: the intended (d_row, d_col), then the two sideways slips a rainy step can produce.
_RAINY_MOVES = {
    0: ((1, 0), (0, 1), (0, -1)),  # south; slips east or west
    1: ((-1, 0), (0, -1), (0, 1)),  # north; slips west or east
    2: ((0, 1), (-1, 0), (1, 0)),  # east; slips north or south
    3: ((0, -1), (1, 0), (-1, 0)),  # west; slips south or north
}


def _encode(row: int, col: int, pass_idx: int, dest_idx: int) -> int:
    return ((row * 5 + col) * 5 + pass_idx) * 4 + dest_idx


def _clamp(v: int) -> int:
    return max(0, min(v, _MAX))


class _Rules:
    """Pickup/dropoff outcomes and wall tests on one map."""

    def __init__(self, desc: NDArray[np.bytes_], locs: list[tuple[int, int]]) -> None:
        self.desc = desc
        self.locs = locs

    def open_east(self, row: int, col: int) -> bool:
        return bool(self.desc[1 + row, 2 * col + 2] == b":")

    def open_west(self, row: int, col: int) -> bool:
        return bool(self.desc[1 + row, 2 * col] == b":")

    def pickup(self, taxi: tuple[int, int], pass_idx: int) -> tuple[int, int]:
        if pass_idx < 4 and taxi == self.locs[pass_idx]:
            return 4, -1
        return pass_idx, -10

    def dropoff(self, taxi: tuple[int, int], pass_idx: int, dest_idx: int) -> tuple[int, int, bool]:
        if pass_idx == 4 and taxi == self.locs[dest_idx]:
            return dest_idx, 20, True
        if pass_idx == 4 and taxi in self.locs:
            return self.locs.index(taxi), -1, False  # dropped at another stand: legal, episode continues
        return pass_idx, -10, False

    def slip(self, row: int, col: int, d_row: int, d_col: int) -> tuple[int, int]:
        """Where a sideways slip ends; a wall between the cells cancels it."""
        new_row, new_col = _clamp(row + d_row), _clamp(col + d_col)
        if d_col == 1 and self.desc[1 + new_row, 2 * new_col] != b":":
            return row, col
        if d_col == -1 and self.desc[1 + new_row, 2 * new_col + 2] != b":":
            return row, col
        return new_row, new_col


def _dry(rules: _Rules, row: int, col: int, pass_idx: int, dest_idx: int, action: int) -> list[_Transition]:
    new_row, new_col, new_pass, reward, terminated = row, col, pass_idx, -1, False
    if action == 0:
        new_row = min(row + 1, _MAX)
    elif action == 1:
        new_row = max(row - 1, 0)
    elif action == 2 and rules.open_east(row, col):
        new_col = min(col + 1, _MAX)
    elif action == 3 and rules.open_west(row, col):
        new_col = max(col - 1, 0)
    elif action == 4:
        new_pass, reward = rules.pickup((row, col), pass_idx)
    elif action == 5:
        new_pass, reward, terminated = rules.dropoff((row, col), pass_idx, dest_idx)
    return [(1.0, _encode(new_row, new_col, new_pass, dest_idx), reward, terminated)]


def _rainy(
    rules: _Rules, row: int, col: int, pass_idx: int, dest_idx: int, action: int, probability: float
) -> list[_Transition]:
    if action == 4:
        new_pass, reward = rules.pickup((row, col), pass_idx)
        return [(1.0, _encode(row, col, new_pass, dest_idx), reward, False)]
    if action == 5:
        new_pass, reward, terminated = rules.dropoff((row, col), pass_idx, dest_idx)
        return [(1.0, _encode(row, col, new_pass, dest_idx), reward, terminated)]
    lateral = (1.0 - probability) / 2.0
    can_move = (
        (action == 0 and row < _MAX)
        or (action == 1 and row > 0)
        or (action == 2 and rules.open_east(row, col))
        or (action == 3 and rules.open_west(row, col))
    )
    intended = left = right = (row, col)
    if can_move:
        (d_row, d_col), left_move, right_move = _RAINY_MOVES[action]
        intended = (_clamp(row + d_row), _clamp(col + d_col))
        left = rules.slip(row, col, *left_move)
        right = rules.slip(row, col, *right_move)
    # A blocked move still lists three (identical) outcomes, so every move draws from the same 3-way split.
    return [
        (probability, _encode(*intended, pass_idx, dest_idx), -1, False),
        (lateral, _encode(*left, pass_idx, dest_idx), -1, False),
        (lateral, _encode(*right, pass_idx, dest_idx), -1, False),
    ]


def build_transition_table(
    desc: NDArray[np.bytes_], locs: list[tuple[int, int]], *, is_rainy: bool, rainy_probability: float
) -> _Table:
    """Build the full 500-state, 6-action transition table.

    Args:
        desc: The map as a 2-D array of single bytes.
        locs: The four stands' ``(row, col)``.
        is_rainy: Whether moves can slip sideways.
        rainy_probability: The probability of the intended move when rainy.

    Returns:
        ``P[state][action]``, a list of ``(probability, next_state, reward, terminated)``.
    """
    rules = _Rules(desc, locs)
    table: _Table = {state: {} for state in range(500)}
    for row in range(5):
        for col in range(5):
            for pass_idx in range(5):
                for dest_idx in range(4):
                    entry = table[_encode(row, col, pass_idx, dest_idx)]
                    for action in range(6):
                        if is_rainy:
                            entry[action] = _rainy(rules, row, col, pass_idx, dest_idx, action, rainy_probability)
                        else:
                            entry[action] = _dry(rules, row, col, pass_idx, dest_idx, action)
    return table
