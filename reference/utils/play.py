"""Play an environment with the keyboard, and plot live metrics while doing so (Gymnasium's ``utils.play``).

:func:`play` shows the frames of an ``rgb_array`` environment in a pygame window and turns the set of currently
pressed keys into actions through a ``keys_to_action`` mapping. :class:`PlayableGame` holds the window and the
pressed-key state; :func:`display_arr` draws one frame; :class:`PlayPlot` (needs matplotlib) plots metrics
computed from each transition.

Importing this module needs pygame (:class:`~reference.error.DependencyNotInstalled` otherwise); it starts only
pygame's display subsystem, and only when a game is created.
"""

from __future__ import annotations

import importlib
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeAlias, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from reference._narrowing import is_array, is_list, is_mapping
from reference.error import DependencyNotInstalled

try:
    import pygame
    from pygame import Surface
    from pygame.event import Event
except ImportError as _exc:  # pragma: no cover - pygame is a hard dependency of the distribution
    raise DependencyNotInstalled(
        "reference.utils.play needs pygame, got ImportError; install it with `pip install pygame`"
    ) from _exc

__all__ = ["MissingKeysToAction", "PlayPlot", "PlayableGame", "display_arr", "play"]

_Env: TypeAlias = Any  # any Gymnasium-style environment or wrapper with an rgb_array render mode
_Action: TypeAlias = Any
_Obs: TypeAlias = Any
_Info: TypeAlias = dict[str, Any]
_KeyCombination: TypeAlias = "tuple[str | int, ...] | str | int"
_KeyCodes: TypeAlias = tuple[int, ...]
_Callback: TypeAlias = Callable[[_Obs, _Obs, _Action, float, bool, bool, _Info], Any]
_Matplotlib: TypeAlias = Any  # matplotlib objects; matplotlib is optional and untyped here

_ObsT_contra = TypeVar("_ObsT_contra", contravariant=True)
_ActT_contra = TypeVar("_ActT_contra", contravariant=True)


class MissingKeysToAction(Exception):
    """The environment has no ``get_keys_to_action`` method and no ``keys_to_action`` mapping was given."""


def _env_name(env: _Env) -> str:
    spec = getattr(env, "spec", None)
    return spec.id if spec is not None else type(env).__name__


def _default_keys_to_action(env: _Env, owner: str) -> Mapping[Any, _Action]:
    if env.has_wrapper_attr("get_keys_to_action"):
        mapping = env.get_wrapper_attr("get_keys_to_action")()
        if not is_mapping(mapping):
            raise TypeError(
                f"{owner} keys_to_action from {_env_name(env)}.get_keys_to_action() must be a dict, "
                f"got {type(mapping).__name__}"
            )
        return mapping
    raise MissingKeysToAction(
        f"{owner} keys_to_action must be given: {_env_name(env)} has no get_keys_to_action() default; "
        "pass e.g. keys_to_action={'a': 0, 'd': 1}"
    )


def _key_codes(combination: _KeyCombination) -> _KeyCodes:
    """Normalise a key combination to the sorted tuple of key codes used for lookups."""
    keys: Iterable[str | int] = (combination,) if isinstance(combination, int) else combination
    codes: list[int] = []
    for key in keys:
        if isinstance(key, str):
            if len(key) != 1:
                raise ValueError(f"play keys_to_action key must be a single character, got {key!r} in {combination!r}")
            codes.append(ord(key))
        elif isinstance(key, int):
            codes.append(key)
        else:
            raise TypeError(
                f"play keys_to_action keys must be ints (key codes) or one-character strings, got {key!r} "
                f"in {combination!r}"
            )
    return tuple(sorted(codes))


class PlayableGame:
    """A pygame window showing an environment's frames, tracking which relevant keys are held down.

    Args:
        env: An environment whose ``render_mode`` is ``"rgb_array"`` or ``"rgb_array_list"``.
        keys_to_action: Key-code tuples to actions; None asks ``env.get_keys_to_action()``.
        zoom: Scale factor for the window (> 0).

    Raises:
        ValueError: If the render mode is not an ``rgb_array`` mode or ``zoom <= 0``.
        MissingKeysToAction: If no mapping is given and the environment has no default.
    """

    def __init__(
        self, env: _Env, keys_to_action: Mapping[_KeyCodes, _Action] | None = None, zoom: float | None = None
    ) -> None:
        if env.render_mode not in {"rgb_array", "rgb_array_list"}:
            raise ValueError(
                f"PlayableGame env.render_mode must be 'rgb_array' or 'rgb_array_list', got {env.render_mode!r}"
            )
        if zoom is not None and not zoom > 0:
            raise ValueError(f"PlayableGame zoom must be > 0, got {zoom!r}")
        self.env = env
        self.relevant_keys = self._get_relevant_keys(keys_to_action)
        # Resizing always scales from the original size, so repeated resizes do not accumulate rounding drift.
        self.original_video_size = self._get_video_size(zoom)
        self.video_size = self.original_video_size
        pygame.display.init()
        self.screen: Surface = pygame.display.set_mode(self.video_size, pygame.RESIZABLE)
        self.pressed_keys: set[int] = set()
        self.running = True

    def _get_relevant_keys(self, keys_to_action: Mapping[Any, _Action] | None) -> set[int]:
        mapping = keys_to_action if keys_to_action is not None else _default_keys_to_action(self.env, "PlayableGame")
        if not is_mapping(mapping):
            raise TypeError(f"PlayableGame keys_to_action must be a dict, got {type(mapping).__name__}")
        return {code for combination in mapping for code in _key_codes(combination)}

    def _get_video_size(self, zoom: float | None) -> tuple[int, int]:
        rendered: object = self.env.render()
        if is_list(rendered):
            rendered = rendered[-1] if rendered else None
        if not is_array(rendered) or rendered.ndim != 3:
            raise ValueError(
                f"PlayableGame env.render() must return an (H, W, 3) array, got {type(rendered).__name__}; "
                "reset the environment before creating the game"
            )
        width, height = int(rendered.shape[1]), int(rendered.shape[0])
        if zoom is not None:
            width, height = int(width * zoom), int(height * zoom)
        return width, height

    def process_event(self, event: Event) -> None:
        """Update the pressed keys, the running flag or the video size from one pygame event.

        Escape and closing the window stop the game; a window resize rescales the video, keeping its aspect.

        Args:
            event: The pygame event.
        """
        if event.type == pygame.KEYDOWN:
            if event.key in self.relevant_keys:
                self.pressed_keys.add(event.key)
            elif event.key == pygame.K_ESCAPE:
                self.running = False
        elif event.type == pygame.KEYUP:
            if event.key in self.relevant_keys:
                self.pressed_keys.discard(event.key)
        elif event.type == pygame.QUIT:
            self.running = False
        elif event.type == pygame.WINDOWRESIZED:
            base_w, base_h = self.original_video_size
            scale = min(event.x / base_w, event.y / base_h)
            self.video_size = (round(scale * base_w), round(scale * base_h))


def display_arr(screen: Surface, arr: NDArray[np.uint8], video_size: tuple[int, int], transpose: bool | None) -> None:
    """Draw an RGB frame on a surface, scaled to ``video_size`` and centred (black bars fill the rest).

    Args:
        screen: The surface to draw on.
        arr: The frame, uint8, ``(H, W, 3)`` when ``transpose`` (the ``rgb_array`` layout) else ``(W, H, 3)``.
        video_size: The ``(width, height)`` to scale to.
        transpose: Whether ``arr`` is in ``(H, W, 3)`` layout.

    Raises:
        TypeError: If ``arr`` is not a uint8 array.
    """
    if not is_array(arr) or arr.dtype != np.uint8:
        got = f"array(shape={arr.shape}, dtype={arr.dtype})" if is_array(arr) else type(arr).__name__
        raise TypeError(f"display_arr arr must be a uint8 array, got {got}")
    image = pygame.surfarray.make_surface(arr.swapaxes(0, 1) if transpose else arr)
    image = pygame.transform.scale(image, video_size)
    screen_w, screen_h = screen.get_size()
    screen.fill((0, 0, 0))
    screen.blit(image, ((screen_w - video_size[0]) / 2, (screen_h - video_size[1]) / 2))


def play(
    env: _Env,
    transpose: bool | None = True,
    fps: int | None = None,
    zoom: float | None = None,
    callback: _Callback | None = None,
    keys_to_action: Mapping[_KeyCombination, _Action] | None = None,
    seed: int | None = None,
    noop: _Action = 0,
    wait_on_player: bool = False,
) -> None:
    """Play an environment with the keyboard until the window is closed or Escape is pressed.

    Each loop iteration steps the environment with the action mapped to the currently held keys (``noop`` when
    the combination is unmapped), shows the frame and processes window events. Episodes restart automatically,
    reset with ``seed``.

    Args:
        env: An environment with ``render_mode`` ``"rgb_array"`` (or ``"rgb_array_list"``).
        transpose: Whether frames are ``(H, W, 3)`` (True for ``rgb_array``).
        fps: Steps per second; None uses ``env.metadata["render_fps"]`` (30 if absent).
        zoom: Window scale factor.
        callback: Called after every step with ``(obs_t, obs_tp1, action, reward, terminated, truncated, info)``.
        keys_to_action: Key combinations to actions. A combination is a key code, a one-character string, a
            string of several characters pressed together (``"wa"``), or a tuple of codes/characters; the empty
            tuple maps "no key pressed". None asks ``env.get_keys_to_action()``.
        seed: Seed for every reset.
        noop: The action used when no mapped combination is held.
        wait_on_player: Only step while some key is held (for turn-based games).

    Raises:
        MissingKeysToAction: If no mapping is given and the environment has no default.
        ValueError: If ``env`` has no spec and no default mapping, or a mapped action is not in the action space.
        TypeError: If ``keys_to_action`` is not a dict, a key has the wrong type, or ``render_fps`` is not an int.
    """
    env.reset(seed=seed)
    if keys_to_action is None:
        if not env.has_wrapper_attr("get_keys_to_action") and getattr(env, "spec", None) is None:
            raise ValueError(
                "play keys_to_action must be given for an environment without a spec or get_keys_to_action(), "
                f"got None for {type(env).__name__}"
            )
        keys_to_action = _default_keys_to_action(env, "play")
    if not is_mapping(keys_to_action):
        raise TypeError(f"play keys_to_action must be a dict, got {type(keys_to_action).__name__}")
    key_code_to_action: dict[_KeyCodes, _Action] = {}
    for combination, action in keys_to_action.items():
        if not isinstance(combination, (tuple, str, int)):
            raise TypeError(
                f"play keys_to_action keys must be ints, strings or tuples of them, got {type(combination).__name__}"
            )
        if action not in env.action_space:
            raise ValueError(
                f"play keys_to_action actions must be in the action space {env.action_space}, "
                f"got {action!r} for key {combination!r}"
            )
        key_code_to_action[_key_codes(combination)] = action

    game = PlayableGame(env, key_code_to_action, zoom)
    if fps is None:
        fps = env.metadata.get("render_fps", 30)
        if not isinstance(fps, int):
            raise TypeError(f"play env.metadata['render_fps'] must be an int, got {fps!r}")

    done, obs = True, None
    clock = pygame.time.Clock()
    try:
        while game.running:
            if done:
                done = False
                obs = env.reset(seed=seed)
            elif not wait_on_player or game.pressed_keys:
                action = key_code_to_action.get(tuple(sorted(game.pressed_keys)), noop)
                prev_obs = obs
                obs, reward, terminated, truncated, info = env.step(action)
                done = terminated or truncated
                if callback is not None:
                    callback(prev_obs, obs, action, reward, terminated, truncated, info)
            if obs is not None:
                rendered: object = env.render()
                if is_list(rendered):
                    rendered = rendered[-1]
                frame = cast("NDArray[np.uint8]", rendered)  # PlayableGame checked the mode renders arrays
                display_arr(game.screen, frame, video_size=game.video_size, transpose=transpose)
            for event in pygame.event.get():
                game.process_event(event)
            pygame.display.flip()
            clock.tick(fps)
    finally:
        pygame.display.quit()


class PlayPlot(Generic[_ObsT_contra, _ActT_contra]):
    """Live scatter plots of metrics computed from each transition, fed by :func:`play`'s callback.

    Args:
        callback: Maps ``(obs_t, obs_tp1, action, reward, terminated, truncated, info)`` to one value per plot.
        horizon_timesteps: How many recent steps each plot shows.
        plot_names: One title per plot.

    Raises:
        DependencyNotInstalled: If matplotlib is not installed.
        ValueError: If ``horizon_timesteps < 1`` or ``plot_names`` is empty.
    """

    def __init__(
        self,
        callback: Callable[[_ObsT_contra, _ObsT_contra, _ActT_contra, float, bool, bool, _Info], Iterable[Any]],
        horizon_timesteps: int,
        plot_names: list[str],
    ) -> None:
        if horizon_timesteps < 1:
            raise ValueError(f"PlayPlot horizon_timesteps must be >= 1, got {horizon_timesteps!r}")
        if not plot_names:
            raise ValueError(f"PlayPlot plot_names must name at least one plot, got {plot_names!r}")
        try:
            plt = importlib.import_module("matplotlib.pyplot")
        except ImportError as exc:
            raise DependencyNotInstalled(
                "PlayPlot needs matplotlib, got ImportError; install it with `pip install matplotlib`"
            ) from exc
        self._plt: _Matplotlib = plt
        self.data_callback = callback
        self.horizon_timesteps = horizon_timesteps
        self.plot_names = plot_names
        self.fig, axes = plt.subplots(len(plot_names))
        self.ax: list[_Matplotlib] = [axes] if len(plot_names) == 1 else list(axes)
        for axis, name in zip(self.ax, plot_names):
            axis.set_title(name)
        self.t = 0
        self.cur_plot: list[_Matplotlib | None] = [None] * len(plot_names)
        self.data: list[deque[float]] = [deque(maxlen=horizon_timesteps) for _ in plot_names]

    def callback(
        self,
        obs_t: _ObsT_contra,
        obs_tp1: _ObsT_contra,
        action: _ActT_contra,
        rew: float,
        terminated: bool,
        truncated: bool,
        info: _Info,
    ) -> None:
        """Compute the metrics for one transition and redraw the plots.

        Args:
            obs_t: The observation before the step.
            obs_tp1: The observation after the step.
            action: The action taken.
            rew: The reward received.
            terminated: Whether the episode terminated.
            truncated: Whether the episode was truncated.
            info: The step's info dict.

        Raises:
            ValueError: If the metric callback returns a different number of values than there are plots.
        """
        points = list(self.data_callback(obs_t, obs_tp1, action, rew, terminated, truncated, info))
        if len(points) != len(self.data):
            raise ValueError(
                f"PlayPlot callback must return {len(self.data)} values (one per plot), got {len(points)}"
            )
        for point, series in zip(points, self.data):
            series.append(point)
        self.t += 1
        xmin, xmax = max(0, self.t - self.horizon_timesteps), self.t
        for i, plot in enumerate(self.cur_plot):
            if plot is not None:
                plot.remove()
            self.cur_plot[i] = self.ax[i].scatter(range(xmin, xmax), list(self.data[i]), c="blue")
            self.ax[i].set_xlim(xmin, xmax)
        self._plt.pause(0.000001)
