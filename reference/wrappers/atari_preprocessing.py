"""The :class:`AtariPreprocessing` wrapper: the standard frame preprocessing of DQN-style Atari agents."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, SupportsFloat, TypeAlias, cast

import numpy as np

from reference._framework import require_bool
from reference.core import Env, Wrapper
from reference.spaces.box import Box
from reference.utils._format import describe
from reference.utils.record_constructor import RecordConstructorArgs
from reference.wrappers._image import resize_image
from reference.wrappers._shared import is_int

__all__ = ["AtariPreprocessing"]

_Array: TypeAlias = "np.ndarray[Any, Any]"
_Action: TypeAlias = Any
class _Ale(Protocol):
    """The part of ``ale_py.ALEInterface`` the wrapper uses (ale_py ships no type information)."""

    def lives(self) -> int: ...

    def getScreenRGB(self, screen_data: _Array, /) -> None: ...  # ale_py's name

    def getScreenGrayscale(self, screen_data: _Array, /) -> None: ...  # ale_py's name

_Info: TypeAlias = dict[str, Any]
_Options: TypeAlias = dict[str, Any]


class AtariPreprocessing(Wrapper[_Array, _Action, _Array, _Action], RecordConstructorArgs):
    """Atari 2600 preprocessing (Machado et al. 2018), excluding frame stacking.

    * No-op reset: after ``reset``, a random number (1 to ``noop_max``) of ``NOOP`` actions is taken.
    * Frame skipping: ``step`` repeats the action ``frame_skip`` times, summing the rewards.
    * Max-pooling over the last two frames of a skip (removes Atari flicker).
    * Termination on life loss (optional): ``terminated`` whenever a life is lost.
    * Resize to ``screen_size`` (area interpolation; OpenCV when installed, as Gymnasium) and greyscale.
    * Scaling to ``[0, 1)`` float32 (optional).

    The environment must be an ALE environment (``ale_py``): frames are read from ``env.unwrapped.ale``
    (``getScreenRGB``/``getScreenGrayscale``, ``lives``), and its own frame skipping must be off
    (``frameskip=1``) when ``frame_skip > 1``.

    Args:
        env: The ALE environment.
        noop_max: The most no-ops taken at reset; ``0`` turns no-op resets off.
        frame_skip: Frames per ``step`` (``1`` turns skipping and max-pooling off).
        screen_size: The frame size: one int for a square, or ``(width, height)``.
        terminal_on_life_loss: Report ``terminated=True`` when a life is lost.
        grayscale_obs: Greyscale ``(height, width)`` frames instead of RGB ``(height, width, 3)``.
        grayscale_newaxis: With ``grayscale_obs``, keep a channel axis: ``(height, width, 1)``.
        scale_obs: float32 frames in ``[0, 1)`` instead of uint8.

    Raises:
        ValueError: If ``frame_skip`` or ``screen_size`` is not positive, ``noop_max`` is negative, the
            environment skips frames itself while ``frame_skip > 1``, or action 0 is not ``NOOP`` while
            ``noop_max > 0``.
        TypeError: If the observation space is not a Box.

    Example:
        With ``ale_py`` installed (it is not a dependency, so this example is not run):

        >>> from ale_py.env import AtariEnv  # doctest: +SKIP
        >>> env = AtariPreprocessing(AtariEnv("pong", frameskip=1), screen_size=84, noop_max=30)  # doctest: +SKIP
        >>> env.observation_space  # doctest: +SKIP
        Box(0, 255, (84, 84), uint8)
    """

    def __init__(
        self,
        env: Env[_Array, _Action],
        noop_max: int = 30,
        frame_skip: int = 4,
        screen_size: int | tuple[int, int] = 84,
        terminal_on_life_loss: bool = False,
        grayscale_obs: bool = True,
        grayscale_newaxis: bool = False,
        scale_obs: bool = False,
    ) -> None:
        RecordConstructorArgs.__init__(
            self,
            noop_max=noop_max,
            frame_skip=frame_skip,
            screen_size=screen_size,
            terminal_on_life_loss=terminal_on_life_loss,
            grayscale_obs=grayscale_obs,
            grayscale_newaxis=grayscale_newaxis,
            scale_obs=scale_obs,
        )
        Wrapper.__init__(self, env)
        require_bool(
            "AtariPreprocessing",
            terminal_on_life_loss=terminal_on_life_loss,
            grayscale_obs=grayscale_obs,
            grayscale_newaxis=grayscale_newaxis,
            scale_obs=scale_obs,
        )
        if not is_int(frame_skip) or frame_skip <= 0:
            raise ValueError(f"AtariPreprocessing frame_skip must be a positive int, got {frame_skip!r}")
        sizes = screen_size if isinstance(screen_size, tuple) else (screen_size, screen_size)
        if len(sizes) != 2 or not all(is_int(size) and size > 0 for size in sizes):
            raise ValueError(
                f"AtariPreprocessing screen_size must be a positive int or a (width, height) pair of them, "
                f"got {screen_size!r}"
            )
        if not hasattr(env.unwrapped, "ale"):
            raise TypeError(
                f"AtariPreprocessing env must be an ALE environment (with env.unwrapped.ale), got {describe(env)}"
            )
        if frame_skip > 1 and getattr(env.unwrapped, "_frameskip", None) != 1:
            raise ValueError(
                "AtariPreprocessing env must have its own frame skipping off when frame_skip > 1 (make it with "
                f"frameskip=1), got _frameskip={getattr(env.unwrapped, '_frameskip', None)!r}"
            )
        if not is_int(noop_max) or noop_max < 0:
            raise ValueError(f"AtariPreprocessing noop_max must be a non-negative int, got {noop_max!r}")
        meanings = getattr(env.unwrapped, "get_action_meanings", None)
        if noop_max > 0 and not (callable(meanings) and list(cast("Iterable[str]", meanings()))[:1] == ["NOOP"]):
            raise ValueError(
                "AtariPreprocessing env must have 'NOOP' as action 0 (get_action_meanings()) when noop_max > 0; "
                "pass noop_max=0"
            )
        inner = env.observation_space
        if not isinstance(inner, Box):
            raise TypeError(f"AtariPreprocessing env.observation_space must be a Box, got {type(inner).__name__}")
        self.noop_max = int(noop_max)
        self.frame_skip = int(frame_skip)
        self.screen_size: tuple[int, int] = (int(sizes[0]), int(sizes[1]))
        self.terminal_on_life_loss = terminal_on_life_loss
        self.grayscale_obs = grayscale_obs
        self.grayscale_newaxis = grayscale_newaxis
        self.scale_obs = scale_obs
        # The last two frames of a skip, max-pooled into the observation.
        frame_shape = inner.shape[:2] if grayscale_obs else inner.shape
        self.obs_buffer = [np.empty(frame_shape, dtype=np.uint8), np.empty(frame_shape, dtype=np.uint8)]
        self.lives = 0
        self.game_over: bool = False
        width, height = self.screen_size
        shape: tuple[int, ...] = (height, width) if grayscale_obs and not grayscale_newaxis else (
            height, width, 1 if grayscale_obs else 3
        )
        if scale_obs:
            self.observation_space = Box(low=0, high=1, shape=shape, dtype=np.float32)
        else:
            self.observation_space = Box(low=0, high=255, shape=shape, dtype=np.uint8)

    @property
    def ale(self) -> _Ale:
        """The emulator interface (read from the environment each time, so the wrapper pickles)."""
        ale: _Ale = getattr(self.unwrapped, "ale")
        return ale

    def _grab(self, index: int) -> None:
        if self.grayscale_obs:
            self.ale.getScreenGrayscale(self.obs_buffer[index])
        else:
            self.ale.getScreenRGB(self.obs_buffer[index])

    def step(self, action: _Action) -> tuple[_Array, SupportsFloat, bool, bool, _Info]:
        """Repeat ``action`` for ``frame_skip`` frames (stopping at an episode end), summing the rewards.

        Args:
            action: The action.

        Returns:
            The preprocessed frame, the summed reward, the flags and the last frame's info.
        """
        total_reward = 0.0
        terminated: bool = False
        truncated: bool = False
        info: _Info = {}
        for frame in range(self.frame_skip):
            _, reward, terminated, truncated, info = self.env.step(action)
            total_reward += float(reward)
            self.game_over = terminated
            if self.terminal_on_life_loss:
                lives = self.ale.lives()
                terminated = terminated or lives < self.lives
                self.game_over = terminated
                self.lives = lives
            if terminated or truncated:
                break
            if frame == self.frame_skip - 2:
                self._grab(1)
            elif frame == self.frame_skip - 1:
                self._grab(0)
        return self._observation(), total_reward, terminated, truncated, info

    def reset(self, *, seed: int | None = None, options: _Options | None = None) -> tuple[_Array, _Info]:
        """Reset, then take a random number of no-ops (resetting again if one ends the episode).

        Args:
            seed: Passed to the inner ``reset``.
            options: Passed to the inner ``reset``.

        Returns:
            The preprocessed frame and the info of the reset, updated with the no-ops' infos.
        """
        _, reset_info = self.env.reset(seed=seed, options=options)
        noops = int(self.unwrapped.np_random.integers(1, self.noop_max + 1)) if self.noop_max > 0 else 0
        for _ in range(noops):
            _, _, terminated, truncated, step_info = self.env.step(0)
            reset_info.update(step_info)
            if terminated or truncated:
                _, reset_info = self.env.reset(seed=seed, options=options)
        self.lives = self.ale.lives()
        self._grab(0)
        self.obs_buffer[1].fill(0)
        return self._observation(), reset_info

    def _observation(self) -> _Array:
        if self.frame_skip > 1:
            np.maximum(self.obs_buffer[0], self.obs_buffer[1], out=self.obs_buffer[0])
        width, height = self.screen_size
        obs = resize_image(self.obs_buffer[0], (height, width))
        if self.scale_obs:
            obs = np.asarray(obs, dtype=np.float32) / 255.0
        if self.grayscale_obs and self.grayscale_newaxis:
            obs = np.expand_dims(obs, axis=-1)
        return obs
