"""reference.utils.play: key mapping, PlayableGame event handling and a short scripted play session (dummy SDL)."""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pygame
import pytest

from reference.envs.classic_control.cartpole import CartPoleEnv
from reference.envs.classic_control.mountain_car import MountainCarEnv
from reference.error import DependencyNotInstalled
from reference.utils.play import MissingKeysToAction, PlayableGame, PlayPlot, display_arr, play


@pytest.fixture
def cartpole() -> CartPoleEnv:
    env = CartPoleEnv(render_mode="rgb_array")
    env.reset(seed=0)
    return env


def _event(kind: int, **attrs: Any) -> pygame.event.Event:
    return pygame.event.Event(kind, attrs)


def _running(game: PlayableGame) -> bool:
    return game.running  # a call, so the checker does not carry narrowing across process_event()


def test_playable_game_tracks_relevant_keys(cartpole: CartPoleEnv) -> None:
    game = PlayableGame(cartpole, {(ord("a"),): 0, (ord("d"),): 1}, zoom=0.5)
    try:
        assert game.relevant_keys == {ord("a"), ord("d")}
        assert game.video_size == (300, 200)
        game.process_event(_event(pygame.KEYDOWN, key=ord("d")))
        game.process_event(_event(pygame.KEYDOWN, key=ord("x")))  # irrelevant keys are ignored
        assert game.pressed_keys == {ord("d")}
        game.process_event(_event(pygame.KEYUP, key=ord("d")))
        assert game.pressed_keys == set()
        game.process_event(_event(pygame.WINDOWRESIZED, x=600, y=600))
        assert game.video_size == (600, 400)  # aspect ratio kept, scaled from the original size
        assert _running(game)
        game.process_event(_event(pygame.KEYDOWN, key=pygame.K_ESCAPE))
        assert not _running(game)
        game.running = True
        game.process_event(_event(pygame.QUIT))
        assert not _running(game)
    finally:
        pygame.display.quit()


def test_playable_game_argument_checks(cartpole: CartPoleEnv) -> None:
    with pytest.raises(ValueError, match="render_mode must be 'rgb_array'"):
        PlayableGame(CartPoleEnv(), {(1,): 0})
    with pytest.raises(ValueError, match="zoom must be > 0"):
        PlayableGame(cartpole, {(1,): 0}, zoom=0)
    with pytest.raises(MissingKeysToAction, match="get_keys_to_action"):
        PlayableGame(cartpole)


def test_display_arr_scales_and_centres() -> None:
    screen = pygame.Surface((40, 20))
    frame = np.zeros((5, 10, 3), dtype=np.uint8)
    frame[..., 0] = 255
    display_arr(screen, frame, video_size=(20, 10), transpose=True)
    assert tuple(screen.get_at((20, 10)))[:3] == (255, 0, 0)  # inside the centred image
    assert tuple(screen.get_at((1, 1)))[:3] == (0, 0, 0)  # black bar
    with pytest.raises(TypeError, match="uint8"):
        wrong = frame.astype(np.float32)
        display_arr(screen, wrong, video_size=(20, 10), transpose=True)  # type: ignore[arg-type]


def test_play_maps_held_keys_to_actions_until_quit() -> None:
    env = CartPoleEnv(render_mode="rgb_array")
    taken: list[int] = []

    def callback(obs_t: Any, obs_tp1: Any, action: int, rew: float, term: bool, trunc: bool, info: Any) -> None:
        taken.append(action)
        if len(taken) == 2:
            pygame.event.post(_event(pygame.KEYDOWN, key=ord("d")))
        elif len(taken) == 5:
            pygame.event.post(_event(pygame.QUIT))

    play(env, keys_to_action={"a": 0, "d": 1}, noop=0, fps=1000, seed=3, callback=callback)
    # Events are processed after each step, so the key pressed during step 2 drives steps 3 to 5.
    assert taken == [0, 0, 1, 1, 1]


def test_play_uses_the_environment_default_mapping_with_the_empty_combination() -> None:
    env = MountainCarEnv(render_mode="rgb_array")
    mapping = env.get_keys_to_action()
    assert mapping[()] == 1 and mapping[(pygame.K_LEFT,)] == 0 and mapping[(pygame.K_RIGHT,)] == 2
    taken: list[int] = []

    def callback(*args: Any) -> None:
        taken.append(args[2])
        pygame.event.post(_event(pygame.QUIT))

    play(env, fps=1000, noop=0, callback=callback)
    assert taken == [1]  # no key held: the () combination, not noop


def test_play_argument_checks() -> None:
    env = CartPoleEnv(render_mode="rgb_array")
    with pytest.raises(ValueError, match="keys_to_action must be given"):
        play(env)
    with pytest.raises(ValueError, match="must be in the action space"):
        play(env, keys_to_action={"a": 5})
    with pytest.raises(TypeError, match="must be a dict"):
        play(env, keys_to_action=[("a", 0)])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="single character"):
        play(env, keys_to_action={("left",): 0})
    with pytest.raises(TypeError, match="ints"):
        play(env, keys_to_action={(1.5,): 0})  # type: ignore[dict-item]


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is not None, reason="matplotlib is installed")
def test_play_plot_needs_matplotlib() -> None:
    with pytest.raises(DependencyNotInstalled, match="matplotlib"):
        PlayPlot(lambda *args: [args[3]], horizon_timesteps=10, plot_names=["reward"])
    with pytest.raises(ValueError, match="horizon_timesteps"):
        PlayPlot(lambda *args: [args[3]], horizon_timesteps=0, plot_names=["reward"])
