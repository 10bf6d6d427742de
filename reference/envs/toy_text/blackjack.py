"""Blackjack against a dealer who hits below 17, drawing from an infinite deck (Sutton & Barto, Example 5.1).

Observation ``(player_sum, dealer_showing, usable_ace)``; actions 0 stick, 1 hit. Going over 21 loses (-1);
sticking lets the dealer play and scores +1/0/-1. ``natural`` pays 1.5 for a winning natural blackjack;
``sab`` (Sutton & Barto's rules, the registered default) makes a player natural win unless the dealer also has one.
Seeded trajectories are identical to Gymnasium 1.x's ``BlackjackEnv``, including the draws for the face card and
suit that are only shown when rendering.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np

from reference.core import Env
from reference._framework import step_before_reset, validate_render_mode
from reference.envs._checks import DiscreteAction, discrete_action
from reference.envs._rendering import Canvas, CanvasRenderer
from reference.spaces.discrete import Discrete
from reference.spaces.tuple import Tuple

__all__ = [
    "SCREEN_SIZE",
    "BlackjackEnv",
    "cmp",
    "deck",
    "draw_card",
    "draw_hand",
    "is_bust",
    "is_natural",
    "score",
    "sum_hand",
    "usable_ace",
]

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]
_Obs: TypeAlias = tuple[int, int, int]

#: Card values of one suit: ace as 1, face cards as 10.
deck = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
_SUITS = ("C", "D", "H", "S")
_FACES = ("J", "Q", "K")
SCREEN_SIZE = (384, 376)


def cmp(a: float, b: float) -> float:
    """Three-way comparison as a float: 1.0, 0.0 or -1.0."""
    return float(a > b) - float(a < b)


def draw_card(np_random: np.random.Generator) -> int:
    """Draw one card value uniformly from :data:`deck` (one bounded-integer draw)."""
    return deck[int(np_random.integers(len(deck)))]


def draw_hand(np_random: np.random.Generator) -> list[int]:
    """Draw a two-card hand."""
    return [draw_card(np_random), draw_card(np_random)]


def usable_ace(hand: list[int]) -> int:
    """1 if the hand holds an ace that can count as 11 without busting, else 0."""
    return int(1 in hand and sum(hand) + 10 <= 21)


def sum_hand(hand: list[int]) -> int:
    """The hand's best total (an ace counts 11 when that does not bust)."""
    return sum(hand) + 10 if usable_ace(hand) else sum(hand)


def is_bust(hand: list[int]) -> bool:
    """Whether the hand's best total exceeds 21."""
    return sum_hand(hand) > 21


def score(hand: list[int]) -> int:
    """The hand's total, or 0 when bust."""
    return 0 if is_bust(hand) else sum_hand(hand)


def is_natural(hand: list[int]) -> bool:
    """Whether the hand is an ace and a ten-valued card."""
    return sorted(hand) == [1, 10]


class BlackjackEnv(CanvasRenderer[_Obs], Env["tuple[int | np.int64, ...]", DiscreteAction]):
    """Simplified blackjack.

    Args:
        render_mode: None, ``"human"`` or ``"rgb_array"``.
        natural: Pay 1.5 for a winning natural blackjack (ignored when ``sab``).
        sab: Follow Sutton & Barto: a player natural wins (+1) unless the dealer also has one.

    Raises:
        UnsupportedRenderMode: If ``render_mode`` is not declared in :attr:`metadata`.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 4}
    _render_owner = "BlackjackEnv"
    _render_caption = "Blackjack"

    def __init__(self, render_mode: str | None = None, natural: bool = False, sab: bool = False) -> None:
        self.render_mode = validate_render_mode(type(self).__name__, render_mode, self.metadata)
        self.action_space = Discrete(2)
        self.observation_space = Tuple((Discrete(32), Discrete(11), Discrete(2)))
        self.natural = natural
        self.sab = sab
        self.player: list[int] = []
        self.dealer: list[int] = []
        self.dealer_top_card_suit = ""
        self.dealer_top_card_value_str = ""
        self._canvas = None

    def step(self, action: DiscreteAction) -> tuple[_Obs, float, bool, bool, _Info]:
        """Hit or stick.

        Args:
            action: 0 stick (the dealer plays and the hand is scored), 1 hit (draw a card).

        Returns:
            ``(observation, reward, terminated, False, {})``.

        Raises:
            InvalidDiscreteAction: If the action is not 0 or 1.
            StepBeforeReset: If the environment was never reset.
        """
        act = action if type(action) is int and 0 <= action <= 1 else discrete_action("BlackjackEnv", action, 2)
        if not self.player:
            raise step_before_reset("BlackjackEnv")
        if act:
            self.player.append(draw_card(self.np_random))
            terminated = is_bust(self.player)
            reward = -1.0 if terminated else 0.0
        else:
            terminated = True
            while sum_hand(self.dealer) < 17:
                self.dealer.append(draw_card(self.np_random))
            reward = cmp(score(self.player), score(self.dealer))
            if self.sab and is_natural(self.player) and not is_natural(self.dealer):
                reward = 1.0
            elif not self.sab and self.natural and is_natural(self.player) and reward == 1.0:
                reward = 1.5
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, {}

    def _observation(self) -> _Obs:
        total = sum(self.player)
        if 1 in self.player and total + 10 <= 21:
            return total + 10, self.dealer[0], 1
        return total, self.dealer[0], 0

    def reset(self, seed: int | None = None, options: _Options | None = None) -> tuple[_Obs, _Info]:  # pyright: ignore[reportIncompatibleMethodOverride]
        """Deal two cards each, and pick the suit (and face, for a ten) of the dealer's visible card.

        Args:
            seed: Reseeds :attr:`np_random` when given.
            options: Unused.

        Returns:
            ``(observation, {})``.
        """
        super().reset(seed=seed)
        self.dealer = draw_hand(self.np_random)
        self.player = draw_hand(self.np_random)
        # These draws only feed rendering, but they advance the generator exactly as Gymnasium's do.
        self.dealer_top_card_suit = _SUITS[int(self.np_random.integers(len(_SUITS)))]
        showing = self.dealer[0]
        if showing == 1:
            self.dealer_top_card_value_str = "A"
        elif showing == 10:
            self.dealer_top_card_value_str = _FACES[int(self.np_random.integers(len(_FACES)))]
        else:
            self.dealer_top_card_value_str = str(showing)
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def _render_state(self) -> _Obs | None:
        # The hand is empty until the first reset deals it.
        return self._observation() if self.player else None

    def _canvas_size(self) -> tuple[int, int]:
        return SCREEN_SIZE

    def _draw(self, canvas: Canvas, state: _Obs) -> None:
        surface = canvas.surface  # imports pygame, with a helpful error if it is missing
        from pygame import draw

        player_sum, dealer_value, ace = state
        ink, paper, felt = (20, 40, 20), (250, 250, 245), (196, 216, 158)
        small, big = canvas.font(28), canvas.font(96)
        surface.fill(felt)
        surface.blit(small.render(f"Dealer: {dealer_value}", True, ink), (40, 32))

        card_w, card_h = 80, 112
        draw.rect(surface, paper, (96, 72, card_w, card_h), border_radius=8)
        draw.rect(surface, ink, (96, 72, card_w, card_h), 2, border_radius=8)
        red_suit = self.dealer_top_card_suit in ("D", "H")
        label = small.render(self.dealer_top_card_value_str + self.dealer_top_card_suit, True,
                             (180, 30, 30) if red_suit else ink)
        surface.blit(label, (96 + (card_w - label.get_width()) // 2, 72 + (card_h - label.get_height()) // 2))
        draw.rect(surface, (60, 80, 160), (208, 72, card_w, card_h), border_radius=8)
        draw.rect(surface, paper, (216, 80, card_w - 16, card_h - 16), 2, border_radius=6)

        surface.blit(small.render("Player", True, ink), (40, 208))
        total = big.render(str(player_sum), True, ink)
        surface.blit(total, ((SCREEN_SIZE[0] - total.get_width()) // 2, 248))
        if ace:
            text = small.render("usable ace", True, ink)
            surface.blit(text, ((SCREEN_SIZE[0] - text.get_width()) // 2, 328))
