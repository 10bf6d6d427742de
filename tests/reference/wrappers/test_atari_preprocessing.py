"""Tests for AtariPreprocessing over a stand-in ALE environment (ale-py is not a dependency).

The stand-in has what the wrapper reads from an ALE environment: ``unwrapped.ale`` (``getScreenRGB``,
``getScreenGrayscale``, ``lives``), ``_frameskip`` and ``get_action_meanings``. The same stand-in is built on
reference's and on Gymnasium's ``Env``, so both wrappers can run side by side.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from reference.core import Env
from reference.spaces import Box, Discrete
from reference.wrappers import AtariPreprocessing
from tests.reference._equality import assert_identical

_H, _W = 42, 32


class _Ale:
    """Screens that change every frame (and flicker, so max-pooling matters); a life lost every 7 frames."""

    def __init__(self) -> None:
        self.frame = 0
        self.offset = 0

    def _rgb(self) -> np.ndarray[Any, Any]:
        rows = np.arange(_H)[:, None, None]
        cols = np.arange(_W)[None, :, None]
        channels = np.arange(3)[None, None, :]
        flicker = 80 * (self.frame % 2)
        return ((rows * 3 + cols * 5 + channels * 40 + self.frame * 11 + self.offset + flicker) % 256).astype(np.uint8)

    def getScreenRGB(self, out: np.ndarray[Any, Any]) -> None:  # noqa: N802 - ALE's method name
        out[...] = self._rgb()

    def getScreenGrayscale(self, out: np.ndarray[Any, Any]) -> None:  # noqa: N802 - ALE's method name
        out[...] = self._rgb()[..., 1]

    def lives(self) -> int:
        return 5 - self.frame // 7


def _stand_in(base: type, box: type, discrete: type) -> type:
    class FakeAtari(base):  # type: ignore[misc]
        metadata: dict[str, Any] = {"render_modes": []}

        def __init__(self, frameskip: int = 1, length: int = 40) -> None:
            self.observation_space = box(0, 255, (_H, _W, 3), dtype=np.uint8)
            self.action_space = discrete(4)
            self._frameskip = frameskip
            self.length = length
            self.ale = _Ale()

        def get_action_meanings(self) -> list[str]:
            return ["NOOP", "FIRE", "LEFT", "RIGHT"]

        def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
            super().reset(seed=seed)
            self.ale.frame = 0
            self.ale.offset = int(self.np_random.integers(0, 50))
            return self.ale._rgb(), {"reset": True}

        def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
            self.ale.frame += 1
            return self.ale._rgb(), float(action) + self.ale.frame % 3, self.ale.frame >= self.length, False, {
                "frame": self.ale.frame
            }

    return FakeAtari


OursFake = _stand_in(Env, Box, Discrete)


def _pair(**kwargs: Any) -> tuple[Any, Any]:
    pytest.importorskip("cv2")  # Gymnasium's wrapper needs OpenCV
    gymnasium = pytest.importorskip("gymnasium")
    theirs_fake = _stand_in(gymnasium.Env, gymnasium.spaces.Box, gymnasium.spaces.Discrete)
    ours = AtariPreprocessing(OursFake(), **kwargs)
    theirs = gymnasium.wrappers.AtariPreprocessing(theirs_fake(), **kwargs)
    return ours, theirs


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"noop_max": 0, "frame_skip": 1, "screen_size": (20, 30)},
        {"grayscale_obs": False, "scale_obs": True, "frame_skip": 3},
        {"grayscale_newaxis": True, "terminal_on_life_loss": True, "noop_max": 5},
    ],
    ids=repr,
)
def test_matches_gymnasium(kwargs: dict[str, Any]) -> None:
    ours, theirs = _pair(**kwargs)
    assert repr(ours.observation_space) == repr(theirs.observation_space)
    for seed in (0, 1):
        obs_a, info_a = ours.reset(seed=seed)
        obs_b, info_b = theirs.reset(seed=seed)
        assert_identical(obs_a, obs_b)
        assert info_a == info_b
        for step in range(30):
            a, b = ours.step(step % 4), theirs.step(step % 4)
            assert_identical(a[0], b[0])
            assert a[1:] == b[1:]
            assert a[0] in ours.observation_space
            if a[2] or a[3]:
                break


def test_observation_space_and_fresh_arrays() -> None:
    env = AtariPreprocessing(OursFake(), screen_size=(16, 12), noop_max=0)
    assert env.observation_space == Box(0, 255, (12, 16), dtype=np.uint8)
    first, _ = env.reset(seed=0)
    second = env.step(0)[0]
    assert first.shape == (12, 16) and not np.shares_memory(first, second)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"frame_skip": 0}, "frame_skip must be a positive int"),
        ({"screen_size": 0}, "screen_size must be a positive int"),
        ({"screen_size": (10, -1)}, "screen_size must be a positive int"),
        ({"noop_max": -1}, "noop_max must be a non-negative int"),
    ],
)
def test_invalid_arguments(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        AtariPreprocessing(OursFake(), **kwargs)


def test_rejects_an_environment_that_skips_frames_itself() -> None:
    with pytest.raises(ValueError, match="frameskip=1"):
        AtariPreprocessing(OursFake(frameskip=4), frame_skip=4)
    assert AtariPreprocessing(OursFake(frameskip=4), frame_skip=1).frame_skip == 1
